"""The acta heuristic plays the seed's tactics (issue 14): positions built by hand, and
the decision checked. Escorts stay on a threatened carrier (ACTA-SUP-1, -4, -6), only
damaged fighters go home (ACTA-LCH-3), fighters close on a distant enemy (ACTA-FTR-2),
a frigate keeps with its carrier; `weigh` explains the same choice `decide` makes, and
the personas change the decisions they should."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dogfight.ai import make_player
from dogfight.core import Game, load_scenario
from dogfight.core.errors import DataError
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.rulesets.acta import actions as A
from dogfight.rulesets.acta.heuristic import ActaHeuristic
from dogfight.rulesets.acta.movement import ship_path
from dogfight.rulesets.acta.personas import DEFAULT, PERSONAS, load_weights, persona
from dogfight.rulesets.acta.state import ActaState

SIDES = ("Empire", "Klingon")


def battle(
    empire: list[dict[str, Any]],
    klingon: list[dict[str, Any]],
    seed: int = 0,
    bonus: int = 0,
    turns: int = 8,
) -> Game:
    """A 48x36" battle of the units given, written as scenario entries (`bonus`: the
    Empire's initiative bonus; `turns`: the turn limit)."""
    raw = {
        "name": "test",
        "ruleset": "acta",
        "title": "heuristic tactics position",
        "table": {"width": 48, "height": 36},
        "turn_limit": turns,
        "sides": [
            {"name": "Empire", "initiative": bonus, "units": empire},
            {"name": "Klingon", "initiative": 0, "units": klingon},
        ],
    }
    return Game(scenario_from_raw(raw, "test"), seed=seed)


def state_of(game: Game) -> ActaState:
    state = game.state
    assert isinstance(state, ActaState)
    return state


def play_until(game: Game, player: Any, rng: random.Random, until: Callable[[Game], bool]) -> None:
    """The player plays both sides until `until(game)` (or the game ends)."""
    while not game.is_over() and not until(game):
        game.apply(player.decide(Seat.of(game), game.legal_actions(), rng))


def empire_moves_fighter(game: Game) -> bool:
    return state_of(game).phase == "fighter_move" and game.current_player() == "Empire"


KLINGON_STRIKE = [
    {"id": f"K-F{i}", "type": "zaresh", "at": [24, 12 + 4 * i], "heading": 180} for i in range(1, 5)
]


def test_escorts_stay_on_their_carrier_when_enemy_fighters_threaten_it() -> None:
    # ACTA-SUP-1, -4, -6: three fighters on the carrier's base guard it against four
    # Zaresh 14" away; none flies off to fight or to hide.
    escorts = [("E-F1", "hummingbird", 10.8, 18), ("E-F2", "hummingbird", 10, 18.8)]
    escorts.append(("E-F3", "wasp", 10, 17.2))
    game = battle(
        [
            {"id": "E-CV1", "type": "crane", "at": [10, 18], "heading": 0},
            *(
                {"id": uid, "type": t, "at": [x, y], "heading": 0, "supporting": "E-CV1"}
                for uid, t, x, y in escorts
            ),
        ],
        KLINGON_STRIKE,
    )
    player = ActaHeuristic(strict=True)
    rng = random.Random(0)
    play_until(game, player, rng, empire_moves_fighter)
    play_until(game, player, rng, lambda g: not empire_moves_fighter(g))
    state = state_of(game)
    assert [state.units[uid].supporting for uid, *_ in escorts] == ["E-CV1"] * 3


def test_a_damaged_fighter_is_recovered_and_an_undamaged_one_is_not() -> None:
    # ACTA-LCH-3: both Wasps can reach the carrier in this last turn, the enemy far
    # off; only the damaged one goes aboard. The undamaged one is worth as much on the
    # table, and taken aboard it would only sit out turns to be launched again.
    game = battle(
        [
            {"id": "E-CV1", "type": "crane", "at": [10, 18], "heading": 0},
            {"id": "E-F1", "type": "wasp", "at": [14, 14], "heading": 0},
            {"id": "E-F2", "type": "wasp", "at": [14, 22], "heading": 0},
        ],
        [{"id": "K-F1", "type": "zaresh", "at": [44, 18], "heading": 180}],
        turns=1,
    )
    state_of(game).units["E-F1"].damage = 1  # one of its two points is gone
    player = ActaHeuristic(strict=True)
    rng = random.Random(0)
    play_until(game, player, rng, empire_moves_fighter)
    legal = game.legal_actions()
    for uid, wanted in (("E-F1", True), ("E-F2", False)):
        own = [a for a in legal if getattr(a, "unit", "") == uid]
        assert A.Recover(unit=uid, ship="E-CV1") in own
        choice = player.decide(Seat.of(game), own, rng)
        assert isinstance(choice, A.Recover) == wanted, f"{uid}: {choice}"


