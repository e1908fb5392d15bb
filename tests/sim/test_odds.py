"""Exact odds (issue 5): hand-computed values, Monte Carlo agreement with the engine
within 3 standard errors for one case of each kind, and the `dogfight odds` commands."""

from __future__ import annotations

import copy
import json
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from dogfight.cli.main import app
from dogfight.core.errors import DogfightError, OptionError
from dogfight.core.events import EventLog
from dogfight.core.game import Game
from dogfight.core.options import OptionValue, resolve_options
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import scenario_from_raw
from dogfight.dice import seeded
from dogfight.rulesets.acta.combat import measure, resolve_fire
from dogfight.rulesets.acta.context import Ctx as ActaCtx
from dogfight.rulesets.acta.dogfight import fight_one
from dogfight.rulesets.acta.odds import acta_attack, acta_dogfight
from dogfight.rulesets.acta.units import find_unit as acta_unit
from dogfight.rulesets.evo.context import Ctx as EvoCtx
from dogfight.rulesets.evo.odds import evo_attack
from dogfight.rulesets.evo.shooting import allocate, on_my_six, resolve_die, target_score
from dogfight.rulesets.evo.units import UnitSpec, WeaponSpec, build_unit
from dogfight.rulesets.evo.units import find_unit as evo_unit
from dogfight.rulesets.sfa.odds import sfa_pool
from dogfight.rulesets.sfa.pool import roll_pool


def rule_options(ruleset: str, rules: dict[str, object]) -> dict[str, OptionValue]:
    """The ruleset's full option set with `--rule` overrides, as the CLI resolves them."""
    return resolve_options(find_ruleset(ruleset).options, (rules, "--rule"))


TRIALS = 40_000
ACTA = rule_options("acta", {})
EVO = rule_options("evo", {})


def within_three_standard_errors(hits: int, trials: int, exact: Fraction, what: str) -> None:
    p = float(exact)
    rate = hits / trials
    se = math.sqrt(p * (1 - p) / trials)
    assert abs(rate - p) <= 3 * se, (
        f"{what}: observed {rate:.5f}, exact {p:.5f} (3 SE {3 * se:.5f})"
    )


def agrees(observed: Counter[int], trials: int, exact: dict[int, Fraction], what: str) -> None:
    """Every outcome the engine produced is possible, and every likely one agrees."""
    assert set(observed) <= set(exact), f"{what}: impossible outcomes {set(observed) - set(exact)}"
    assert sum(exact.values()) == 1
    for k, p in exact.items():
        if p > Fraction(1, 100):
            within_three_standard_errors(observed[k], trials, p, f"{what} {k}")


# ---- hand-computed values ------------------------------------------------------------


def test_zaresh_v_hummingbird_by_hand() -> None:
    """ACTA-DOG-5/6: d6+1 beats d6+3 on (6,1),(6,2),(5,1) ... = 6/36; ties 4/36."""
    odds = acta_dogfight(acta_unit("zaresh"), acta_unit("hummingbird"), ACTA)
    assert (odds.attacker_wins, odds.tie) == (Fraction(1, 6), Fraction(1, 9))
    assert odds.defender_wins == Fraction(13, 18)
    reroll = acta_dogfight(
        acta_unit("zaresh"),
        acta_unit("hummingbird"),
        rule_options("acta", {"dogfight_tie": "reroll"}),
    )
    assert (reroll.attacker_wins, reroll.tie) == (Fraction(1, 6) / Fraction(8, 9), 0)
    assert reroll.attacker_wins + reroll.defender_wins == 1
    # Dogfight drones (+2) and one supporter (+1) make the Zaresh d6+4 v d6+3.
    swapped = acta_dogfight(
        acta_unit("zaresh"),
        acta_unit("hummingbird"),
        ACTA,
        attacker_drones=True,
        attacker_support=1,
    )
    assert swapped.attacker_bonus == 4
    assert swapped.attacker_wins == Fraction(21, 36)


