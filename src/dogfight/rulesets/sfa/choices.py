"""What an actor may choose: the actions it may select (SFA-SEQ-1), the moves on
offer (SFA-MOV-*, SFA-SF-3), the aborts it may pay for (SFA-SEQ-5), and the targets
its weapon can reach (SFA-ATK-2).
"""

from __future__ import annotations

import functools

import msgspec

from dogfight.geometry.hex import Hex
from dogfight.rulesets.sfa import technology as T
from dogfight.rulesets.sfa.actors import EXTRA_MOVE, may_abort, may_spend_willpower, split_key
from dogfight.rulesets.sfa.combat import bears
from dogfight.rulesets.sfa.context import Ctx
from dogfight.rulesets.sfa.craft import TECHNOLOGIES, Weapon
from dogfight.rulesets.sfa.crew import weapons_of_station
from dogfight.rulesets.sfa.maneuvers import ORIGIN, Modifiers, Path, candidate_steps, trace
from dogfight.rulesets.sfa.names import shown_name
from dogfight.rulesets.sfa.rules import SFA_RULES, SfaRules, expendable
from dogfight.rulesets.sfa.state import CraftState, Selection, SfaState


def station_weapons(state: SfaState, craft: CraftState, station: int) -> list[Weapon]:
    """Weapons a station fires: the pilot the forward ones (all with Auto-Turrets), a
    gunner the turreted ones (SFA-ATK-1, SFA-ATK-2; see `crew.weapons_of_station`)."""
    return weapons_of_station(state.type_of(craft), craft.pilot, station)


MAX_SPEED_DICE = 10
"""Most attack dice one action may give up for Speed (SFA-SEQ-2)."""


def choices_for(state: SfaState, key: str) -> list[tuple[str, str]]:
    """(kind, item) pairs an actor may select (SFA-SEQ-1)."""
    craft_id, station = split_key(key)
    craft = state.craft.get(craft_id)
    if craft is None:
        return []
    out = [("none", "")]
    if state.is_person(craft):
        # A Street Fighter picks one of its maneuvers, or moves 3 more hexes where it
        # can move at all; it carries no equipment (SFA-SF-2).
        out += [("attack", w.name) for w in state.type_of(craft).weapons]
        if state.map_scale == 0:
            out.append(("extra_move", ""))
        return out
    out += [
        ("attack", w.name)
        for w in station_weapons(state, craft, station)
        if not expendable(w) or craft.expended.get(w.name, 0) < w.count
    ]
    if station == 0 and state.type_of(craft).move > 0:
        out.append(("extra_move", ""))
        out += [
            ("equipment", tech)
            for tech in TECHNOLOGIES
            if tech in T.ACTION_TECHS and not T.equipment_problem(state, craft, tech)
        ]
    return out


def trades_dice(state: SfaState, key: str, kind: str, item: str) -> bool:
    """Whether a selection rolls the actor's own attack pool, so dice can be traded for
    Speed: not a missile (its pool is its own), nor a move or equipment (SFA-SEQ-2)."""
    if kind != "attack":
        return False
    craft = state.craft.get(split_key(key)[0])
    if craft is None:
        return False
    weapon = next((w for w in state.type_of(craft).weapons if w.name == item), None)
    return weapon is not None and not weapon.guided


def move_budget(
    state: SfaState, craft: CraftState, selection: Selection, rules: SfaRules = SFA_RULES
) -> int:
    """Hexes the craft may fly this turn: Move, plus 3 for the extra-move action, plus
    5 (straight) for Boosters it can pay for (SFA-TEC-04), counted by
    `rules.move_budget`. A Street Fighter: Athletics + the maneuver's Move modifier (+ 3
    for the extra move) on a Street Fighter-scale map, nothing on a Starfighter-scale
    one (SFA-SF-3)."""
    if state.is_person(craft):
        return person_budget(state, craft, selection)
    move = state.type_of(craft).move
    boost = (
        T.BOOST_HEXES
        if (selection.kind, selection.item) == ("equipment", "boosters")
        and move > 0
        and craft.power >= T.power_needed("boosters")
        else 0
    )
    return rules.move_budget(move, selection.kind, boost)


def person_budget(state: SfaState, craft: CraftState, selection: Selection) -> int:
    """Hexes a Street Fighter may move this turn (SFA-SF-3): Athletics + the chosen
    maneuver's Move modifier (+ 3 for the extra move), at least 0, on a Street
    Fighter-scale map; none on a Starfighter-scale map, where one hex is 500 of its own."""
    if state.map_scale >= 1:
        return 0
    design = state.type_of(craft)
    athletics = design.fighter.athletics if design.fighter is not None else design.move
    modifier = 0
    if selection.kind == "attack":
        weapon = next((w for w in design.weapons if w.name == selection.item), None)
        modifier = weapon.move if weapon is not None else 0
    elif selection.kind == "extra_move":
        modifier = EXTRA_MOVE
    return max(0, athletics + modifier)


