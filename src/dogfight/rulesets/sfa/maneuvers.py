"""SFA movement: forward hexes and the six flight maneuvers on a hex map.

A move is a string of steps, one letter each (our notation, not the seed's):

    F   one hex forward
    t T one-hex-side Turn to the left (t) or right (T)
    h H Hard Turn, two hex-sides, left (h) or right (H)
    V   Reversal: three hex-sides, continuing the opposite way
    O   Loop: facing and position unchanged (may be flown in place)
    B   one hex backward within a Loop: `OBB` loops back two hexes and ends facing
        the way it began, behind where the loop started (the travelling Loop)
    l r Roll into the forward-left (l) or forward-right (r) hex, keeping facing
    S   Spin: every later step of the move must be F

Each maneuver other than a Roll costs no hex but needs one forward hex flown before it
(SFA-MOV-3); a Roll moves one hex and also needs a forward hex before it. A Loop may
be flown in place, with no hex before it, as the seed allows; a travelling Loop (`O`
then one `B` per hex gone backward) needs the forward hex like any maneuver, and its
hexes count against Move (SFA-MOV-4). The Soak and
Handling modifiers of every maneuver flown are added up for the turn (SFA-MOV-4).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import msgspec

from dogfight.geometry.hex import Hex, turn

MANEUVERS: dict[str, tuple[str, int, int]] = {
    "t": ("Turn", +1, -1),
    "T": ("Turn", +1, -1),
    "h": ("Hard Turn", +2, -3),
    "H": ("Hard Turn", +2, -3),
    "V": ("Reversal", +3, -5),
    "O": ("Loop", -1, -3),
    "l": ("Roll", 0, -1),
    "r": ("Roll", 0, -1),
    "S": ("Spin", +2, -1),
}
"""Step letter -> (maneuver, Soak modifier, Handling modifier): the seed's table."""

TURN_STEPS = {"t": -1, "T": +1, "h": -2, "H": +2, "V": 3}

BACK = "B"
"""One hex backward within a travelling Loop (SFA-MOV-4)."""
"""Facing change (clockwise hex-sides) of each turning step."""


class Path(msgspec.Struct, frozen=True, kw_only=True):
    """Where a move goes and what it does to the craft this turn."""

    hexes: tuple[Hex, ...]
    """Every hex entered, in order (the start hex not included)."""
    end: Hex
    facing: int
    soak: int
    handling: int
    maneuvers: tuple[str, ...]
    problem: str = ""
    """Why the move is illegal ('' if it is legal)."""


Modifiers = Callable[[str], "tuple[str, int, int] | None"]
"""Step letter -> (maneuver, Soak modifier, Handling modifier), None if not a maneuver."""


ORIGIN = Hex(0, 0)


def trace(
    start: Hex,
    facing: int,
    steps: str,
    move: int,
    *,
    min_hexes: int = 1,
    maneuver: Modifiers = MANEUVERS.get,
) -> Path:
    """Follow a move's steps from a hex and facing; `move` is the hexes allowed.

    The result's `problem` says what breaks the movement rules, if anything
    (SFA-MOV-1 to SFA-MOV-4). `maneuver` gives each maneuver's Soak and Handling
    modifiers (a ruleset's `rules.maneuver`); which steps are maneuvers, and so
    whether a move is legal, does not depend on it.
    """
    try:
        shape = _shape(facing, steps, move, min_hexes, maneuver)
    except TypeError:  # a `maneuver` that cannot be a cache key: traced afresh
        return _trace(start, facing, steps, move, min_hexes=min_hexes, maneuver=maneuver)
    return shape if start == ORIGIN else moved(shape, start)


def moved(shape: Path, start: Hex) -> Path:
    """A path traced from the origin hex, as flown from `start` instead: a move's shape
    does not depend on where it starts, only on the facing (so it is traced once)."""
    q, r = start.q, start.r
    return Path(
        hexes=tuple([Hex(q + h.q, r + h.r) for h in shape.hexes]),
        end=Hex(q + shape.end.q, r + shape.end.r),
        facing=shape.facing,
        soak=shape.soak,
        handling=shape.handling,
        maneuvers=shape.maneuvers,
        problem=shape.problem,
    )