def test_fighters_only_and_drones_need_a_star_weapon() -> None:
    with pytest.raises(DogfightError, match="ship"):
        acta_dogfight(acta_unit("tiger"), acta_unit("zaresh"), ACTA)
    with pytest.raises(DogfightError, match="dogfight drones"):
        acta_dogfight(acta_unit("wasp"), acta_unit("zaresh"), ACTA, attacker_drones=True)


def test_phaser_3f_at_a_dodging_fighter_by_hand() -> None:
    """ACTA-ATK-2/FTR-4/FTR-6: 4+ with -1 hits on 5, 6; a moved Zaresh dodges on 5+:
    (2/6)(4/6) = 2/9. Not moved: no dodge, 1/3."""
    moved = acta_attack(acta_unit("dragonfly"), "phaser-3f", acta_unit("zaresh"), ACTA)
    assert moved.odds == {0: Fraction(7, 9), 1: Fraction(2, 9)}
    still = acta_attack(acta_unit("dragonfly"), "Phaser-3F", acta_unit("zaresh"), ACTA, moved=False)
    assert still.odds == {0: Fraction(2, 3), 1: Fraction(1, 3)}
    free = rule_options("acta", {"dodge_requires_move": "false"})
    assert (
        acta_attack(
            acta_unit("dragonfly"), "Phaser-3F", acta_unit("zaresh"), free, moved=False
        ).odds
        == moved.odds
    )


def test_photon_at_a_ship_by_hand() -> None:
    """ACTA-DMG-1/2/3, ACTA-ATK-3: a Hornet's Photon-F (1 AD, Multihit 2) at a Mantis
    (shields 6) within half range: a 4 or 5 hits but both points go into the shields;
    a natural 6 goes past them, and each of its 2 hull dice does 1 damage on 2-6."""
    odds = acta_attack(acta_unit("hornet"), "Photon-F", acta_unit("mantis"), ACTA, range_inches=3)
    assert odds.odds == {
        0: 1 - Fraction(35, 216),
        1: Fraction(1, 6) * Fraction(10, 36),
        2: Fraction(1, 6) * Fraction(25, 36),
    }
    assert odds.expected == Fraction(60, 216)


def test_acta_attack_refuses_what_the_engine_would() -> None:
    with pytest.raises(DogfightError, match="no weapon 'Laser'"):
        acta_attack(acta_unit("hornet"), "Laser", acta_unit("mantis"), ACTA)
    with pytest.raises(DogfightError, match="out of range"):
        acta_attack(acta_unit("hornet"), "Photon-F", acta_unit("mantis"), ACTA, range_inches=7)


@pytest.mark.parametrize("bad", [math.nan, -1.0])
def test_a_range_that_is_no_distance_is_refused(bad: float) -> None:
    # nan compares false with every range: it would pass as in range and give odds.
    with pytest.raises(DogfightError, match="--range must be a distance"):
        acta_attack(acta_unit("wasp"), "Phaser-3F", acta_unit("zul"), ACTA, range_inches=bad)
    with pytest.raises(DogfightError, match="--range must be a distance"):
        evo_attack(
            evo_unit("frazi"), "Twin particle guns", evo_unit("razik"), EVO, range_inches=bad
        )


def plain_evo(uid: str, dice: int = 1, models: int = 1) -> Any:
    """An EVO flight type: Target 4, Save 5, Kill 6, no Dodge, one d6 gun."""
    spec = UnitSpec(
        id=uid,
        name=uid,
        power="Test",
        agility=4,
        target=4,
        save=5,
        kill=6,
        models=models,
        weapons=[WeaponSpec(name="Gun", range=12, dice=dice)],
    )
    return build_unit(spec, "test")


def test_evo_one_die_by_hand() -> None:
    """EVO-SHT-3/DMG-1/DMG-2/SIX-1: Target 4+, Save 5+, Kill 6, one d6: 1/6 + (2/6)(4/6)
    = 14/36; with the +1 on the six, 2/6 + (2/6)(4/6) = 20/36."""
    gun, target = plain_evo("gunner"), plain_evo("plain")
    assert evo_attack(gun, "Gun", target, EVO).odds[1] == Fraction(14, 36)
    assert evo_attack(gun, "Gun", target, EVO, six=True).odds[1] == Fraction(20, 36)
    # Two dice at one model: it survives both.
    two = evo_attack(gun, "Gun", target, EVO, firers=2)
    assert two.odds[0] == Fraction(22, 36) ** 2