def test_a_fighter_out_of_reach_closes_on_the_enemy() -> None:
    # ACTA-FTR-2: nothing can reach either fighter this turn; the Wasp closes rather
    # than holding where it is (or running for the table edge).
    game = battle(
        [{"id": "E-F1", "type": "wasp", "at": [4, 18], "heading": 0}],
        [{"id": "K-F1", "type": "zaresh", "at": [44, 18], "heading": 180}],
    )
    player = ActaHeuristic(strict=True)
    rng = random.Random(0)
    play_until(game, player, rng, empire_moves_fighter)
    choice = player.decide(Seat.of(game), game.legal_actions(), rng)
    assert isinstance(choice, A.MoveFighter)
    assert choice.x > 4 + 5, f"the Wasp did not close: {choice}"


def test_the_frigate_keeps_with_its_carrier_rather_than_charging_alone() -> None:
    # In escort-mission the frigate used to charge the Klingon fighters and die in
    # turn 2; now its move ends within reach of the carrier it escorts.
    game = Game(load_scenario("escort-mission"), seed=2)
    player = ActaHeuristic(strict=True)
    rng = random.Random(2)
    play_until(
        game,
        player,
        rng,
        lambda g: any(isinstance(a, A.MoveShip) and a.unit == "E-FF1" for a in g.legal_actions()),
    )
    state = state_of(game)
    moves = [a for a in game.legal_actions() if isinstance(a, A.MoveShip) and a.unit == "E-FF1"]
    choice = player.decide(Seat.of(game), moves, rng)
    frigate = state.units["E-FF1"]
    _, end, problem = ship_path(state, frigate, choice.legs, False, game.ruleset.rules)  # type: ignore[attr-defined]
    assert not problem
    carrier = state.units["E-CV1"].pose.position
    assert end.position.distance(carrier) <= 10.0, f"the frigate ran off alone: {choice}"


# ---- weigh ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["furball", "escort-mission"])
def test_weigh_puts_first_what_decide_chooses_with_reasons(name: str) -> None:
    game = Game(load_scenario(name), seed=3)
    deciding, weighing = ActaHeuristic(strict=True), ActaHeuristic(strict=True)
    first, second = random.Random(7), random.Random(7)
    reasons: dict[type, str] = {}
    while not game.is_over():
        legal = game.legal_actions()
        weighed = weighing.weigh(Seat.of(game), legal, second)
        action = deciding.decide(Seat.of(game), legal, first)
        assert weighed[0].action == action
        scores = [w.score for w in weighed[1:]]
        assert scores == sorted(scores, reverse=True)
        assert all(w.action in legal and w.reason for w in weighed)
        reasons.setdefault(type(action), weighed[0].reason)
        game.apply(action)
    assert A.MoveFighter in reasons
    assert A.Fire in reasons or A.Dogfight in reasons
    if A.Fire in reasons:
        assert "damage worth expected" in reasons[A.Fire]
    if A.Dogfight in reasons:
        assert "% to win the dogfight" in reasons[A.Dogfight]


def test_weigh_gives_the_dogfight_odds_of_each_attack() -> None:
    # A Hummingbird (+3) against a Zaresh that took dogfight drones (+1 +2, ACTA-FTR-9),
    # touching: d6+3 against d6+3 wins 15 of 36 and loses 15 (ACTA-DOG-5). The Empire
    # always wins the initiative, so it nominates first (ACTA-FTR-7).
    game = battle(
        [{"id": "E-F1", "type": "hummingbird", "at": [10, 10], "heading": 0}],
        [{"id": "K-F1", "type": "zaresh", "at": [11, 10], "heading": 180}],
        bonus=10,
    )
    player = ActaHeuristic(strict=True)
    rng = random.Random(1)
    play_until(
        game,
        player,
        rng,
        lambda g: any(isinstance(a, A.Dogfight) and a.unit == "E-F1" for a in g.legal_actions()),
    )
    assert state_of(game).units["K-F1"].dogfight_drones
    weighed = player.weigh(Seat.of(game), game.legal_actions(), rng)
    attack = next(w for w in weighed if isinstance(w.action, A.Dogfight))
    assert attack.reason == "attack K-F1: 42% to win the dogfight, 42% to lose it"


