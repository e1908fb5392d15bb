"""How the acta computer players play the seed's tactics, counted over seeded battles.

`dogfight tactics acta` prints these figures beside their targets (issue 14):

- furball: the turn of the first shot or dogfight (median over the battles), and the
  turns in which no fighter moves although the enemy is out of contact, and no
  fighter then shoots or dogfights either (a standoff: fighters that hold within range
  and trade fire are fighting);
- escort-mission: whether the carrier's escorts stay on its base, intercept and give
  defensive fire, and how often the carrier and the frigate live to the end;
- carrier-strike: the turn of each side's first launch, and how many fighters are
  recovered undamaged (a fighter with full Damage has no reason to go home);
- every scenario with ships: ship-turns ended in a table corner;
- the player's record against the random player, and its median decision time.

Both sides are played by the same player kind; battle i uses seed i, so the figures
replay exactly (all but the decision time, which is a measurement of this machine).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from dogfight.core.game import Game
from dogfight.core.options import OptionValue
from dogfight.core.play import Player
from dogfight.core.scenario import load_scenario
from dogfight.core.seat import Seat
from dogfight.rulesets.acta import actions as A
from dogfight.rulesets.acta.state import ActaState, UnitState


class Uniform:
    """The random player's choice: any legal action with equal chance, from the player's
    own generator. It draws exactly as ai/random_player.py's `RandomPlayer` does (same
    games, same figures); a ruleset package may not import the players' layer."""

    name = "random"

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        """One of `legal`, uniformly at random."""
        return legal[rng.randrange(len(legal))]


CORNER = 6.0
"""A ship whose centre ends within this many inches of two table edges is in a corner."""
SCENARIOS = ("furball", "escort-mission", "carrier-strike")
"""The scenarios the figures are counted in."""


@dataclass(frozen=True, slots=True)
class Figure:
    """One measured figure: what it counts, the value, the target, and whether it is met
    (None when the figure has no target of its own)."""

    scenario: str
    name: str
    value: str
    target: str
    met: bool | None


@dataclass(slots=True)
class Tally:
    """What one scenario's battles showed."""

    battles: int = 0
    first_combat: list[int] = field(default_factory=list)
    """Turn of each battle's first shot or dogfight (turn limit + 1 if none)."""
    standoffs: int = 0
    """Turns in which no free fighter of either side moved, the enemy out of contact,
    and no fighter then attacked (shot or dogfight) in the rest of the turn."""
    side_standoffs: int = 0
    """The same, counted per side."""
    fighter_turns: int = 0
    escort_turns: int = 0
    """Turns an escort (a fighter starting on a carrier's base) was asked to move."""
    escort_kept: int = 0
    """Of those, the turns it ended still supporting the carrier (or locked beside it)."""
    intercepts: int = 0
    defensive_fire: int = 0
    """Fighters declared on defensive fire."""
    carrier_lives: int = 0
    frigate_lives: int = 0
    frigate_deaths: list[int] = field(default_factory=list)
    first_launch: dict[str, list[int]] = field(default_factory=dict)
    """Side -> turn of its first launch in each battle that had one."""
    type_launch: dict[str, list[int]] = field(default_factory=dict)
    """Fighter type -> turn of its first launch in each battle (turn limit + 1 if never)."""
    launches: int = 0
    recoveries: int = 0
    undamaged_recoveries: int = 0
    ship_turns: int = 0
    corner_turns: int = 0
    decision_ms: list[float] = field(default_factory=list)


COMBAT_CLAUSES = ("ACTA-ATK-1", "ACTA-DOG-5", "ACTA-DOG-6")
"""Events of a shot or a dogfight (the first combat; a turn with one is no standoff)."""


def _by_fighter(state: ActaState, data: Mapping[str, Any]) -> bool:
    """Whether a combat event's unit is a fighter (a dogfight's always is)."""
    unit = state.units.get(str(data.get("unit", "")))
    return unit is None or state.is_fighter(unit)


def _fighters(state: ActaState) -> list[UnitState]:
    return [u for u in state.units.values() if state.is_fighter(u)]


