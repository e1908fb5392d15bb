"""A ruleset from another package works in every generic layer: found by its entry point,
its players by kind, its scenarios from its own data folder, its lab set-up in duels and
round robins. The toy ruleset (tests/plugins/toy.py) stands for that package."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dogfight.ai import make_player, player_kinds
from dogfight.ai.search import SearchPlayer
from dogfight.core import registry
from dogfight.core.errors import DogfightError, UnknownName
from dogfight.core.game import Game
from dogfight.core.ruleset import Ruleset
from dogfight.core.scenario import builtin_scenario_files, builtin_scenarios, load_scenario
from dogfight.sim.balance import round_robin
from dogfight.sim.matchup import Matchup, default_roster, duel_scenario, play_matchups
from dogfight.sim.players import check_players, parse_ai_args
from dogfight.sim.runner import play_game

from .toy import Greedy, ToyRuleset

TESTS = Path(__file__).resolve().parents[1]


def _run(code: str) -> str:
    """Run `code` in a fresh interpreter (a registry not yet loaded), tests/ importable."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=TESTS,
        env=None,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_entry_point_registers_a_ruleset_beside_the_built_in_ones() -> None:
    """A package advertising a ruleset under the `dogfight.rulesets` entry point is found
    by name, and the built-in rulesets still are (here the interpreter sees no entry
    point of dogfight's own, as in a source tree never installed)."""
    out = _run(
        """
        import importlib.metadata as md
        points = [md.EntryPoint("toy", "plugins.toy:ToyRuleset", "dogfight.rulesets")]
        md.entry_points = lambda **kw: points if kw.get("group") == "dogfight.rulesets" else []
        from dogfight.core.registry import all_rulesets, find_ruleset
        print(type(find_ruleset("toy")).__name__, [r.name for r in all_rulesets()])
        """
    )
    assert out.split(" ", 1)[0] == "ToyRuleset"
    assert all(name in out for name in ("'toy'", "'acta'", "'evo'", "'sfa'"))


def test_a_broken_plugin_is_named_in_one_line() -> None:
    """An entry point that cannot be loaded, or names no Ruleset, fails with a message
    naming the plugin (not a traceback from inside the registry)."""
    out = _run(
        """
        import importlib.metadata as md
        points = [md.EntryPoint("nope", "plugins.no_such_module:X", "dogfight.rulesets")]
        md.entry_points = lambda **kw: points
        from dogfight.core.errors import DogfightError
        from dogfight.core.registry import find_ruleset
        try:
            find_ruleset("acta")
        except DogfightError as exc:
            print(exc)
        """
    )
    assert out.startswith("ruleset plugin 'nope' (plugins.no_such_module:X) cannot be loaded")
    out = _run(
        """
        import importlib.metadata as md
        points = [md.EntryPoint("bad", "plugins.toy:Greedy", "dogfight.rulesets")]
        md.entry_points = lambda **kw: points
        from dogfight.core.errors import DogfightError
        from dogfight.core.registry import find_ruleset
        try:
            find_ruleset("acta")
        except DogfightError as exc:
            print(exc)
        """
    )
    assert "is not a Ruleset subclass" in out


def test_the_toy_players_are_offered_by_kind(toy: Ruleset) -> None:
    """The ruleset's players() hook gives its kinds, after the generic ones; an unknown
    kind is refused with the list the ruleset offers."""
    assert player_kinds(toy) == ("random", "search", "greedy")
    assert player_kinds("toy") == ("random", "search", "greedy")
    assert "greedy" in player_kinds()
    assert isinstance(make_player("GREEDY", "toy"), Greedy)
    with pytest.raises(
        UnknownName,
        match=r"no player kind 'heuristic' for ruleset 'toy'; "
        r"known kinds: random, search\[:N\], greedy",
    ):
        make_player("heuristic", "toy")
    with pytest.raises(UnknownName, match=r"known kinds: random, search\[:N\], greedy"):
        check_players({"Red": "heuristic"}, "toy")
    assert parse_ai_args(["blue=greedy"], ["Red", "Blue"], default="random") == {
        "Red": "random",
        "Blue": "greedy",
    }
    with pytest.raises(DogfightError, match=r"kinds: random, search\[:N\], greedy"):
        parse_ai_args(["Red=clever"], ["Red", "Blue"], kinds=player_kinds(toy))


def test_the_search_player_plays_a_plugin_guided_by_its_own_player(toy: Ruleset) -> None:
    """A ruleset without a heuristic: the search follows its own kind (greedy)."""
    scenario = load_scenario("toy/skirmish")
    game = play_game(Game(scenario, seed=5), {"Red": "search:8", "Blue": "random"})
    assert game.is_over()
    assert isinstance(SearchPlayer().guide(toy), Greedy)


def test_the_toy_scenarios_come_from_its_own_data_folder(toy: Ruleset) -> None:
    """A plugin's data lives in its own package (`Ruleset.data_folder`), not in ours."""
    assert [f.name for f in builtin_scenario_files("toy")] == ["skirmish.yaml"]
    assert builtin_scenario_files("toy")[0] in builtin_scenario_files()
    scenario = load_scenario("toy/skirmish")
    assert scenario.ruleset == "toy" and [s.name for s in builtin_scenarios("toy")] == ["skirmish"]
    game = play_game(Game(scenario, seed=5), {"Red": "greedy", "Blue": "random"})
    assert game.is_over() and game.ruleset is toy
    assert any(e.clause == "TOY-HIT-1" for e in game.events)


def test_duels_and_round_robins_use_the_rulesets_lab_set_up(toy: Ruleset) -> None:
    """sim/matchup asks `lab()` for the board, the roster, the sides and the table."""
    assert default_roster("toy") == ["pawn", "rook"]
    duel = duel_scenario("toy", "pawn", "rook", 2, 5)
    assert duel.raw["table"] == {"width": 10, "height": 6}
    assert duel.raw["turn_limit"] == 4
    red, blue = duel.raw["sides"]
    assert [u["at"] for u in red["units"]] == [[1, 2.5], [1, 3.5]]
    # five in a line 4 long: one rank of five 1 apart, at the far edge
    assert [u["at"] for u in blue["units"]] == [[9, 1.0], [9, 2.0], [9, 3.0], [9, 4.0], [9, 5.0]]
    [result] = play_matchups(
        "toy", [Matchup(a="pawn", b="rook", count_a=3, count_b=3)], 6, seed=2, jobs=1, ai="greedy"
    )
    assert result.battles == 6 and result.wins_a + result.wins_b + result.draws == 6
    report = round_robin("toy", count=2, battles=4, seed=1, jobs=1, ai="greedy")
    assert report.units == ["pawn", "rook"] and report.points == {"pawn": 10, "rook": 25}
    assert {s.unit for s in report.equal_numbers.strengths} == {"pawn", "rook"}
    assert report.equal_points is not None  # both have points: an equal-points round too


def test_a_ruleset_without_a_lab_set_up_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Bare(ToyRuleset):
        name = "bare"

        def lab(self) -> None:  # type: ignore[override]
            return None

    registry.all_rulesets()
    monkeypatch.setattr(registry, "_RULESETS", dict(registry._RULESETS))
    registry.register(Bare())
    with pytest.raises(DogfightError, match="the bare ruleset has no lab set-up"):
        duel_scenario("bare", "pawn", "rook", 1, 1)