def test_evo_stealth_and_six_limits() -> None:
    """EVO-STL-1: the Nial's stealth Target 6 applies beyond close range (10")."""
    nial = evo_unit("nial")
    near = evo_attack(nial, "Triple fusion cannon", nial, EVO, range_inches=10)
    far = evo_attack(nial, "Triple fusion cannon", nial, EVO, range_inches=12)
    assert (near.facts["target"], far.facts["target"]) == (4, 6)
    assert far.expected < near.expected
    with pytest.raises(DogfightError, match="close range"):
        evo_attack(nial, "Triple fusion cannon", nial, EVO, range_inches=12, six=True)


def test_sfa_pool_by_hand() -> None:
    """One d10 at difficulty 6: half succeed, a 1 botches; a Willpower success adds one."""
    one = sfa_pool(1)
    assert one.net == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert one.botch == Fraction(1, 10)
    will = sfa_pool(1, willpower=True)
    assert will.net == {1: Fraction(1, 2), 2: Fraction(1, 2)}
    assert will.botch == 0


def test_bad_rule_refused() -> None:
    with pytest.raises(OptionError, match="unknown rule option"):
        rule_options("acta", {"no_such": "1"})
    with pytest.raises(OptionError, match="dogfight_tie"):
        rule_options("acta", {"dogfight_tie": "sometimes"})


# ---- Monte Carlo through the engine ----------------------------------------------------


def acta_game(
    *units: tuple[int, str, float, float, float, str, dict[str, Any]],
    options: dict[str, Any] | None = None,
) -> Game:
    sides = []
    for index, name in enumerate(("Empire", "Klingon")):
        roster = [
            {"type": t, "at": [x, y], "heading": h, "id": uid, **extra}
            for side, t, x, y, h, uid, extra in units
            if side == index
        ]
        sides.append({"name": name, "initiative": 0, "units": roster})
    raw = {
        "name": "test",
        "ruleset": "acta",
        "title": "odds",
        "table": {"width": 36, "height": 36},
        "turn_limit": 8,
        "sides": sides,
        "options": options or {},
    }
    return Game(scenario_from_raw(raw, "test"), seed=0)


def test_dogfight_agrees_with_the_engine() -> None:
    """fight_one: a Zaresh with dogfight drones and one supporter v a Hummingbird."""
    odds = acta_dogfight(
        acta_unit("zaresh"),
        acta_unit("hummingbird"),
        ACTA,
        attacker_drones=True,
        attacker_support=1,
    )
    game = acta_game(
        (0, "hummingbird", 10, 10, 0, "H", {}),
        (1, "zaresh", 11, 10, 180, "Z", {"dogfight_drones": True}),
    )
    state = game.state
    hummingbird, zaresh = state.units["H"], state.units["Z"]
    dice = seeded(515)
    wins = ties = 0
    for _ in range(TRIALS):
        fight_one(ActaCtx(state, state.options, EventLog(dice)), zaresh, hummingbird, 1, 0)
        if "H" not in state.units:
            wins += 1
            state.units["H"] = hummingbird
        elif "Z" not in state.units:
            state.units["Z"] = zaresh
        else:
            ties += 1
        state.destroyed.clear()
    within_three_standard_errors(wins, TRIALS, odds.attacker_wins, "wins")
    within_three_standard_errors(ties, TRIALS, odds.tie, "ties")


