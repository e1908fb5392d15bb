"""Every acta rule is written once: a subclass that overrides one rule function changes
the engine, the exact odds, the browser's odds preview and the heuristic's estimate
together (issue 12).

Two variants of acta, registered under new names, each override one method of
`ActaRules`: the dogfight bonus (ACTA-DOG-5: the Dogfight score counts twice) and the
to-hit modifier (ACTA-TRT-7: Weak costs 2, not 1).
"""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import msgspec
import pytest

import dogfight.rulesets.acta as package
from dogfight.core import Game
from dogfight.core.events import EventLog
from dogfight.core.options import OptionValue, resolve_options
from dogfight.core.registry import find_ruleset, register, unregister
from dogfight.core.scenario import scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.dice import scripted
from dogfight.rulesets.acta.actions import Dogfight
from dogfight.rulesets.acta.board import BOARD
from dogfight.rulesets.acta.combat import resolve_fire
from dogfight.rulesets.acta.heuristic import ActaHeuristic, View, duel
from dogfight.rulesets.acta.odds import acta_attack, acta_dogfight, acta_to_hit
from dogfight.rulesets.acta.rules import ActaRules
from dogfight.rulesets.acta.ruleset import ActaRuleset
from dogfight.rulesets.acta.state import TURN_CARRIES, TURN_FLAGS, UnitState
from dogfight.rulesets.acta.units import Weapon, find_unit

from .builders import scenario_raw, script, unit
from .test_clauses_combat import E, advance_to, all_dice_used


class DoubleDogfight(ActaRules):
    """ACTA-DOG-5 varied: the Dogfight score (with drones) counts twice."""

    def dogfight_bonus(self, dogfight: int, drones: bool, support: int) -> int:
        return 2 * self.dogfight_score(dogfight, drones) + support


class HeavyWeak(ActaRules):
    """ACTA-TRT-7 varied: a Weak weapon takes -2 to hit, not -1."""

    def to_hit_modifier(
        self,
        weapon: Weapon,
        target_is_fighter: bool,
        options: Mapping[str, OptionValue],
        *,
        evasive: bool = False,
        weapon_crits: int = 0,
    ) -> int:
        base = super().to_hit_modifier(
            weapon, target_is_fighter, options, evasive=evasive, weapon_crits=weapon_crits
        )
        return base - 1 if weapon.has("Weak") else base


class DogfightVariant(ActaRuleset):
    """acta with the doubled dogfight bonus."""

    name = "acta-double-dogfight"
    title = "acta, the Dogfight score counting twice (a test variant)"
    rules = DoubleDogfight()


class ToHitVariant(ActaRuleset):
    """acta with Weak weapons at -2."""

    name = "acta-heavy-weak"
    title = "acta, Weak weapons at -2 (a test variant)"
    rules = HeavyWeak()


@pytest.fixture(scope="module", autouse=True)
def variants() -> Iterator[None]:
    """Register both variants (as a plugin would) before any game names them, for this
    module only (other tests list every ruleset)."""
    find_ruleset("acta")  # the built-in rulesets first, as in any run
    added = [register(DogfightVariant()), register(ToHitVariant())]
    yield
    for ruleset in added:
        unregister(ruleset.name)


def game_of(ruleset: str, *units: dict[str, Any], dice: tuple[int, ...] = (6, 1)) -> Game:
    """A one-turn game of `ruleset` (Empire wins the initiative with the first dice)."""
    raw = scenario_raw(*units, turn_limit=1)
    raw["ruleset"] = ruleset
    return Game(scenario_from_raw(raw, "test"), seed=0, dice=scripted(*dice))


def wasp_v_zaresh(ruleset: str) -> Game:
    """Wasp (Dogfight +2) and Zaresh (+1, drones kept) locked, Empire to assign."""
    game = game_of(
        ruleset,
        unit(0, "wasp", 10, 10, 0, id="W"),
        unit(1, "zaresh", 11, 10, 180, id="Z", dogfight_drones=False),
    )
    advance_to(game, "fighter_attack", E)
    return game


def options() -> dict[str, OptionValue]:
    return resolve_options(find_ruleset("acta").options)