@functools.lru_cache(maxsize=1 << 16)
def _shape(facing: int, steps: str, move: int, min_hexes: int, maneuver: Modifiers) -> Path:
    """A move traced from the origin hex (cached: the rules are pure functions)."""
    return _trace(ORIGIN, facing, steps, move, min_hexes=min_hexes, maneuver=maneuver)


def _trace(
    start: Hex,
    facing: int,
    steps: str,
    move: int,
    *,
    min_hexes: int = 1,
    maneuver: Modifiers = MANEUVERS.get,
) -> Path:
    """Follow a move's steps from a hex and facing; `move` is the hexes allowed.

    The result's `problem` says what breaks the movement rules, if anything
    (SFA-MOV-1 to SFA-MOV-4). `maneuver` gives each maneuver's Soak and Handling
    modifiers (a ruleset's `rules.maneuver`); which steps are maneuvers, and so
    whether a move is legal, does not depend on it.
    """
    here, face = start, facing
    hexes: list[Hex] = []
    soak = handling = 0
    names: list[str] = []
    forward_since = 0
    spun = False
    problem = ""
    for i, step in enumerate(steps):
        if step == "F":
            here = here.neighbor(face)
            hexes.append(here)
            forward_since += 1
            continue
        if step == BACK:
            if spun:
                problem = f"step {i + 1}: after a Spin the craft must fly straight ahead"
                break
            if i == 0 or steps[i - 1] not in ("O", BACK):
                problem = (
                    f"step {i + 1}: B is a hex flown backward within a Loop: it follows O "
                    "or another B (SFA-MOV-4)"
                )
                break
            # The travelling Loop: the craft comes back over itself, hex by hex, and
            # leaves the loop facing the way it entered it.
            here = here.neighbor(int(turn(face, 3)))
            hexes.append(here)
            continue
        if step not in MANEUVERS:
            problem = f"step {i + 1}: unknown step {step!r} (use F t T h H V O B l r S)"
            break
        if spun:
            problem = f"step {i + 1}: after a Spin the craft must fly straight ahead (SFA-MOV-4)"
            break
        name = MANEUVERS[step][0]
        travelling = step == "O" and steps[i + 1 : i + 2] == BACK
        # A Loop may be flown in place, with no hex before it (the seed's own example);
        # a travelling Loop is a maneuver like the others (SFA-MOV-3).
        if forward_since < 1 and (step != "O" or travelling):
            problem = f"step {i + 1}: {name} needs one hex flown forward before it (SFA-MOV-3)"
            break
        forward_since = 0
        modifiers = maneuver(step)
        if modifiers is not None:
            soak += modifiers[1]
            handling += modifiers[2]
        names.append(name)
        if step in TURN_STEPS:
            face = int(turn(face, TURN_STEPS[step]))
        elif step in ("l", "r"):
            # A Roll slides into the forward-left or forward-right hex, facing unchanged.
            here = here.neighbor(int(turn(face, -1 if step == "l" else +1)))
            hexes.append(here)
        elif step == "S":
            spun = True
    if not problem and len(hexes) > move:
        problem = f"the move enters {len(hexes)} hexes but the craft may move {move} (SFA-MOV-1)"
    if not problem and len(hexes) < min_hexes:
        problem = f"the craft must move at least {min_hexes} hex (SFA-MOV-2)"
    return Path(
        hexes=tuple(hexes),
        end=here,
        facing=face,
        soak=soak,
        handling=handling,
        maneuvers=tuple(names),
        problem=problem,
    )


def candidate_steps(move: int) -> list[str]:
    """A representative set of legal step strings for a craft with `move` hexes:
    straight runs, turns and hard turns either way, a reversal, rolls, a spin, a loop
    in place, and travelling loops of every length (SFA-MOV-4)."""
    if move <= 0:
        return [""]
    out = ["F" * n for n in range(1, move + 1)]
    for letter in ("t", "T", "h", "H", "V", "l", "r"):
        for before in range(1, move + 1):
            rest = move - before - (1 if letter in ("l", "r") else 0)
            if rest >= 0:
                out.append("F" * before + letter + "F" * rest)
    out.append("F" + "S" + "F" * (move - 1))
    out.append("O" + "F" * move)
    # Travelling Loops: back 1 to move - 1 hexes, then the rest of the move ahead.
    for back in range(1, move):
        out.append("F" + "O" + BACK * back + "F" * (move - 1 - back))
    seen: list[str] = []
    for steps in out:
        if steps not in seen:
            seen.append(steps)
    return seen
