"""Issue 10, evo item 6: Ready does all the seed names (EVO-RDY-1): lock on with missiles
(already), launch torpedoes (EVO-TOR-1) and activate a jump gate, to arrive through it
(EVO-GATE-2) or to leave through it (EVO-GATE-3); with validation of the new data fields.

Each test builds a position, scripts the dice, plays it through the Game API and checks
the result against the clause in data/evo/rules.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dogfight.core import Game, load_scenario
from dogfight.core.errors import DataError, IllegalAction
from dogfight.rulesets.evo.actions import (
    Activate,
    JumpOut,
    LaunchTorpedo,
    Manoeuvre,
    Shoot,
)
from dogfight.rulesets.evo.scenario import parse_scenario
from dogfight.rulesets.evo.units import catalog, load_unit_file

from .builders import (
    BLUE,
    RED,
    activate,
    custom_unit,
    dice_left,
    end,
    events,
    fl,
    flight,
    gun,
    heading,
    last,
    make_game,
    rotate,
    script,
    xy,
)

DUCK = custom_unit("duck", weapons=[], models=1)
BOMBER = custom_unit(
    "bomber",
    weapons=[
        gun("Gun", range=6, arc="FaF"),
        gun("Torpedo", range=20, arc="FaF", traits=["Torpedo"], shots=1, die=10),
    ],
)
"""A short gun and one forward torpedo launch, d10."""


def torpedo_game(**kw: Any) -> Game:
    """Blue bomber at (10, 24) facing east; a Red duck 20" ahead of where its drift
    leaves it (16, 24) -> (30, 24): 14" away, beyond the gun, within the torpedo."""
    return make_game(
        flight(0, "bomber", 10, 24, 0, "B"),
        flight(1, "duck", 30, 24, 0, "R"),
        custom_units=[BOMBER, DUCK],
        **kw,
    )


# ---- torpedoes ----------------------------------------------------------------------


def test_EVO_TOR_1_a_ready_launches_torpedoes() -> None:
    """EVO-TOR-1: the torpedo fires only by a Ready (LaunchTorpedo), not by a Shoot; its
    d10 comes up 10, at or above the duck's Kill 6: the duck is killed outright. The
    launch is the flight's Ready action."""
    game = torpedo_game()
    activate(game, "B")
    legal = game.legal_actions()
    assert LaunchTorpedo(unit="B", target="R.1") in legal
    assert Shoot(unit="B", target="R.1") not in legal
    with pytest.raises(IllegalAction):
        game.check(Shoot(unit="B", target="R.1"))
    script(game, 10)
    game.apply(LaunchTorpedo(unit="B", target="R.1"))
    assert dice_left(game) == 0
    assert "R.1" not in game.state.models
    assert fl(game, "B").actions == ("ready",)
    assert fl(game, "B").launches == ("Torpedo",)
    assert any("launches torpedoes" in e.text for e in events(game, "EVO-TOR-1"))


def test_EVO_TOR_1_shots_per_battle_run_out() -> None:
    """EVO-TOR-1: a weapon with `shots: 1` launches once a battle; the second launch is
    neither offered nor accepted. A miss (a 2 on the d10 against Target 4) still spends it."""
    game = torpedo_game()
    activate(game, "B")
    script(game, 2)
    game.apply(LaunchTorpedo(unit="B", target="R.1"))
    assert "R.1" in game.state.models
    assert last(game, "EVO-TOR-1").data["left"] == 0
    assert not any(isinstance(a, LaunchTorpedo) for a in game.legal_actions())
    with pytest.raises(IllegalAction, match="no torpedoes left"):
        game.check(LaunchTorpedo(unit="B", target="R.1"))


def test_EVO_TOR_1_a_launch_keeps_to_arcs_after_a_rotate() -> None:
    """EVO-TOR-1 with EVO-ROT-1: a Rotate frees a Shoot from arcs, not a launch: a
    target behind the bomber cannot be torpedoed."""
    game = make_game(
        flight(0, "bomber", 30, 24, 0, "B"),
        flight(1, "duck", 20, 24, 0, "R"),
        custom_units=[BOMBER, DUCK],
    )
    activate(game, "B")
    rotate(game, "B")
    assert not any(isinstance(a, LaunchTorpedo) for a in game.legal_actions())
    with pytest.raises(IllegalAction, match="EVO-TOR-1"):
        game.check(LaunchTorpedo(unit="B", target="R.1"))