# ---- the dogfight bonus (ACTA-DOG-5) ---------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "survivors"), [("acta", {"W", "Z"}), ("acta-double-dogfight", {"W"})]
)
def test_ACTA_DOG_5_engine_follows_the_variant_dogfight_bonus(
    ruleset: str, survivors: set[str]
) -> None:
    """ACTA-DOG-5: dice 2 v 3. In acta 2+2 against 3+1 is a tie (both stay locked); with
    the score counting twice it is 2+4 against 3+2 and the Zaresh is destroyed."""
    game = wasp_v_zaresh(ruleset)
    script(game, 2, 3)
    game.apply(Dogfight(unit="W", enemy="Z"))
    assert {"W", "Z"} & set(game.state.units) == survivors
    roll = [e for e in game.events if "attacker_total" in e.data][-1]
    double = ruleset != "acta"
    assert (roll.data["attacker_total"], roll.data["defender_total"]) == (
        (6, 5) if double else (4, 4)
    )
    all_dice_used(game)


def test_ACTA_DOG_5_odds_follow_the_variant_dogfight_bonus() -> None:
    """ACTA-DOG-5: acta_dogfight with the variant's rules adds the doubled score."""
    wasp, zaresh = find_unit("wasp"), find_unit("zaresh")
    base = acta_dogfight(wasp, zaresh, options())
    varied = acta_dogfight(wasp, zaresh, options(), rules=DogfightVariant.rules)
    assert (base.attacker_bonus, base.defender_bonus) == (2, 1)
    assert (varied.attacker_bonus, varied.defender_bonus) == (4, 2)
    assert varied.attacker_wins > base.attacker_wins
    assert varied.attacker_wins + varied.defender_wins + varied.tie == 1


def test_ACTA_DOG_5_board_preview_follows_the_variant_dogfight_bonus() -> None:
    """ACTA-DOG-5: the odds shown before Commit for a Dogfight are the variant's."""
    shown = {}
    for name in ("acta", "acta-double-dogfight"):
        game = wasp_v_zaresh(name)
        action = Dogfight(unit="W", enemy="Z")
        assert action in game.legal_actions()
        shown[name] = BOARD.describe(game, action)["odds"]["outcomes"]
    wasp, zaresh = find_unit("wasp"), find_unit("zaresh")
    varied = acta_dogfight(wasp, zaresh, options(), rules=DogfightVariant.rules)
    assert shown["acta-double-dogfight"]["W wins"] == float(varied.attacker_wins)
    assert shown["acta-double-dogfight"] != shown["acta"]


def test_ACTA_DOG_5_heuristic_estimate_follows_the_variant_dogfight_bonus() -> None:
    """ACTA-DOG-5: the heuristic's (win, lose) estimate is the variant's exact odds."""
    estimates = {}
    for name in ("acta", "acta-double-dogfight"):
        game = wasp_v_zaresh(name)
        view = View.of(Seat.of(game))
        estimates[name] = view.odds(game.state.units["W"], game.state.units["Z"], 0.0, 0.0)
    assert estimates["acta"] == duel(1)
    assert estimates["acta-double-dogfight"] == duel(2)
    assert estimates["acta-double-dogfight"] != estimates["acta"]
    # and the player itself runs on the variant without falling back
    game = wasp_v_zaresh("acta-double-dogfight")
    player = ActaHeuristic(strict=True)
    assert player.decide(Seat.of(game), game.legal_actions(), random.Random(0)) is not None


# ---- the to-hit modifier (ACTA-TRT-7) --------------------------------------------------


@pytest.mark.parametrize(("ruleset", "hits"), [("acta", 4), ("acta-heavy-weak", 0)])
def test_ACTA_TRT_7_engine_follows_the_variant_to_hit_rule(ruleset: str, hits: int) -> None:
    """ACTA-TRT-7: the Kavrik's Phaser-3 (Weak, Fighter-Killer) at a Wasp 3" away needs
    4+ (within half range): four 5s hit at -1 but all miss at -2."""
    game = game_of(
        ruleset,
        unit(0, "wasp", 20, 10, 0, id="W"),
        unit(1, "kavrik", 23.5, 10, 180, id="K"),
    )
    state = game.state
    firer, target = state.units["K"], state.units["W"]
    phaser = next(w for w in state.unit_type(firer).weapons if w.name == "Phaser-3")
    script(game, 5, 5, 5, 5)
    log = EventLog(game.dice)
    ctx = game.ruleset.ctx(state, log)  # type: ignore[attr-defined]
    resolve_fire(ctx, firer, phaser, target)
    [roll] = [e for e in log.events if e.clause == "ACTA-ATK-2"]
    assert roll.data["hits"] == hits
    assert ("-2" in roll.text) == (ruleset != "acta")