def charging(craft: CraftState, selection: Selection) -> bool:
    """The craft charges a Death Blossom or Pi-Tac Cannon this turn (SFA-TEC-06/19)."""
    return (
        selection.kind == "equipment"
        and selection.item in T.DOOMSDAY
        and not T.firing(craft, selection.item)
    )


def least_hexes(state: SfaState, craft: CraftState, selection: Selection) -> int:
    """Every craft must fly 1 hex, except a Move 0 craft and one charging a doomsday
    device, which must hold still (SFA-MOV-2, SFA-TEC-06, SFA-TEC-19)."""
    return 0 if state.type_of(craft).move == 0 or charging(craft, selection) else 1


def move_choices(
    state: SfaState, craft: CraftState, selection: Selection, rules: SfaRules = SFA_RULES
) -> list[str]:
    """Step strings on offer: legal and on the map (and, under `collide_on_entry`, not
    into another craft; a craft with its Hyper-Ram on may choose to ram). Deliberate
    rams are offered apart (`collisions.ram_choices`)."""
    return offered_moves(state, craft, selection, rules)[0]


def offered_moves(
    state: SfaState, craft: CraftState, selection: Selection, rules: SfaRules = SFA_RULES
) -> tuple[list[str], set[str]]:
    """`move_choices`, and those of its moves that meet, before leaving the map, a craft
    the mover sees (the ones it may fly as a deliberate ram, SFA-COL-1): both from one
    look along each path."""
    if charging(craft, selection):
        return [""], set()
    budget = move_budget(state, craft, selection, rules)
    least = least_hexes(state, craft, selection)
    move = state.type_of(craft).move
    boosted = budget > move and selection.kind == "equipment"
    try:
        shapes = _legal_shapes(craft.facing, budget, least, move, boosted, rules.maneuver)
    except TypeError:  # a `maneuver` that cannot be a cache key: traced afresh
        shapes = _legal_shapes.__wrapped__(
            craft.facing, budget, least, move, boosted, rules.maneuver
        )
    legal = list(shapes.steps)
    if (selection.kind, selection.item) == ("equipment", "hyper_ram"):
        return legal, set()
    # What each hex any of the moves enters holds: 0 open space, 1 off the map, 2 a
    # craft the mover sees (`visible_occupant`); each hex looked at once.
    q0, r0 = craft.hex.q, craft.hex.r
    width, height = state.map.width, state.map.height
    found: dict[tuple[int, int], CraftState] | None = None
    status: list[int] = []
    for dq, dr in shapes.cells:
        q, r = q0 + dq, r0 + dr
        row = r + (q - (q & 1)) // 2
        if not (0 <= q < width and 0 <= row < height):
            status.append(1)
            continue
        if found is None:
            found = occupants(state, craft.id)
        other = found.get((q, r))
        status.append(2 if other is not None and T.sees(state, craft, other) else 0)
    if not any(status):
        return legal, set()  # open space all round: every move is safe and meets nobody
    # Craft may share a hex: only under `collide_on_entry` is a move into one a
    # collision to steer clear of (SFA-COL-1).
    crowded = bool(state.options.get("collide_on_entry", False))
    # What is offered follows from what the hexes hold alone: worked out once for each
    # pattern (a craft near the same edge, or in the same crowd, meets it again).
    key = (craft.facing, budget, least, move, boosted, rules.maneuver, bytes(status), crowded)
    try:
        found_before = _OUTCOMES.get(key)
    except TypeError:  # a `maneuver` that cannot be a cache key
        offered, rams = _outcome(shapes, status, crowded)
        return list(offered), set(rams)
    if found_before is None:
        if len(_OUTCOMES) >= _MAX_OUTCOMES:
            _OUTCOMES.clear()
        found_before = _OUTCOMES[key] = _outcome(shapes, status, crowded)
    return list(found_before[0]), set(found_before[1])


_OUTCOMES: dict[tuple[object, ...], tuple[tuple[str, ...], frozenset[str]]] = {}
"""`_outcome` by facing, budget, least hexes, Move, Boosters, maneuver rule, what the
hexes hold and `collide_on_entry`."""

_MAX_OUTCOMES = 1 << 15


