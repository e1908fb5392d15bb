"""dogfight.rl: the PettingZoo and Gymnasium environments of every built-in scenario pass
those libraries' own checks, masks hold exactly the legal cells, seeds reproduce games,
rewards follow the outcome and the damage, and a side sees only what it may (issue 15)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import dogfight.rl as rl
from dogfight.core.errors import DataError, UnknownName
from dogfight.core.scenario import builtin_scenarios
from dogfight.rl.codec import Driver

SCENARIOS = [f"{s.ruleset}/{s.name}" for s in builtin_scenarios(None)]
FIRST = {}
for _name in SCENARIOS:
    FIRST.setdefault(_name.split("/")[0], _name)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_libraries_own_checks_pass(scenario: str) -> None:
    """api_test, seed_test and check_env, a few cycles each (cost kept low)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(rl.env(scenario), num_cycles=3)
        seed_test(lambda: rl.env(scenario), num_cycles=3)
        check_env(rl.GymEnv(scenario, opponent="random"), skip_render_check=True)


def play_randomly(env: rl.DogfightAEC, seed: int, check: bool = False) -> list[int]:
    """One battle of random masked play; with `check`, each decision's mask is checked
    against the legal actions. Returns the cells played."""
    env.reset(seed=seed)
    rng, played = random.Random(seed), []
    for _agent in env.agent_iter():
        obs, _reward, done, cut, _info = env.last()
        if done or cut:
            env.step(None)
            continue
        mask = obs["action_mask"]
        cells = np.flatnonzero(mask)
        assert len(cells), "the deciding side has no cell"
        if check:
            game = env.driver.game
            legal = game.legal_actions()
            assert {rl.encode(env, a) for a in legal} == set(cells.tolist())
            # The ruleset's quick way for a whole list numbers each action as `index`.
            encoding = env.driver.encoding
            assert encoding.cells(game.state, legal) == [rl.encode(env, a) for a in legal]
            for cell in cells:
                action = rl.decode(env, int(cell))
                assert action in legal and rl.encode(env, action) == cell
                game.check(action)
        pick = int(cells[rng.randrange(len(cells))])
        played.append(pick)
        env.step(pick)
    return played


@pytest.mark.parametrize("scenario", sorted(FIRST.values()))
def test_the_mask_is_exactly_the_cells_of_legal_actions(scenario: str) -> None:
    """1 exactly where a cell decodes to a legal action, which applies; never all zero."""
    play_randomly(rl.env(scenario), seed=5, check=True)


def test_an_unmasked_cell_holds_nothing_but_steps_to_the_nearest_legal_one() -> None:
    env = rl.env("acta/furball")
    mask = env.observe(env.agent_selection)["action_mask"]
    off = int(np.flatnonzero(mask == 0)[-1])
    with pytest.raises(ValueError, match="holds no legal action"):
        rl.decode(env, off)
    nearest = rl.decode(env, off, nearest=True)
    assert nearest in env.driver.game.legal_actions()
    env.step(off)
    assert env.driver.game.actions[-1] == nearest
    with pytest.raises(ValueError, match="outside"):
        rl.decode(env, env.driver.size)


def test_decoding_after_the_end_says_the_battle_is_over() -> None:
    env = rl.env("acta/furball")
    play_randomly(env, 3)
    with pytest.raises(ValueError, match="over"):
        rl.decode(env, 0)


def test_the_other_side_sees_an_all_zero_mask() -> None:
    env = rl.env("evo/skirmish")
    other = next(a for a in env.agents if a != env.agent_selection)
    assert not env.observe(other)["action_mask"].any()
    assert env.observe(env.agent_selection)["action_mask"].any()


@pytest.mark.parametrize("seed", [0, 12345, 2**63 + 7, 2**64 - 1])
def test_reset_with_a_seed_reproduces_the_battle(seed: int) -> None:
    env = rl.env("sfa/fighter-duel")
    first = play_randomly(env, seed)
    events = list(env.driver.game.events)
    assert play_randomly(env, seed) == first
    assert env.driver.game.events == events


def test_different_seeds_give_different_battles() -> None:
    env = rl.env("acta/furball")
    play_randomly(env, 1)
    one = list(env.driver.game.events)
    play_randomly(env, 2)
    assert env.driver.game.events != one


def test_a_bad_seed_and_reward_are_refused_clearly() -> None:
    env = rl.env("acta/furball")
    with pytest.raises(DataError, match="seed"):
        env.reset(seed=2**64)
    with pytest.raises(DataError, match="reward"):
        rl.env("acta/furball", reward="points")


def test_outcome_rewards_are_plus_and_minus_one_at_the_end() -> None:
    env = rl.env("acta/furball")
    play_randomly(env, 3)
    outcome = env.driver.game.outcome()
    assert outcome is not None
    final = env.driver.rewards()
    if outcome.winner is None:
        assert set(final.values()) == {0.0}
    else:
        assert final[outcome.winner] == 1.0
        assert sorted(final.values()) == [-1.0, 1.0]