# ---- personas ------------------------------------------------------------------------


def test_the_personas_are_player_kinds_with_their_own_weights() -> None:
    aggressive, cautious = persona("aggressive"), persona("cautious")
    assert aggressive.approach > DEFAULT.approach > cautious.approach
    assert aggressive.caution < DEFAULT.caution < cautious.caution
    player = make_player("heuristic:aggressive", "acta")
    assert isinstance(player, ActaHeuristic)
    assert player.weights == aggressive and player.name == "heuristic:aggressive"
    assert isinstance(make_player("heuristic:cautious", "acta"), ActaHeuristic)
    kinds = set(find_ruleset("acta").players())
    assert kinds == {"heuristic", *(f"heuristic:{name}" for name in PERSONAS)}


def test_the_aggressive_persona_closes_where_the_plain_heuristic_withdraws() -> None:
    # Furball turn 1, the Empire moving first: the plain heuristic pulls its Hummingbird
    # back out of the Klingons' reach; the aggressive one goes for them.
    game = Game(load_scenario("furball"), seed=1)
    rng = random.Random(1)
    play_until(game, ActaHeuristic(strict=True), rng, empire_moves_fighter)
    legal = game.legal_actions()
    plain = ActaHeuristic(strict=True).decide(Seat.of(game), legal, random.Random(0))
    bold = ActaHeuristic(strict=True, weights=persona("aggressive")).decide(
        Seat.of(game), legal, random.Random(0)
    )
    start = state_of(game).units[bold.unit].pose.position.x
    assert plain.x < start, "the plain heuristic no longer withdraws here"
    assert bold.x > start + 5, f"the aggressive persona did not close: {bold}"


def test_the_cautious_persona_keeps_out_of_a_fight_the_plain_heuristic_takes() -> None:
    # A Wasp (+2) 10" from a Zaresh without dogfight drones (+1), the Wasp moving
    # first: the plain heuristic goes for it; the cautious one stays out of its reach.
    game = battle(
        [{"id": "E-F1", "type": "wasp", "at": [10, 18], "heading": 0}],
        [
            {
                "id": "K-F1",
                "type": "zaresh",
                "at": [20, 14],
                "heading": 180,
                "dogfight_drones": False,
            }
        ],
        bonus=-10,
    )
    play_until(game, ActaHeuristic(strict=True), random.Random(0), empire_moves_fighter)
    legal = game.legal_actions()
    plain = ActaHeuristic(strict=True).decide(Seat.of(game), legal, random.Random(0))
    careful = ActaHeuristic(strict=True, weights=persona("cautious")).decide(
        Seat.of(game), legal, random.Random(0)
    )
    assert plain.x > 15, f"the plain heuristic no longer closes here: {plain}"
    assert careful.x < 10, f"the cautious persona closed: {careful}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("greed: 1.2\nbravery: 2\n", "field 'bravery': not a weight"),
        ("lurk: .nan\n", "field 'lurk': nan is not a finite number from 0 to 10"),
        ("approach: .inf\n", "field 'approach': inf is not a finite number"),
        ("caution: yes\n", "field 'caution': True is not a number"),
        ("escort: -1\n", "field 'escort': -1 is not a finite number from 0 to 10"),
        ("- greed\n", "a persona file is a mapping"),
    ],
)
def test_a_bad_persona_file_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bold.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_weights(path)
    assert str(path) in str(caught.value)
    assert message in str(caught.value)


def test_a_persona_file_may_leave_weights_out(tmp_path: Path) -> None:
    path = tmp_path / "greedy.yaml"
    path.write_text("# only greed\ngreed: 2\n", encoding="utf-8")
    weights = load_weights(path)
    assert weights.greed == 2.0
    assert weights.lurk == DEFAULT.lurk