def _outcome(
    shapes: Shapes, status: list[int], crowded: bool
) -> tuple[tuple[str, ...], frozenset[str]]:
    """The moves offered, and those that meet a seen craft first, given what each hex
    of `shapes.cells` holds (`status`: 0 open, 1 off the map, 2 a craft the mover sees)."""
    rams: set[str] = set()
    # A deliberate ram, Hyper-Ram or not (SFA-COL-1), and flying off the map to
    # disengage (SFA-MOV-6): one move for each distinct outcome. A key names the hexes
    # as seen from the start (every path here starts from the same hex).
    ends: dict[tuple[object, ...], str] = {}
    # Only the moves entering a hex that holds something need a look, hex by hex; the
    # rest are clear (most moves of most patterns). They are looked at in their order.
    by_cell = shapes.by_cell
    hit = sorted({k for i, what in enumerate(status) if what for k in by_cell[i]})
    entries = shapes.entries
    unsafe: set[str] = set()
    for k in hit:
        steps, cells, shape = entries[k]
        key: tuple[object, ...] | None = None
        clear = True
        for i, cell in enumerate(cells):
            what = status[cell]
            if what == 0:
                continue
            if what == 1:
                clear = False
                if key is None:
                    key = ("leaves", shape.hexes[: i + 1])
                break
            if key is None:
                key = ("rams", shape.hexes[: i + 1], shape.facing, shape.soak, shape.handling)
                rams.add(steps)
            if crowded:
                clear = False
                break
        if not clear:
            unsafe.add(steps)
        if key is not None and key not in ends:
            ends[key] = steps
    # Boxed in (no move clear), a craft still has to fly: then the moves that collide
    # or leave are offered.
    dropped = unsafe - set(ends.values())
    if len(unsafe) == len(entries) or not dropped:
        return shapes.steps, frozenset(rams)
    # In the candidates' own order, as every move is.
    return tuple(steps for steps in shapes.steps if steps not in dropped), frozenset(rams)


def occupants(state: SfaState, ignore: str = "") -> dict[tuple[int, int], CraftState]:
    """(q, r) -> the craft `state.occupant` finds in that hex (the first in the state's
    order; on a Starfighter-scale map no Street Fighter, who takes up no room: SFA-SF-3)."""
    out: dict[tuple[int, int], CraftState] = {}
    skip_people = state.map_scale >= 1
    for c in state.craft.values():
        if c.id == ignore or (skip_people and state.is_person(c)):
            continue
        out.setdefault((c.hex.q, c.hex.r), c)
    return out


class Shapes(msgspec.Struct, frozen=True):
    """The legal moves of one facing and budget, traced from the origin hex."""

    steps: tuple[str, ...]
    """Each move's steps, in the order offered."""
    cells: tuple[tuple[int, int], ...]
    """Every hex any of them enters, (q, r) from the start, each once."""
    entries: tuple[tuple[str, tuple[int, ...], Path], ...]
    """(steps, the index in `cells` of each hex entered, path) of each move."""
    by_cell: tuple[tuple[int, ...], ...]
    """For each of `cells`, the entries (their indices, in order) that enter it."""
    legal: frozenset[str]
    """`steps` as a set."""


@functools.lru_cache(maxsize=4096)
def _legal_shapes(
    facing: int, budget: int, least: int, move: int, boosted: bool, maneuver: Modifiers
) -> Shapes:
    """The legal moves of a craft facing `facing` with `budget` hexes, as traced from the
    origin hex, each hex any of them enters numbered once (see `Shapes`), in the order offered.
    `boosted`: the budget holds Booster hexes, flown straight (SFA-TEC-04)."""
    # Every length up to the budget: a move may stop short of it, and check() accepts a
    # shorter loop or turn as readily as one that uses every hex.
    candidates = (
        list(dict.fromkeys(s for n in range(1, budget + 1) for s in candidate_steps(n)))
        if budget > 0
        else candidate_steps(budget)
    )
    if boosted:
        # Any maneuvers within Move, then up to the Booster hexes straight on: check()
        # accepts every such tail, so every one is offered.
        tails = [
            s + "F" * k
            for n in range(1, move + 1)
            for s in candidate_steps(n)
            for k in range(T.BOOST_HEXES + 1)
        ]
        candidates = list(dict.fromkeys(tails + ["F" * n for n in range(1, budget + 1)]))
    entries = []
    cells: dict[tuple[int, int], int] = {}
    for steps in candidates:
        path = trace(ORIGIN, facing, steps, budget, min_hexes=least, maneuver=maneuver)
        if path.problem or (boosted and T.booster_problem(steps, move)):
            continue
        where = tuple(cells.setdefault((h.q, h.r), len(cells)) for h in path.hexes)
        entries.append((steps, where, path))
    entering: list[list[int]] = [[] for _ in cells]
    for k, (_, where, _) in enumerate(entries):
        for i in dict.fromkeys(where):
            entering[i].append(k)
    offered = tuple(e[0] for e in entries)
    return Shapes(
        offered,
        tuple(cells),
        tuple(entries),
        tuple(tuple(ks) for ks in entering),
        frozenset(offered),
    )