def test_ACTA_TRT_7_odds_follow_the_variant_to_hit_rule() -> None:
    """ACTA-TRT-7: acta_to_hit and acta_attack with the variant's rules take -2."""
    kavrik, wasp = find_unit("kavrik"), find_unit("wasp")
    phaser = next(w for w in kavrik.weapons if w.name == "Phaser-3")
    assert acta_to_hit(phaser, wasp, 3.0, options()).modifier == -1
    assert acta_to_hit(phaser, wasp, 3.0, options(), rules=ToHitVariant.rules).modifier == -2
    base = acta_attack(kavrik, "Phaser-3", wasp, options(), range_inches=3.0)
    varied = acta_attack(kavrik, "Phaser-3", wasp, options(), range_inches=3.0, rules=HeavyWeak())
    assert (base.facts["to_hit"], varied.facts["to_hit"]) == ("4+ -1", "4+ -2")
    assert varied.expected < base.expected


# ---- what a subclass inherits ----------------------------------------------------------


def test_a_subclass_inherits_players_board_lab_commands_and_rules_text() -> None:
    """Everything acta finds by name is found by `data_name`, so a subclass under a new
    name keeps it; its commands run with its own rules."""
    variant = find_ruleset("acta-double-dogfight")
    assert variant.players() == find_ruleset("acta").players()
    assert variant.board() is BOARD
    assert variant.lab() is find_ruleset("acta").lab()
    assert variant.rules_text() == ("rules.md",)
    assert variant.data_folder() == find_ruleset("acta").data_folder()
    [dogfight] = [c for c in variant.commands() if c.name == "dogfight"]
    params: dict[str, Any] = {"attacker": "wasp", "defender": "zaresh", "plot": None}
    params |= {"attacker_support": 0, "defender_support": 0}
    params |= {"attacker_drones": False, "defender_drones": False}
    report = dogfight.run(params, options())
    assert (report.json["attacker_bonus"], report.json["ruleset"]) == (4, "acta-double-dogfight")


# ---- per-turn flags (ACTA-SEQ-1) -------------------------------------------------------


def test_per_turn_flags_are_declared_once_and_reset_from_that_declaration() -> None:
    """Every unit field below the per-turn marker is a declared per-turn flag (or its
    carry, or the one field kept across turns), and a new turn resets each of them."""
    fields = [f.name for f in msgspec.structs.fields(UnitState)]
    after_marker = fields[fields.index("move_done") :]
    carried = {now for now, _ in TURN_CARRIES}
    assert set(after_marker) == set(TURN_FLAGS) | carried | {"intercepted_from"}
    defaults = UnitState(id="x", type="wasp", side="E", pose=None, damage=1)  # type: ignore[arg-type]
    changed = UnitState(id="x", type="wasp", side="E", pose=None, damage=1)  # type: ignore[arg-type]
    for name in TURN_FLAGS:
        value = getattr(defaults, name)
        new: Any = {bool: True, int: 3, float: 2.5, str: "s", tuple: ("t",)}[type(value)]
        setattr(changed, name, new)
    changed.drain_next, changed.drain_penalty_next = True, "move"
    changed.new_turn()
    assert all(getattr(changed, n) == getattr(defaults, n) for n in TURN_FLAGS)
    assert (changed.power_drain, changed.drain_penalty) == (True, "move")


# ---- the package stands below the layers that use it ------------------------------------


def test_the_acta_package_imports_nothing_from_the_layers_above() -> None:
    """rulesets/acta holds its odds, players, board, lab and commands without importing
    dogfight.sim, dogfight.ai, dogfight.web or dogfight.cli (layers import downwards)."""
    above = ("dogfight.sim", "dogfight.ai", "dogfight.web", "dogfight.cli")
    found = []
    for path in sorted(Path(package.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            found += [f"{path.name}: {n}" for n in names if n.startswith(above)]
    assert not found