def _touching(state: ActaState, unit: UnitState) -> bool:
    """Whether a fighter touches an enemy fighter (locked, ACTA-DOG-1)."""
    radius = state.unit_type(unit).base_radius
    for other in state.units.values():
        if other.side == unit.side or not state.is_fighter(other):
            continue
        limit = radius + state.unit_type(other).base_radius + 1e-6
        if unit.pose.position.distance(other.pose.position) <= limit:
            return True
    return False


def _in_corner(state: ActaState, unit: UnitState) -> bool:
    at = unit.pose.position
    near_x = min(at.x, state.table.width - at.x) <= CORNER
    near_y = min(at.y, state.table.height - at.y) <= CORNER
    return near_x and near_y


def play_counted(
    game: Game, players: Mapping[str, Player], rng: random.Random, tally: Tally
) -> None:
    """Play one battle to the end, counting what `Tally` counts."""
    state = cast(ActaState, game.state)
    carriers = {u.id for u in state.units.values() if state.unit_type(u).craft > 0}
    escorts = {u.id for u in _fighters(state) if u.supporting in carriers and u.supporting != ""}
    frigates = {
        u.id
        for u in state.units.values()
        if not state.is_fighter(u) and u.id not in carriers and u.side == state.sides[0]
    }
    free_at_start: dict[str, bool] = {}
    movers: set[str] = set()
    """Fighters that moved in the fighter movement step now counted (ACTA-FTR-2)."""
    seen_combat = False
    launched: set[str] = set()
    types_aboard = {t for u in state.units.values() for t in u.aboard}
    type_first: dict[str, int] = {}
    counting = False
    held_turn: int | None = None
    """The turn whose fighter movement was a standoff candidate (no free fighter
    moved), until an attack later in that turn shows it was not."""
    while not game.is_over():
        side = game.current_player()
        if side is None:
            break
        state = cast(ActaState, game.state)
        phase = state.phase
        if phase == "fighter_move" and not counting:
            counting = True
            movers = set()
            free_at_start = {f.id: not _touching(state, f) for f in _fighters(state)}
        legal = game.legal_actions()
        started = time.perf_counter()
        action = players[side].decide(Seat(game, side), legal, rng)
        tally.decision_ms.append((time.perf_counter() - started) * 1000)
        if isinstance(action, A.Recover):
            fighter = state.units[action.unit]
            tally.recoveries += 1
            if fighter.damage >= state.unit_type(fighter).damage:
                tally.undamaged_recoveries += 1
        if isinstance(action, A.Launch) and action.fighter:
            tally.launches += 1
            type_first.setdefault(action.fighter, state.turn)
            if side not in launched:
                launched.add(side)
                tally.first_launch.setdefault(side, []).append(state.turn)
        if isinstance(action, A.Intercept) and action.fighters:
            tally.intercepts += 1
        if isinstance(action, A.DefensiveFire):
            tally.defensive_fire += len(action.fighters)
        turn = state.turn
        events = game.apply(action)
        for event in events:
            if event.clause in COMBAT_CLAUSES:
                if held_turn == turn and _by_fighter(state, event.data):
                    held_turn = None  # they held, but fought: no standoff
                if not seen_combat:
                    seen_combat = True
                    tally.first_combat.append(turn)
            if event.clause == "ACTA-FTR-2" and float(event.data.get("distance", 0.0)) > 0:
                movers.add(str(event.data.get("unit", "")))
        after = cast(ActaState, game.state)
        if held_turn is not None and (after.turn != held_turn or game.is_over()):
            tally.standoffs += 1
            held_turn = None
        if counting and (after.phase != "fighter_move" or after.turn != turn or game.is_over()):
            counting = False
            if _count_moves(after, free_at_start, movers, escorts, carriers, tally):
                if after.turn != turn or game.is_over():
                    tally.standoffs += 1  # the turn ended with the movement
                else:
                    held_turn = turn
        if phase == "ship_move" and after.phase != "ship_move":
            for unit in after.units.values():
                if not after.is_fighter(unit):
                    tally.ship_turns += 1
                    tally.corner_turns += _in_corner(after, unit)
    final = cast(ActaState, game.state)
    for ftype in types_aboard:
        tally.type_launch.setdefault(ftype, []).append(type_first.get(ftype, final.turn_limit + 1))
    if not seen_combat:
        tally.first_combat.append(final.turn_limit + 1)
    tally.carrier_lives += any(c in final.units for c in carriers if _first_side(state, c))
    for frigate in frigates:
        if frigate in final.units:
            tally.frigate_lives += 1
    tally.battles += 1