def traced_legal(
    facing: int, budget: int, least: int, move: int, boosted: bool, maneuver: Modifiers
) -> frozenset[str]:
    """The steps `_legal_shapes` finds legal for these (each traced clean from the origin
    hex and, when `boosted`, flying its Booster hexes straight); empty when `maneuver`
    cannot be a cache key (then nothing is known and every move is traced)."""
    try:
        return _legal_shapes(facing, budget, least, move, boosted, maneuver).legal
    except TypeError:
        return frozenset()


def impact_key(
    state: SfaState,
    craft: CraftState,
    steps: str,
    budget: int,
    least: int,
    path: Path | None = None,
) -> tuple[object, ...] | None:
    """What a move cut short does: flying off the map (the hexes up to the edge), or
    ramming a craft it sees (the hexes up to the impact, and the facing and maneuver
    Soak and Handling of the whole move). None for a move flown in full."""
    if path is None:
        path = trace(craft.hex, craft.facing, steps, budget, min_hexes=least)
    for i, where in enumerate(path.hexes):
        if not state.map.contains(where):
            return ("leaves", path.hexes[: i + 1])
        if visible_occupant(state, craft, where):
            return ("rams", path.hexes[: i + 1], path.facing, path.soak, path.handling)
    return None


def person_moves(state: SfaState, craft: CraftState, selection: Selection) -> list[Hex]:
    """Hexes a Street Fighter may move to: on the map, within its budget, and empty."""
    budget = person_budget(state, craft, selection)
    return [
        h
        for h in sorted(craft.hex.spiral(budget), key=lambda h: (h.q, h.r))
        if h != craft.hex and state.map.contains(h) and state.occupant(h, ignore=craft.id) is None
    ]


def visible_occupant(state: SfaState, craft: CraftState, where: Hex) -> bool:
    """A craft the mover can see is in the hex (a cloaked enemy is not seen: SFA-TEC-25)."""
    other = state.occupant(where, ignore=craft.id)
    return other is not None and T.sees(state, craft, other)


def abort_kinds(state: SfaState, craft: CraftState, selection: Selection) -> list[str]:
    """What the craft may abort to now for 1 Willpower: the 3 extra hexes, or an abort
    technology it carries and can pay for (SFA-SEQ-5). A Street Fighter has no abort
    (the engine has no Block or Jump: SFA-SF-2)."""
    if state.is_person(craft):
        return []
    # Aborting to what the craft already chose would only spend Willpower.
    out = ["extra_move"] if may_abort(state, craft) and selection.kind != "extra_move" else []
    if not may_spend_willpower(state, craft):
        return out
    for tech in TECHNOLOGIES:
        if (
            tech in T.ABORT_TECHS
            and (selection.kind, selection.item) != ("equipment", tech)
            and not T.equipment_problem(state, craft, tech)
        ):
            out.append(tech)
    return out


def targets_for(ctx: Ctx, key: str) -> list[str]:
    """Enemy craft and missiles the actor's selected weapon can reach now."""
    state = ctx.state
    craft_id, _ = split_key(key)
    craft = state.craft.get(craft_id)
    selection = state.selections.get(key)
    if craft is None or selection is None or selection.kind != "attack":
        return []
    if craft.cloaked or craft.force_field:
        return []  # no firing while cloaked or behind a Force Field (SFA-TEC-25, SFA-TEC-14)
    weapon = next((w for w in state.type_of(craft).weapons if w.name == selection.item), None)
    if weapon is None:
        return []
    person = state.is_person(craft)
    aims: list[tuple[str, Hex]] = [
        (other.id, other.hex)
        for other in state.craft.values()
        if other.side != craft.side and T.sees(state, craft, other)
    ]
    aims += [(d.id, d.hex) for d in T.shown_decoys(state, craft.side)]
    # In the order of the names this side is shown (SFA-TEC-16): real ids would tell.
    aims.sort(key=lambda aim: (shown_name(state, craft.side, aim[0]), aim[1]))
    out = [uid for uid, where in aims if not bears(state, craft, weapon, where)]
    if not weapon.guided and not person:
        for missile in sorted(state.missiles.values(), key=lambda m: m.id):
            if missile.side != craft.side and not bears(state, craft, weapon, missile.hex):
                out.append(missile.id)
    return out


def selections_for(state: SfaState, key: str) -> list[Selection]:
    """Every selection the actor may make (each choice, and each number of dice traded
    for Speed where that is allowed), as `legal_actions` offers them."""
    out = []
    for kind, item in choices_for(state, key):
        out.append(Selection(kind=kind, item=item))
        if trades_dice(state, key, kind, item):
            out += [
                Selection(kind=kind, item=item, speed_dice=n) for n in range(1, MAX_SPEED_DICE + 1)
            ]
    return out