@pytest.mark.parametrize(
    ("firer", "weapon", "ship", "rules"),
    [
        ("tiger", "Photon Torpedo", "kavrik", {}),
        ("kavrik", "Phaser-2", "mantis", {"resolution": "b5"}),
    ],
    ids=["sf-shields", "b5-interceptors"],
)
def test_ship_attack_agrees_with_the_engine(
    firer: str, weapon: str, ship: str, rules: dict[str, Any]
) -> None:
    """resolve_fire, 6" away. ACTA:SF: three Photon Torpedoes (Multihit 2) at shields 6:
    natural-6 bypass, hull dice, shield criticals, destruction. B5: two Precise Phaser-2
    dice at Hull 4 against two Interceptor dice (2+, then 3+...)."""
    exact = acta_attack(
        acta_unit(firer), weapon, acta_unit(ship), rule_options("acta", rules), range_inches=6
    )
    game = acta_game((0, firer, 10, 18, 0, "F", {}), (1, ship, 16, 18, 180, "S", {}), options=rules)
    state = game.state
    shooter, pristine = state.units["F"], state.units["S"]
    assert measure(state, shooter, pristine) == pytest.approx(6)
    gun = next(w for w in state.unit_type(shooter).weapons if w.name == weapon)
    dice = seeded(2024)
    dealt: Counter[int] = Counter()
    for _ in range(TRIALS):
        target = copy.deepcopy(pristine)
        state.units["S"] = target
        resolve_fire(ActaCtx(state, state.options, EventLog(dice)), shooter, gun, target)
        dealt[min(pristine.damage, pristine.damage - target.damage)] += 1
        state.destroyed.clear()
    agrees(dealt, TRIALS, exact.odds, "damage")


def test_evo_attack_agrees_with_the_engine() -> None:
    """allocate + resolve_die as a Shoot uses them: three Nials (3 dice each) at three
    Nials 12" away: stealth Target 6, Dodge 5+ against Kills, Save 5+, spread dice."""
    spread = rule_options("evo", {"free_allocation": "spread"})  # allocate's fixed rule
    exact = evo_attack(
        evo_unit("nial"), "Triple fusion cannon", evo_unit("nial"), spread, range_inches=12
    )
    raw = {
        "name": "test",
        "ruleset": "evo",
        "title": "odds",
        "table": {"width": 48, "height": 48},
        "turn_limit": 6,
        "first": "Blue",
        "sides": [
            {
                "name": "Blue",
                "units": [
                    {
                        "id": "F",
                        "type": "nial",
                        "at": [10, 22],
                        "heading": 0,
                        "models_at": [[10, 22], [10, 20], [10, 24]],
                    }
                ],
            },
            {
                "name": "Red",
                "units": [
                    {
                        "id": "T",
                        "type": "nial",
                        "at": [22, 22],
                        "heading": 180,
                        "models_at": [[22, 22], [22, 20], [22, 24]],
                    }
                ],
            },
        ],
        "options": {},
    }
    game = Game(scenario_from_raw(raw, "test"), seed=0)
    state = game.state
    firing = state.flights["F"]
    firers = [state.models[m] for m in firing.models]
    target = state.models[state.flights["T"].models[0]]
    weapon = state.types["nial"].weapons[0]
    guns = [(weapon, m) for m in firers]
    dice = seeded(77)
    ctx = EvoCtx(state, state.options, EventLog(dice))
    assert target_score(ctx, target, firers) == 6
    removed: Counter[int] = Counter()
    for _ in range(TRIALS):
        count = 0
        for alloc in allocate(ctx, firing, target, firers, guns):
            six = on_my_six(ctx, alloc.model, firers)
            for face, ap in alloc.dice:
                if resolve_die(ctx, alloc.model, face, ap, firers, six) in ("kill", "failed"):
                    count += 1
                    break
        removed[count] += 1
        dice.take()
        ctx.log.events.clear()
    agrees(removed, TRIALS, exact.odds, "removed")


def test_sfa_pool_agrees_with_the_engine() -> None:
    """roll_pool: six d10s, net successes and botches."""
    exact = sfa_pool(6)
    dice = seeded(6)
    nets: Counter[int] = Counter()
    botches = 0
    for _ in range(TRIALS):
        result = roll_pool(dice, 6)
        dice.take()
        nets[result.net] += 1
        botches += result.botch
    agrees(nets, TRIALS, exact.net, "net")
    within_three_standard_errors(botches, TRIALS, exact.botch, "botch")


# ---- the commands ----------------------------------------------------------------------

runner = CliRunner()


