"""Every evo rule is written once: a subclass that overrides one rule function changes
the engine, the exact odds, the board's odds preview and the computer player's
estimate with it (issue 12).

The subclass, registered as 'evo-variant', makes 'on my six' worth +2 instead of +1
(EVO-SIX-1). A d6 showing 4 on a Target 4, Kill 6 fighter shot on its six is then a
6: a Kill, where the parent's 5 is only a hit that a Save may stop.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from dogfight.core import registry
from dogfight.core.game import Game
from dogfight.core.options import resolve_options
from dogfight.core.registry import find_ruleset, register
from dogfight.core.scenario import scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.dice import scripted
from dogfight.rulesets.evo import actions as A
from dogfight.rulesets.evo.heuristic import EvoHeuristic, View
from dogfight.rulesets.evo.odds import evo_attack, evo_removal_chance
from dogfight.rulesets.evo.rules import EvoRules
from dogfight.rulesets.evo.ruleset import EvoRuleset

from .builders import activate, custom_unit, events, flight, last, scenario_raw, script, shoot


class SixPlusTwo(EvoRules):
    """'On my six' adds 2 (the parent: 1)."""

    def six_bonus(self, six: bool) -> int:
        return 2 if six else 0


class EvoVariant(EvoRuleset):
    """evo with the one changed rule, under its own name."""

    name = "evo-variant"
    title = "evo, with 'on my six' worth +2"
    aliases = ()
    rules = SixPlusTwo()


@pytest.fixture(autouse=True)
def variant() -> Iterator[EvoVariant]:
    """The variant, registered for the test only (other tests list every ruleset)."""
    ruleset = EvoVariant()
    register(ruleset)
    yield ruleset
    registry._RULESETS.pop(ruleset.name, None)


# Blue's fighter F drifts to 4" behind Red's T (on its six, within close range).
DUCK = custom_unit("duck", target=4, save=5, kill=6)
POSITION = (flight(0, "duck", 10, 24, id="F"), flight(1, "duck", 20, 24, id="T"))


def game_of(ruleset: str, dice: tuple[int, ...] = ()) -> Game:
    """The position under `ruleset`, Blue's F activated (drifted onto T's six)."""
    raw = scenario_raw(*POSITION, custom_units=[DUCK])
    raw["ruleset"] = ruleset
    game = Game(scenario_from_raw(raw, "test"), seed=0, dice=scripted(*dice))
    activate(game, "F")
    return game


def options() -> dict[str, Any]:
    return dict(resolve_options(find_ruleset("evo").options))


def test_the_variant_is_found_and_inherits_its_parent() -> None:
    """A subclass under a new name keeps what the parent finds by its data name."""
    ruleset = find_ruleset("evo-variant")
    assert isinstance(ruleset, EvoVariant)
    assert ruleset.rules_text() == ("rules.md",)
    assert ruleset.data_folder() == find_ruleset("evo").data_folder()
    assert ruleset.unit_names() == find_ruleset("evo").unit_names()
    assert ruleset.players()["heuristic"] is EvoHeuristic
    assert ruleset.board() is find_ruleset("evo").board()
    lab = ruleset.lab()
    assert lab is not None and lab.default_roster(ruleset) == ruleset.unit_names()
    # Its own `tactics` command is named after it (`dogfight tactics evo-variant`).
    assert [(c.group, c.name) for c in ruleset.commands()] == [
        ("odds", "attack"),
        ("tactics", "evo-variant"),
    ]


def test_EVO_SIX_1_engine_follows_the_overridden_bonus() -> None:
    """EVO-SIX-1 (engine, scripted dice): under the variant a 4 on the six is a Kill."""
    parent = game_of("evo")
    script(parent, 4, 6)  # the damage die, then the Save (6: saved)
    shoot(parent, "F", "T.1")
    assert "T.1" in parent.state.models
    assert "4+1" in last(parent, "EVO-DMG-2").text

    child = game_of("evo-variant")
    script(child, 4)  # the damage die only: a Kill allows no Save
    shoot(child, "F", "T.1")
    assert "T.1" not in child.state.models
    assert "killed outright by a 4+2" in events(child, "EVO-DMG-1")[-1].text


def test_EVO_SIX_1_odds_follow_the_overridden_bonus() -> None:
    """EVO-SIX-1 (exact odds): the die chance and the whole Shoot follow the variant."""
    kind = game_of("evo").state.types["duck"]
    base = evo_removal_chance(4, kind, options(), target_score=4, save_needed=5, six=True)
    child = evo_removal_chance(
        4, kind, options(), target_score=4, save_needed=5, six=True, rules=SixPlusTwo()
    )
    assert base == Fraction(4, 6)  # a hit: the Save fails on 1-4
    assert child == 1  # a Kill
    weapon = kind.weapons[0].name
    parent_odds = evo_attack(kind, weapon, kind, options(), range_inches=4, six=True)
    child_odds = evo_attack(
        kind, weapon, kind, options(), range_inches=4, six=True, rules=SixPlusTwo()
    )
    assert child_odds.expected > parent_odds.expected


def test_EVO_SIX_1_the_variants_odds_command_follows() -> None:
    """EVO-SIX-1 (`dogfight odds evo-variant attack`): the command runs the variant's odds."""
    (parent,) = [c for c in find_ruleset("evo").commands() if c.group == "odds"]
    (child,) = [c for c in find_ruleset("evo-variant").commands() if c.group == "odds"]
    params = {
        "firer": "razik",
        "weapon": "Light particle gun",
        "target": "sentri",
        "range_inches": 8.0,
        "six": True,
        "models": None,
        "firers": None,
        "plot": None,
    }
    a, b = parent.run(params, options()), child.run(params, options())
    assert b.json["ruleset"] == "evo-variant"
    assert b.json["expected"] > a.json["expected"]
    assert "  assumes: shot at its aft from close range (on my six, +2)" in b.blocks


