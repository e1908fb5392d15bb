"""Building SFA positions for clause tests: inline scenarios, scripted dice, and short
helpers that drive a turn through the Game API.

Map places are `(column, row)` offset coordinates, as in scenario files. Facing 0 is
north (up the page), so a craft facing 0 at (5, 9) has (5, 8), (5, 7)... straight
ahead of it along its column. Dice are d10s; faces are scripted 1..10 in the order
the engine rolls them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dogfight.core import Event, Game
from dogfight.core.scenario import scenario_from_raw
from dogfight.dice import ScriptedSource, scripted
from dogfight.geometry.hex import Hex, offset_to_hex
from dogfight.rulesets.sfa import actions as A

SIDES = ("Blue", "Red")
BLUE, RED = SIDES

HIT = 10
"""A d10 face that succeeds at difficulty 6."""
MISS = 5
"""A face that neither succeeds nor cancels."""
ONE = 1
"""A face that cancels a success."""


def pilot(
    dexterity: int = 3,
    piloting: int = 2,
    *,
    wits: int = 3,
    gunnery: int = 1,
    willpower: int = 5,
    name: str = "Pilot",
) -> dict[str, Any]:
    """A pilot or gunner written out in full (a scenario's PilotSpec)."""
    return {
        "name": name,
        "dexterity": dexterity,
        "wits": wits,
        "piloting": piloting,
        "gunnery": gunnery,
        "willpower": willpower,
    }


def weapon(kind: str, **extra: Any) -> dict[str, Any]:
    """A weapon line: `weapon("light_laser", count=2, fire_linked=True)`."""
    return {"kind": kind, **extra}


def design(
    id: str,
    *weapons: dict[str, Any],
    scale: str = "Starfighter",
    handling: int = 0,
    soak: int = 1,
    move: int = 3,
    power: int = 0,
    structure: int = 10,
    crew: int = 1,
    **extra: Any,
) -> dict[str, Any]:
    """A custom craft for the scenario's `custom_craft` list."""
    return {
        "id": id,
        "name": id,
        "scale": scale,
        "handling": handling,
        "soak": soak,
        "move": move,
        "power": power,
        "structure": structure,
        "crew": crew,
        "weapons": list(weapons),
        **extra,
    }


def craft(
    side: int,
    type: str,
    at: tuple[int, int],
    facing: int = 0,
    id: str = "",
    pilot: str | dict[str, Any] | None = None,
    gunners: Iterable[str | dict[str, Any]] = (),
) -> dict[str, Any]:
    """One craft on a side; `side` is 0 (Blue) or 1 (Red). With no `pilot`, the
    scenario names none: a regular pilot, or the design's AI if it has no crew."""
    entry: dict[str, Any] = {
        "side": side,
        "type": type,
        "at": list(at),
        "facing": facing,
    }
    if pilot is not None:
        entry["pilot"] = pilot
    if id:
        entry["id"] = id
    gunner_list = list(gunners)
    if gunner_list:
        entry["gunners"] = gunner_list
    return entry


def fighter(side: int, type: str, at: tuple[int, int], id: str = "") -> dict[str, Any]:
    """One Street Fighter on a side (SFA-SF-1); `type` is a sheet id."""
    entry: dict[str, Any] = {"side": side, "fighter": True, "type": type, "at": list(at)}
    if id:
        entry["id"] = id
    return entry


def sheet(id: str, **traits: Any) -> dict[str, Any]:
    """A Street Fighter sheet for the scenario's `custom_fighters` list."""
    return {"id": id, "name": id, **traits}


def scenario_raw(
    *crafts: dict[str, Any],
    designs: Iterable[dict[str, Any]] = (),
    people: Iterable[dict[str, Any]] = (),
    size: tuple[int, int] = (12, 12),
    terrain: Iterable[tuple[tuple[int, int], str]] = (),
    options: dict[str, Any] | None = None,
    turn_limit: int = 5,
) -> dict[str, Any]:
    """A scenario file's content with the given craft on two sides."""
    sides = []
    for index, name in enumerate(SIDES):
        roster = [
            {k: v for k, v in c.items() if k != "side"}
            for c in crafts
            if c["side"] == index and not c.get("fighter")
        ]
        fighters = [
            {k: v for k, v in c.items() if k not in ("side", "fighter")}
            for c in crafts
            if c["side"] == index and c.get("fighter")
        ]
        sides.append({"name": name, "craft": roster, "fighters": fighters})
    return {
        "name": "test",
        "ruleset": "sfa",
        "title": "test position",
        "map": {
            "width": size[0],
            "height": size[1],
            "terrain": [{"at": list(at), "kind": kind} for at, kind in terrain],
        },
        "turn_limit": turn_limit,
        "sides": sides,
        "options": dict(options or {}),
        "custom_craft": list(designs),
        "custom_fighters": list(people),
    }


def make_game(
    *crafts: dict[str, Any],
    dice: Iterable[int] = (),
    rules: dict[str, Any] | None = None,
    **kw: Any,
) -> Game:
    """A game of the given craft whose dice come up exactly as `dice`, in order."""
    raw = scenario_raw(*crafts, **kw)
    return Game(scenario_from_raw(raw, "test"), seed=0, rules=rules, dice=scripted(*dice))


def script(game: Game, *faces: int) -> None:
    """From now on the game's dice come up as `faces`, in order."""
    game.dice.source = ScriptedSource(faces)


def dice_left(game: Game) -> int:
    """Scripted faces not yet used."""
    source = game.dice.source
    assert isinstance(source, ScriptedSource)
    return source.remaining


def events(game: Game, clause: str) -> list[Event]:
    """The game's events that cite `clause`."""
    return [e for e in game.events if e.clause == clause]


def faces(event: Event) -> list[int]:
    """The dice an event rolled."""
    return [r.value for r in event.rolls]


def at(col: int, row: int) -> Hex:
    """The hex at a map place."""
    return offset_to_hex(col, row)


# ---- driving a turn ---------------------------------------------------------------------


def select(game: Game, picks: dict[str, A.Select] | None = None) -> None:
    """Every actor still to choose selects: `picks` by actor key, 'none' otherwise."""
    picks = picks or {}
    while game.state.phase == "select" and not game.is_over():
        key = game.state.to_select[0]
        game.apply(picks.get(key, A.Select(actor=key, kind="none")))


def attack(actor: str, weapon_name: str, speed_dice: int = 0) -> A.Select:
    """A selection to fire a weapon."""
    return A.Select(actor=actor, kind="attack", item=weapon_name, speed_dice=speed_dice)


def pass_windows(game: Game) -> None:
    """Decline every interrupt on offer until the game needs some other decision."""
    while not game.is_over() and game.state.step.startswith("window"):
        game.apply(A.Pass())


def fly(
    game: Game, craft_id: str, steps: str, abort: str = "", *, ram: bool = False
) -> list[Event]:
    """Pass any interrupt windows, then fly `craft_id` (which must be moving next);
    with `ram`, it rams the first craft on its way on purpose (SFA-COL-1)."""
    pass_windows(game)
    assert game.state.step == "move", game.state.step
    return game.apply(A.Move(craft=craft_id, steps=steps, abort=abort, ram=ram))


def fire(game: Game, actor: str, target: str = "", willpower: bool = False) -> list[Event]:
    """Pass any interrupt windows, then resolve `actor`'s attack at `target`."""
    pass_windows(game)
    assert (game.state.step, game.state.acting) == ("resolve", actor), (
        game.state.step,
        game.state.acting,
    )
    return game.apply(A.Resolve(actor=actor, target=target, willpower=willpower))


Shot = str | tuple[str, bool]
"""A target id, or (target id, spend Willpower)."""


def _step(game: Game, moves: dict[str, str], shots: dict[str, Shot]) -> None:
    """Take the pending move or resolution with `moves` (default 'F', or '' for a Move 0
    craft) and `shots` (default: hold fire)."""
    actor = game.state.acting
    craft_id = actor.rpartition("#")[0]
    if game.state.step == "move":
        state = game.state
        unit = state.craft[craft_id]
        still = state.type_of(unit).move == 0 or state.is_person(unit)
        game.apply(A.Move(craft=craft_id, steps=moves.get(craft_id, "" if still else "F")))
    elif game.state.step == "resolve":
        shot = shots.get(actor, "")
        target, willpower = shot if isinstance(shot, tuple) else (shot, False)
        game.apply(A.Resolve(actor=actor, target=target, willpower=willpower))
    else:  # pragma: no cover - a helper misuse
        raise AssertionError(f"no step to take in {game.state.step!r}")


def run_until(
    game: Game,
    actor: str,
    step: str,
    moves: dict[str, str] | None = None,
    shots: dict[str, Shot] | None = None,
) -> None:
    """Play the act phase with no interrupts until `actor` reaches `step` ('move' or
    'resolve'); the others fly `moves` and fire `shots` on the way."""
    moves, shots = moves or {}, shots or {}
    for _ in range(100):
        pass_windows(game)
        if (game.state.acting, game.state.step) == (actor, step):
            return
        assert not game.is_over() and game.state.phase == "act", "the turn ended first"
        _step(game, moves, shots)
    raise AssertionError("run_until did not get there")  # pragma: no cover


def finish_turn(
    game: Game, moves: dict[str, str] | None = None, shots: dict[str, Shot] | None = None
) -> None:
    """Play out the act phase with no interrupts: each craft flies `moves[id]` (default
    one hex forward) and each attacker fires `shots[actor]` (default: holds fire)."""
    moves, shots = moves or {}, shots or {}
    turn = game.state.turn
    while not game.is_over() and game.state.turn == turn and game.state.phase == "act":
        pass_windows(game)
        if game.is_over() or game.state.phase != "act":
            break
        _step(game, moves, shots)


def play_turn(
    game: Game,
    picks: dict[str, A.Select] | None = None,
    moves: dict[str, str] | None = None,
    shots: dict[str, Shot] | None = None,
) -> None:
    """A whole turn: the selections `picks` ('none' for the rest), then `finish_turn`."""
    select(game, picks)
    finish_turn(game, moves, shots)