def test_damage_rewards_add_up_to_the_losses() -> None:
    """Per-step damage dealt minus taken sums to the share of strength each side lost."""
    driver = Driver("evo/skirmish", reward="damage")
    total = dict.fromkeys(driver.sides, 0.0)
    rng = random.Random(4)
    while not driver.game.is_over():
        cells = driver.decision().cells
        for side, r in driver.play(cells[rng.randrange(len(cells))]).items():
            total[side] += r
    lost = driver._loss_fractions()
    a, b = driver.sides
    assert total[a] == pytest.approx(lost[b] - lost[a])
    assert total[a] == pytest.approx(-total[b])
    assert any(v != 0 for v in lost.values())


def test_a_secret_selection_never_shows_in_the_other_sides_observation() -> None:
    """Two different selections by one side leave the other side's vector unchanged."""
    driver = Driver("sfa/fighter-duel")
    game = driver.game
    while True:
        selects = [a for a in game.legal_actions() if type(a).__name__ == "Select"]
        kinds = {a.kind for a in selects}
        if len(kinds) > 1:
            break
        cells = driver.decision().cells
        driver.play(cells[0])
    side = game.current_player()
    other = next(s for s in driver.sides if s != side)
    seen = []
    for action in (selects[0], next(a for a in selects if a.kind != selects[0].kind)):
        copy = game.clone()
        copy.apply(action)
        if copy.current_player() != game.current_player():
            pytest.skip("the selections end the selection step differently")
        seen.append(driver.encoding.observe(copy.state, other))
    assert seen[0] == seen[1]


def test_the_gym_env_plays_against_any_player_kind() -> None:
    env = rl.GymEnv("evo/skirmish", opponent="heuristic", reward="damage")
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    done, steps = False, 0
    while not done:
        cell = int(np.flatnonzero(obs["action_mask"])[0])
        obs, _r, done, _cut, _ = env.step(cell)
        steps += 1
    assert steps > 0 and env.driver.game.is_over()
    with pytest.raises(DataError, match="side"):
        rl.GymEnv("evo/skirmish", side="Nobody")
    with pytest.raises(UnknownName, match="no player kind"):
        rl.GymEnv("evo/skirmish", opponent="grandmaster")


def test_a_ruleset_without_an_encoding_says_so() -> None:
    from dogfight.core.ruleset import Ruleset

    class Bare:
        name = "bare"

    with pytest.raises(NotImplementedError, match=r"Ruleset\.encoding"):
        Ruleset.encoding(Bare(), None)  # type: ignore[arg-type]


def test_render_ansi_describes_the_game() -> None:
    env = rl.env("acta/furball", render_mode="ansi")
    assert "furball" in (env.render() or "")
    with pytest.raises(DataError, match="render_mode"):
        rl.env("acta/furball", render_mode="rgb")


@pytest.mark.parametrize("scenario", ["sfa/tech-melee", "sfa/fighter-duel"])
def test_a_side_sees_nothing_the_rules_hide(scenario: str) -> None:
    """At every decision of a battle, each side's vector is the same on the real state
    and on a state with everything hidden from it redrawn (`Ruleset.sample_state`: the
    other side's selections, its unseen cloaked craft moved), decoys and all. In the
    duel one craft is cloaked by hand, as the issue 11 tests do."""
    driver = Driver(scenario)
    game, rules = driver.game, driver.game.ruleset
    if scenario.endswith("duel"):
        first = sorted(game.state.craft)[0]
        game.state.craft[first].cloaked = True
    rng = random.Random(2)
    compared = 0
    while not game.is_over() and len(game.actions) < 150:
        for side in driver.sides:
            drawn = rules.sample_state(game.state, side, random.Random(len(game.actions)))
            real = driver.encoding.observe(game.state, side)
            assert driver.encoding.observe(drawn, side) == real
            compared += 1
        cells = driver.decision().cells
        driver.play(cells[rng.randrange(len(cells))])
    assert compared > 20


def placeholder(cls: type, unit: str) -> object:
    """An action of type `cls` with every required field given a plain value (a unit
    id for names): legal or not, it must have a cell."""
    import typing

    import msgspec

    values: dict[str, object] = {}
    for field in msgspec.structs.fields(cls):
        if field.required:
            kind = field.type
            origin = typing.get_origin(kind) or kind
            values[field.name] = {str: unit, float: 0.0, int: 0, bool: False, tuple: ()}.get(
                origin, unit
            )
    return cls(**values)


@pytest.mark.parametrize("scenario", sorted(FIRST.values()))
def test_every_kind_of_action_has_a_cell(scenario: str) -> None:
    """Each type of the ruleset's action union, seen in play or not, gets a cell in range."""
    import typing

    env = rl.env(scenario)
    game = env.driver.game
    unit = next(iter(getattr(game.state, "units", None) or getattr(game.state, "flights",
                                                                     None) or game.state.craft))
    kinds = typing.get_args(game.ruleset.action_type)
    assert len(kinds) >= 8
    for cls in kinds:
        cell = rl.encode(env, placeholder(cls, unit))
        assert 0 <= cell < env.driver.size, cls