def test_EVO_TOR_1_torpedoes_never_react() -> None:
    """EVO-TOR-1: a reaction is a free Shoot, and a Shoot never fires a torpedo: a Red
    flight armed only with a torpedo is not offered a reaction to Blue's action 8"
    away."""
    torp = custom_unit(
        "torp", weapons=[gun("Torpedo", range=20, traits=["Torpedo"], shots=2, die=10)]
    )
    game = make_game(
        flight(0, "duck", 10, 24, 0, "B"),
        flight(1, "torp", 24, 24, 180, "R"),
        custom_units=[DUCK, torp],
    )
    activate(game, "B")
    end(game, "B")
    assert game.state.phase != "react"
    assert events(game, "EVO-REA-2") == []


def test_EVO_TOR_1_built_in_unit_carries_torpedoes() -> None:
    """EVO-TOR-1: the built-in Thunderbolt strike fit carries a one-launch torpedo."""
    torpedo = next(w for w in catalog()["thunderbolt-strike"].weapons if w.trait("Torpedo") == 0)
    assert torpedo.shots == 1


# ---- jump gates -----------------------------------------------------------------------


def gate_game(arrive_turn: int = 1, b_y: float = 10, **kw: Any) -> Game:
    """A gate G at (6, 24) facing 30; Blue's H flight waits in hyperspace, Blue's B
    flight is at (4, b_y) facing 90; Red has a duck far away."""
    return make_game(
        flight(0, "duck", 4, b_y, 90, "B"),
        flight(0, "duck", 0, 0, 0, "H", arrive="G", arrive_turn=arrive_turn, models=2),
        flight(1, "duck", 44, 44, 180, "R"),
        custom_units=[DUCK],
        jump_gates=[{"id": "G", "at": [6, 24], "heading": 30, "radius": 3}],
        **kw,
    )


def test_EVO_GATE_2_a_flight_arrives_through_the_gate() -> None:
    """EVO-GATE-2: a flight in hyperspace is activated like any other; its models come
    out line abreast at the gate facing its heading, without drifting, and opening the
    gate was its Ready action: one action is left, and no manoeuvre (EVO-MOV-2)."""
    game = gate_game()
    assert fl(game, "H").models == ()
    assert Activate(unit="H") in game.legal_actions()
    activate(game, "H")
    assert xy(game, "H.1") == pytest.approx((6, 24))
    assert heading(game, "H.1") == pytest.approx(30)
    assert heading(game, "H.2") == pytest.approx(30)
    flight_h = fl(game, "H")
    assert flight_h.actions == ("ready",) and flight_h.allowed == 2
    assert not any(isinstance(a, Manoeuvre) for a in game.legal_actions())
    assert last(game, "EVO-GATE-2").data["gate"] == "G"
    assert events(game, "EVO-MOV-1") == []


def test_EVO_GATE_2_not_before_its_turn_and_not_beaten_meanwhile() -> None:
    """EVO-GATE-2: a flight due in turn 2 cannot be activated in turn 1; a side whose
    only flight waits in hyperspace has not lost (EVO-WIN-1)."""
    game = make_game(
        flight(0, "duck", 0, 0, 0, "H", arrive="G", arrive_turn=2),
        flight(1, "duck", 44, 44, 180, "R"),
        custom_units=[DUCK],
        jump_gates=[{"id": "G", "at": [6, 24]}],
    )
    assert game.outcome() is None
    assert game.current_player() == RED  # Blue has nothing to activate in turn 1
    with pytest.raises(IllegalAction):
        game.check(Activate(unit="H"))
    activate(game, "R")
    end(game, "R")
    assert game.state.turn == 2 and game.current_player() == BLUE
    assert Activate(unit="H") in game.legal_actions()


def test_EVO_GATE_3_a_flight_jumps_out() -> None:
    """EVO-GATE-3: B drifts from (4, 18) to (4, 24), 2" from the gate at (6, 24), within
    its 3" radius: a Ready there takes it off the table, disengaged, not destroyed."""
    game = gate_game(arrive_turn=2, b_y=18)
    activate(game, "B")
    assert JumpOut(unit="B", gate="G") in game.legal_actions()
    game.apply(JumpOut(unit="B", gate="G"))
    flight_b = fl(game, "B")
    assert flight_b.models == () and flight_b.jumped == 1
    assert flight_b.disengaged == 1 and flight_b.destroyed == 0
    assert last(game, "EVO-GATE-3").data["destroyed"] is False