def one_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def fails(*args: str) -> str:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def test_cli_acta_dogfight() -> None:
    data = one_json("acta", "dogfight", "zaresh", "hummingbird")
    assert data["fractions"] == {"attacker_wins": "1/6", "defender_wins": "13/18", "tie": "1/9"}
    assert data["attacker_wins"] + data["defender_wins"] + data["tie"] == pytest.approx(1)
    reroll = one_json(
        "acta", "dogfight", "hummingbird", "zaresh", "--rule", "dogfight_tie=reroll",
        "--attacker-support", "1", "--defender-drones",
    )  # fmt: skip
    assert reroll["tie"] == 0 and reroll["options"] == {"dogfight_tie": "reroll"}
    assert reroll["attacker_bonus"] == 4 and reroll["defender_bonus"] == 3
    table = runner.invoke(app, ["odds", "acta", "dogfight", "zaresh", "hummingbird"])
    assert table.exit_code == 0 and "1/6" in table.stdout and "tie" in table.stdout


def test_cli_acta_attack() -> None:
    data = one_json("acta", "attack", "hornet", "Photon-F", "mantis", "--range", "3")
    assert set(data) >= {"damage", "expected", "fractions", "notes"}
    assert sum(data["damage"].values()) == pytest.approx(1)
    assert data["fractions"]["damage"]["2"] == "25/216"
    assert data["expected"] == pytest.approx(60 / 216)
    still = one_json("acta", "attack", "dragonfly", "Phaser-3F", "zaresh", "--not-moved")
    assert still["fractions"]["damage"] == {"0": "2/3", "1": "1/3"}
    b5 = one_json("acta", "attack", "tiger", "Photon Torpedo", "kavrik", "--rule", "resolution=b5")
    assert sum(b5["damage"].values()) == pytest.approx(1)
    table = runner.invoke(app, ["odds", "acta", "attack", "hornet", "Photon-F", "mantis"])
    assert table.exit_code == 0 and "Expected" in table.stdout


def test_cli_evo_attack() -> None:
    data = one_json("evo", "attack", "nial", "Triple fusion cannon", "sentri", "--range", "12")
    assert set(data) >= {"removed", "expected", "fractions", "notes"}
    assert set(data["removed"]) == {"0", "1", "2", "3"}
    assert sum(data["removed"].values()) == pytest.approx(1)
    six = one_json(
        "evo", "attack", "razik", "Light particle gun", "sentri", "--six", "--models", "2"
    )
    assert set(six["removed"]) <= {"0", "1", "2"}
    assert sum(six["removed"].values()) == pytest.approx(1)


def test_cli_sfa_pool() -> None:
    data = one_json("sfa", "pool", "7")
    assert set(data) >= {"net_successes", "botch"}
    assert sum(data["net_successes"].values()) == pytest.approx(1)
    assert data["fractions"]["botch"] == "21851/625000"
    will = one_json("sfa", "pool", "3", "--willpower")
    assert will["botch"] == 0 and "0" not in will["net_successes"]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("acta", "dogfight", "zaresh", "nobody"), "no acta unit 'nobody'"),
        (("acta", "attack", "hornet", "Laser", "mantis"), "no weapon 'Laser'"),
        (("acta", "attack", "hornet", "Photon-F", "mantis", "--range", "9"), "out of range"),
        (("evo", "attack", "nial", "Gun", "sentri"), "no weapon 'Gun'"),
        (("evo", "attack", "nobody", "Gun", "sentri"), "no evo unit 'nobody'"),
        (("acta", "dogfight", "zaresh", "wasp", "--rule", "nope=1"), "unknown rule option 'nope'"),
        (("evo", "attack", "nial", "Triple fusion cannon", "sentri", "--rule", "close_range=x"),
         "close_range"),
        (("sfa", "pool", "5", "--rule", "bogus=1"), "unknown rule option 'bogus'"),
        (("sfa", "pool", "5", "--difficulty", "11"), "difficulty"),
    ],
)  # fmt: skip
def test_cli_errors_are_one_line(args: tuple[str, ...], named: str) -> None:
    assert named in fails(*args)