def _first_side(state: ActaState, uid: str) -> bool:
    unit = state.units.get(uid)
    return unit is not None and unit.side == state.sides[0]


def _count_moves(
    state: ActaState,
    free: Mapping[str, bool],
    movers: set[str],
    escorts: set[str],
    carriers: set[str],
    tally: Tally,
) -> bool:
    """After a fighter movement step: where the escorts ended, and whether it was a
    standoff candidate (no free fighter of either side moved: True)."""
    fighters = _fighters(state)
    sides = {f.side for f in fighters}
    still = True
    for side in sides:
        mine = [f for f in fighters if f.side == side and free.get(f.id, False)]
        tally.fighter_turns += len(mine)
        if not mine:
            continue
        if any(f.id in movers or f.carried > 0 for f in mine):
            still = False
        else:
            tally.side_standoffs += 1
    for fighter in fighters:
        if fighter.id not in escorts or not free.get(fighter.id, False):
            continue
        tally.escort_turns += 1
        if fighter.supporting in carriers or (
            _touching(state, fighter) and _near_carrier(state, fighter, carriers)
        ):
            tally.escort_kept += 1
    return still and len(sides) == 2 and any(free.values())


def _near_carrier(state: ActaState, fighter: UnitState, carriers: set[str]) -> bool:
    for cid in carriers:
        carrier = state.units.get(cid)
        if carrier is None:
            continue
        reach = state.unit_type(carrier).base_radius + 3.0
        if fighter.pose.position.distance(carrier.pose.position) <= reach:
            return True
    return False


def count_battles(
    ruleset_name: str,
    scenario: str,
    battles: int,
    make: Callable[[], Player],
    options: Mapping[str, OptionValue],
) -> Tally:
    """Battles 0..battles-1 of `scenario`, one `make()` player a side, counted."""
    loaded = load_scenario(f"{ruleset_name}/{scenario}")
    tally = Tally()
    for seed in range(battles):
        game = Game(loaded, seed=seed, rules=dict(options))
        sides = game.state.sides
        players = {side: make() for side in sides}
        play_counted(game, players, random.Random(seed), tally)
    return tally