def test_EVO_GATE_3_only_within_the_radius() -> None:
    """EVO-GATE-3: B at (4, 16) after its drift is 8.2" from the gate: no jump."""
    game = gate_game(arrive_turn=2)
    activate(game, "B")
    assert not any(isinstance(a, JumpOut) for a in game.legal_actions())
    with pytest.raises(IllegalAction, match="EVO-GATE-3"):
        game.check(JumpOut(unit="B", gate="G"))
    with pytest.raises(IllegalAction, match="EVO-GATE-1"):
        game.check(JumpOut(unit="B", gate="nowhere"))


def test_EVO_GATE_1_built_in_scenario_has_a_gate() -> None:
    """EVO-GATE-1: the built-in jump-point scenario has a gate and a flight arriving."""
    spec = parse_scenario(load_scenario("jump-point"))
    assert [g.id for g in spec.jump_gates] == ["G1"]
    assert any(u.arrive == "G1" for side in spec.sides for u in side.units)


# ---- validation of the new fields ---------------------------------------------------------

SCENARIO = """\
name: test
ruleset: evo
jump_gates:
- {id: G, at: [6, 24], heading: 0, radius: 3}
sides:
- name: A
  units:
  - {id: A1, type: starfury-aurora, at: [6, 24], heading: 0, arrive: G, arrive_turn: 2}
- name: B
  units:
  - {id: B1, type: frazi, at: [42, 24], heading: 180}
"""


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("at: [6, 24], heading: 0, radius", "at: [60, 24], heading: 0, radius", "jump_gates[0].at"),
        ("radius: 3}", "radius: 0}", "jump_gates[0].radius"),
        ("radius: 3}", "radius: .nan}", "jump_gates[0].radius"),
        ("radius: 3}", "radius: 40}", "jump_gates[0].radius"),
        ("heading: 0, radius", "heading: .inf, radius", "jump_gates[0].heading"),
        ("{id: G,", "{id: '',", "jump_gates[0].id"),
        ("arrive: G,", "arrive: X,", "sides[0].units[0].arrive"),
        ("arrive_turn: 2", "arrive_turn: 9", "sides[0].units[0].arrive_turn"),
    ],
)
def test_EVO_GATE_1_bad_gate_data(tmp_path: Path, old: str, new: str, field: str) -> None:
    """EVO-GATE-1: a bad gate or arrival is refused with the file and the field named."""
    path = tmp_path / "bad.yaml"
    assert old in SCENARIO
    path.write_text(SCENARIO.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError) as info:
        parse_scenario(load_scenario(str(path)))
    message = str(info.value)
    assert message.startswith(str(path)) and f"field '{field}" in message


def test_EVO_GATE_1_good_gate_data(tmp_path: Path) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    assert parse_scenario(load_scenario(str(path))).jump_gates[0].radius == 3


UNIT = """\
id: bad
name: Bad
power: Test
agility: 4
target: 4
save: 5
kill: 6
weapons:
- {name: Torp, range: 20, dice: 1, die: 10, traits: [Torpedo], shots: 1}
"""


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("shots: 1}", "shots: -1}", "weapons[0].shots"),
        ("shots: 1}", "shots: 99}", "weapons[0].shots"),
        ("traits: [Torpedo]", "traits: []", "weapons[0].shots"),
        ("traits: [Torpedo]", "traits: [Torpedo, Lock-on]", "weapons[0].traits"),
        ("range: 20", "range: .inf", "weapons[0].range"),
        ("agility: 4", "agility: .nan", "agility"),
    ],
)
def test_EVO_TOR_1_bad_torpedo_data(tmp_path: Path, old: str, new: str, field: str) -> None:
    """EVO-TOR-1: a bad torpedo line is refused with the file, unit and field named."""
    path = tmp_path / "bad.yaml"
    path.write_text(UNIT.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_unit_file(path)
    message = str(info.value)
    assert message.startswith(str(path)) and "unit 'bad'" in message
    assert f"field '{field}'" in message
