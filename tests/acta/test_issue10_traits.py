"""Issue 10, acta item 6: every trait a unit carries does something (ACTA-TRT-11).

Carrier X lets a ship launch X fighters an End Phase; Interceptors and Anti-Fighter
are kept only under the options that roll them, and `dogfight validate` warns about
a trait that does nothing under the scenario's options.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core import Game
from dogfight.core.scenario import scenario_from_raw
from dogfight.rulesets.acta.actions import Launch

from .builders import scenario_raw, unit
from .test_clauses_combat import EMPIRE_WINS, advance_to, new_game

E = "Empire"


def carrier_game(ship: str) -> Game:
    """A carrier with two Dragonflies aboard (no patrol out), at the End Phase."""
    g = new_game(
        unit(0, ship, 10, 18, 0, id="CV", aboard={"dragonfly": 2}, patrol=False),
        unit(1, "kavrik", 34, 30, 180, id="K"),
        dice=EMPIRE_WINS,
    )
    advance_to(g, "launch", E)
    return g


def launches(g: Game) -> list[Launch]:
    """The launch choices that put a fighter out."""
    return [a for a in g.legal_actions() if isinstance(a, Launch) and a.fighter]


def test_ACTA_TRT_11_carrier_2_launches_two_fighters_a_turn() -> None:
    """ACTA-TRT-11: the Sky Dragon (Carrier 2) launches two fighters in one End Phase."""
    g = carrier_game("sky-dragon")
    g.apply(launches(g)[0])
    assert g.state.phase == "launch" and g.state.launches_pending == ("CV",)
    g.apply(launches(g)[-1])
    fighters = [f for f in g.state.units.values() if f.type == "dragonfly"]
    assert len(fighters) == 2
    assert g.state.units["CV"].aboard == ()


def test_ACTA_TRT_11_a_ship_without_carrier_launches_one() -> None:
    """ACTA-TRT-11 / ACTA-LCH-1: the Tiger (no Carrier trait) launches one fighter a turn."""
    g = carrier_game("tiger")
    g.apply(launches(g)[0])
    assert g.state.phase != "launch"
    assert len([f for f in g.state.units.values() if f.type == "dragonfly"]) == 1


def test_ACTA_TRT_11_idle_traits_left_out_of_the_game() -> None:
    """ACTA-TRT-11: under resolution=sf the Kavrik carries no Anti-Fighter or Interceptors;
    under b5 it keeps both; with defensive_fire_mode=interceptor it keeps Interceptors."""
    units = (unit(0, "tiger", 5, 18, id="T"), unit(1, "kavrik", 30, 18, 180, id="K"))

    def traits(rules: dict[str, str]) -> set[str]:
        g = new_game(*units, rules=rules)
        return {t.name for t in g.state.types["kavrik"].traits}

    assert traits({}) == set()
    assert traits({"resolution": "b5"}) == {"Anti-Fighter", "Interceptors"}
    assert traits({"defensive_fire_mode": "interceptor"}) == {"Interceptors"}


def test_ACTA_TRT_11_validate_warns_about_idle_traits(tmp_path: Path) -> None:
    """ACTA-TRT-11: `dogfight validate` warns, naming the file, the unit and the trait,
    when a unit carries a trait the scenario's options never use; not under b5."""
    raw = scenario_raw(unit(0, "tiger", 5, 18, id="T"), unit(1, "kavrik", 30, 18, 180, id="K"))
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(raw))
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "warning:" in result.output and str(path) in result.output
    assert "Anti-Fighter 3" in result.output and "kavrik" in result.output
    assert "ACTA-TRT-11" in result.output
    raw["options"] = {"resolution": "b5"}
    path.write_text(yaml.safe_dump(raw))
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0 and "warning" not in result.output
    scenario = scenario_from_raw(raw, "t")
    assert Game(scenario, seed=0).ruleset.scenario_warnings(scenario, {"resolution": "b5"}) == []


def test_ACTA_TRT_11_show_says_which_options_a_trait_needs() -> None:
    """ACTA-TRT-11: `dogfight show kavrik` notes that Anti-Fighter needs resolution=b5."""
    result = CliRunner().invoke(app, ["show", "acta", "kavrik"])
    assert result.exit_code == 0, result.output
    assert "resolution=b5" in result.output
