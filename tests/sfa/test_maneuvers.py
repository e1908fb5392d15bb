"""SFA movement steps on the hex map (SFA-MOV-1..4)."""

from __future__ import annotations

from dogfight.geometry.hex import Facing, Hex
from dogfight.rulesets.sfa.maneuvers import candidate_steps, trace


def test_SFA_MOV_4_seed_example_modifiers_add_up() -> None:
    """SFA-MOV-4: the seed's Move 5 example (3 forward, a Turn, 1 forward, a Spin, 1
    forward) leaves Soak +3 and Handling -2."""
    path = trace(Hex(0, 0), Facing.N, "FFFTFSF", 5)
    assert path.problem == ""
    assert (path.soak, path.handling) == (3, -2)
    assert path.maneuvers == ("Turn", "Spin")
    assert len(path.hexes) == 5
    assert path.facing == Facing.NE


def test_SFA_MOV_3_each_maneuver_needs_a_forward_hex_first() -> None:
    """SFA-MOV-3: a maneuver needs one hex flown forward before it."""
    assert "forward before it" in trace(Hex(0, 0), Facing.N, "TF", 3).problem
    assert "forward before it" in trace(Hex(0, 0), Facing.N, "FTTF", 3).problem
    assert trace(Hex(0, 0), Facing.N, "FTFT", 3).problem == ""


def test_SFA_MOV_1_and_2_move_limits() -> None:
    """SFA-MOV-1/2: no more hexes than Move, and at least one."""
    assert "may move 2" in trace(Hex(0, 0), Facing.N, "FFF", 2).problem
    assert "at least 1" in trace(Hex(0, 0), Facing.N, "", 2).problem
    assert trace(Hex(0, 0), Facing.N, "", 0, min_hexes=0).problem == ""


def test_SFA_MOV_4_geometry_of_each_maneuver() -> None:
    """SFA-MOV-4: Turn one side, Hard Turn two, Reversal three, Roll sideways keeping
    facing, Loop in place, Spin forces straight flight after it."""
    start = Hex(0, 0)
    assert trace(start, Facing.N, "FT", 1).facing == Facing.NE
    assert trace(start, Facing.N, "Fh", 1).facing == Facing.SW  # two sides to the left
    assert trace(start, Facing.N, "FV", 1).facing == Facing.S
    roll = trace(start, Facing.N, "Fr", 2)
    assert roll.facing == Facing.N
    assert roll.end == Hex(0, -1).neighbor(Facing.NE)
    loop = trace(start, Facing.N, "OF", 1)
    assert loop.problem == "" and loop.end == Hex(0, -1) and loop.soak == -1
    assert "straight ahead" in trace(start, Facing.N, "FSFT", 3).problem


def test_candidate_steps_are_legal() -> None:
    for move in range(1, 6):
        for steps in candidate_steps(move):
            assert trace(Hex(0, 0), Facing.N, steps, move).problem == "", steps