def test_EVO_SIX_1_board_odds_preview_follows() -> None:
    """EVO-SIX-1 (the browser's odds before Commit): the preview is the variant's."""
    shoots = A.Shoot(unit="F", target="T.1")
    board = find_ruleset("evo-variant").board()
    assert board is not None
    parent, child = game_of("evo"), game_of("evo-variant")
    assert shoots in child.legal_actions()
    before = board.describe(parent, shoots)["odds"]
    after = board.describe(child, shoots)["odds"]
    kind = child.state.types["duck"]
    expected = evo_attack(
        kind, "Gun", kind, child.options, range_inches=0.0, six=True, models=1, firers=1,
        rules=SixPlusTwo(),
    )  # fmt: skip
    assert after["expected"] == pytest.approx(float(expected.expected))
    assert after["expected"] > before["expected"]


def test_EVO_SIX_1_heuristic_estimate_follows() -> None:
    """EVO-SIX-1 (the computer player): its expected kills of the Shoot are the
    variant's, read through its seat's ruleset."""

    def estimate(game: Game) -> float:
        seat = Seat.of(game)
        view = View(seat.state(), seat.ruleset.rules, {})  # type: ignore[attr-defined]
        me, target = view.crafts["F.1"], view.crafts["T.1"]
        value = view.shot_value(
            "Blue",
            me.kind,
            [me],
            target,
            view.fire_zone(target, "F"),
            ignore_arcs=False,
            locked="",
            reaction=False,
        )
        assert value is not None
        return value

    parent, child = estimate(game_of("evo")), estimate(game_of("evo-variant"))
    assert child > parent
    # The player still answers legally in the variant.
    game = game_of("evo-variant")
    choice = EvoHeuristic().decide(Seat.of(game), game.legal_actions(), random.Random(0))
    assert choice in game.legal_actions() or isinstance(choice, A.Manoeuvre)