def random_record(
    ruleset_name: str,
    scenario: str,
    battles: int,
    make: Callable[[], Player],
    make_random: Callable[[], Player],
    options: Mapping[str, OptionValue],
) -> int:
    """Wins of `make()` against the random player, changing sides each battle."""
    loaded = load_scenario(f"{ruleset_name}/{scenario}")
    wins = 0
    for seed in range(battles):
        game = Game(loaded, seed=seed, rules=dict(options))
        sides = game.state.sides
        me = sides[seed % 2]
        players = {s: (make() if s == me else make_random()) for s in sides}
        play_counted(game, players, random.Random(seed), Tally())
        outcome = game.outcome()
        if outcome is not None and outcome.winner == me:
            wins += 1
    return wins


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def figures(tallies: Mapping[str, Tally], record: Mapping[str, tuple[int, int]]) -> list[Figure]:
    """The figures of the tallies, each beside its target."""
    out: list[Figure] = []
    furball = tallies.get("furball")
    if furball is not None and furball.battles:
        first = _median(furball.first_combat)
        out.append(
            Figure(
                "furball",
                "first shot or dogfight, turn (median)",
                f"{first:g}" if first is not None else "-",
                "<= 3",
                first is not None and first <= 3,
            )
        )
        out.append(
            Figure(
                "furball",
                "standoff turns (no move, no fire)",
                str(furball.standoffs),
                "0",
                furball.standoffs == 0,
            )
        )
        out.append(
            Figure(
                "furball",
                "side-turns all free fighters hold",
                str(furball.side_standoffs),
                "-",
                None,
            )
        )
        ms = _median(furball.decision_ms)
        out.append(
            Figure(
                "furball",
                "median decision (ms)",
                f"{ms:.2f}" if ms is not None else "-",
                "< 2",
                ms is not None and ms < 2.0,
            )
        )
    escort = tallies.get("escort-mission")
    if escort is not None and escort.battles:
        kept = escort.escort_kept / escort.escort_turns if escort.escort_turns else 0.0
        out += [
            Figure(
                "escort-mission",
                "escort turns ended on the carrier",
                f"{escort.escort_kept} of {escort.escort_turns} ({kept:.0%})",
                ">= 50%",
                kept >= 0.5,
            ),
            Figure(
                "escort-mission",
                "intercepts, a battle",
                f"{escort.intercepts / escort.battles:.1f}",
                "> 0",
                escort.intercepts > 0,
            ),
            Figure(
                "escort-mission",
                "on defensive fire, a battle",
                f"{escort.defensive_fire / escort.battles:.1f}",
                "> 0",
                escort.defensive_fire > 0,
            ),
            Figure(
                "escort-mission",
                "carrier survives",
                f"{escort.carrier_lives} of {escort.battles}",
                f">= {_share(8, 20, escort.battles)} of {escort.battles}",
                escort.carrier_lives >= _share(8, 20, escort.battles),
            ),
            Figure(
                "escort-mission",
                "frigate survives",
                f"{escort.frigate_lives} of {escort.battles}",
                "-",
                None,
            ),
        ]
    strike = tallies.get("carrier-strike")
    if strike is not None and strike.battles:
        for side, turns in sorted(strike.first_launch.items()):
            first = _median(turns)
            out.append(
                Figure(
                    "carrier-strike",
                    f"{side} first launch, turn (median)",
                    f"{first:g} ({len(turns)} of {strike.battles})",
                    "<= 2",
                    first is not None and first <= 2,
                )
            )
        if strike.type_launch:
            late = {t: _median(v) or 0.0 for t, v in strike.type_launch.items()}
            ftype = max(sorted(late), key=lambda t: late[t])
            out.append(
                Figure(
                    "carrier-strike",
                    "last type's first launch (median)",
                    f"{ftype} turn {late[ftype]:g}",
                    "<= 4",
                    late[ftype] <= 4,
                )
            )
        out.append(
            Figure(
                "carrier-strike",
                "undamaged fighters recovered",
                f"{strike.undamaged_recoveries} of {strike.recoveries}",
                "0",
                strike.undamaged_recoveries == 0,
            )
        )
    for name, tally in tallies.items():
        if tally.ship_turns:
            out.append(
                Figure(
                    name,
                    "ship-turns ended in a corner",
                    f"{tally.corner_turns} of {tally.ship_turns}",
                    "0",
                    tally.corner_turns == 0,
                )
            )
    for name, (wins, played) in record.items():
        out.append(
            Figure(
                name,
                "wins against random",
                f"{wins} of {played} ({wins / played:.0%})",
                ">= 90%",
                wins >= 0.9 * played,
            )
        )
    return out


def _share(part: int, whole: int, battles: int) -> int:
    """`part` of `whole` battles scaled to `battles`, rounded up."""
    return -(-part * battles // whole)


def measure(
    ruleset_name: str,
    scenarios: Sequence[str],
    battles: int,
    make: Callable[[], Player],
    make_random: Callable[[], Player] | None,
    options: Mapping[str, OptionValue],
) -> tuple[list[Figure], dict[str, Any]]:
    """Play and count; the figures and a JSON-ready summary of the raw tallies."""
    tallies = {s: count_battles(ruleset_name, s, battles, make, options) for s in scenarios}
    record: dict[str, tuple[int, int]] = {}
    if make_random is not None:
        for s in scenarios:
            record[s] = (
                random_record(ruleset_name, s, battles, make, make_random, options),
                battles,
            )
    raw = {
        s: {
            "battles": t.battles,
            "first_combat": t.first_combat,
            "standoffs": t.standoffs,
            "side_standoffs": t.side_standoffs,
            "escort_kept": t.escort_kept,
            "escort_turns": t.escort_turns,
            "intercepts": t.intercepts,
            "defensive_fire": t.defensive_fire,
            "carrier_lives": t.carrier_lives,
            "frigate_lives": t.frigate_lives,
            "first_launch": t.first_launch,
            "recoveries": t.recoveries,
            "undamaged_recoveries": t.undamaged_recoveries,
            "corner_turns": t.corner_turns,
            "ship_turns": t.ship_turns,
        }
        for s, t in tallies.items()
    }
    return figures(tallies, record), raw
