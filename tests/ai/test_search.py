"""The search player (ai/search.py): it sees only its side, replays exactly, plays legal
actions, spends the budget it is given, and reads its guide's weighed candidates.

Budgets are tiny (a few simulations a decision): these tests check what the search does,
not how well; how well is measured in docs/players.md, "The search player"."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dogfight.ai import check_kind, make_player, player_kinds
from dogfight.ai.search import SearchPlayer, guide_kind, position_value
from dogfight.core.choose import PositionMemo
from dogfight.core.errors import DogfightError, UnknownName
from dogfight.core.game import Game, new_game
from dogfight.core.play import RememberingPlayer, Weighed, WeighingPlayer
from dogfight.core.seat import Seat
from dogfight.dice import seeded
from dogfight.rulesets.acta.heuristic import ActaHeuristic
from dogfight.rulesets.sfa.ruleset import secret_selections
from dogfight.sim import parse_ai_args


def advanced(scenario: str, actions: int, seed: int = 3) -> Game:
    """A game of `scenario` after `actions` heuristic decisions."""
    game = new_game(scenario, seed=seed)
    player = make_player("heuristic", game.ruleset)
    rng = random.Random(seed)
    for _ in range(actions):
        game.apply(player.decide(Seat(game), game.legal_actions(), rng))
    return game


def a_decision_with_choice(scenario: str, skip: int = 0) -> Game:
    """A game of `scenario` at a decision with several legal actions."""
    game = advanced(scenario, skip)
    player = make_player("heuristic", game.ruleset)
    rng = random.Random(5)
    while len(game.legal_actions()) < 3:
        game.apply(player.decide(Seat(game), game.legal_actions(), rng))
    return game


def test_search_is_a_kind_of_every_ruleset_and_takes_a_budget() -> None:
    for ruleset in ("acta", "evo", "sfa"):
        assert "search" in player_kinds(ruleset)
        player = make_player("search:16", ruleset)
        assert isinstance(player, SearchPlayer) and player.budget == 16
    assert make_player("SEARCH", "acta").budget is None  # type: ignore[attr-defined]
    assert isinstance(make_player("search", "acta"), WeighingPlayer)


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("search:0", "budget is a whole number of simulations from 1 to 100000"),
        ("search:lots", "budget is a whole number"),
        ("random:3", "no player kind 'random:3'"),
        ("nobody:3", "no player kind 'nobody:3'"),
    ],
)
def test_a_bad_kind_or_argument_is_refused_in_words(kind: str, message: str) -> None:
    with pytest.raises(DogfightError, match=message):
        check_kind(kind)
    with pytest.raises(DogfightError, match=message):
        parse_ai_args([f"Empire={kind}"], ["Empire", "Klingon"])


def test_the_kind_list_in_errors_shows_the_argument() -> None:
    with pytest.raises(UnknownName, match=r"known kinds: random, search\[:N\], heuristic"):
        make_player("clever", "acta")


def test_ai_arguments_accept_a_budget() -> None:
    assert parse_ai_args(["empire=Search:8"], ["Empire", "Klingon"]) == {
        "Empire": "search:8",
        "Klingon": "heuristic",
    }


def test_the_guide_is_the_heuristic_else_the_rulesets_own_kind_else_random() -> None:
    def factory() -> Any:
        return None

    assert guide_kind({"random": factory, "search": factory, "heuristic": factory}) == "heuristic"
    assert guide_kind({"random": factory, "search": factory, "greedy": factory}) == "greedy"
    assert guide_kind({"random": factory, "search": factory}) == "random"


@pytest.mark.parametrize("scenario", ["furball", "skirmish", "fighter-duel"])
def test_the_same_generator_gives_the_same_weighing(scenario: str) -> None:
    game = a_decision_with_choice(scenario)
    legal = game.legal_actions()
    first = SearchPlayer(8).weigh(Seat(game), legal, random.Random(11))
    again = SearchPlayer(8).weigh(Seat(game), legal, random.Random(11))
    assert first == again
    assert len(first) >= 2, "a budget of 8 weighs two candidates"
    assert all(isinstance(w, Weighed) and "simulation" in w.reason for w in first)


@pytest.mark.parametrize("scenario", ["furball", "skirmish", "fighter-duel"])
def test_the_decision_does_not_read_the_real_dice(scenario: str) -> None:
    """Two games alike but for their future dice: the search decides the same."""
    game = a_decision_with_choice(scenario)
    other = game.clone()
    other.dice = seeded(987654321)
    mine_dice, their_dice = game.dice.clone(), other.dice.clone()
    assert [mine_dice.roll(6) for _ in range(12)] != [their_dice.roll(6) for _ in range(12)]
    legal = game.legal_actions()
    mine = SearchPlayer(8).weigh(Seat(game), legal, random.Random(2))
    theirs = SearchPlayer(8).weigh(Seat(other), other.legal_actions(), random.Random(2))
    assert mine == theirs


def test_the_decision_does_not_read_the_other_sides_secret_selections() -> None:
    """sfa: the Aliens choose their selections after the Rebels chose theirs in secret;
    two games in which the Rebels chose differently give the Aliens the same decision."""
    game = new_game("fighter-duel", seed=4)
    heuristic = make_player("heuristic", game.ruleset)
    rng = random.Random(1)
    while game.current_player() != "Aliens":
        game.apply(heuristic.decide(Seat(game), game.legal_actions(), rng))
    state: Any = game.state
    assert secret_selections(state, "Aliens"), "the Rebels have chosen in secret"
    other = game.clone()
    other.state = game.ruleset.sample_state(game.state, "Aliens", random.Random(99))
    assert other.state.selections != state.selections, "the secret differs"
    legal = game.legal_actions()
    assert other.legal_actions() == legal
    mine = SearchPlayer(8).weigh(Seat(game, "Aliens"), legal, random.Random(6))
    theirs = SearchPlayer(8).weigh(Seat(other, "Aliens"), legal, random.Random(6))
    assert mine == theirs


@pytest.mark.parametrize("scenario", ["furball", "skirmish", "fighter-duel"])
def test_a_few_searched_decisions_are_legal(scenario: str) -> None:
    game = new_game(scenario, seed=8)
    player = SearchPlayer(8)
    rng = random.Random(3)
    for _ in range(6):
        legal = game.legal_actions()
        action = player.decide(Seat(game), legal, rng)
        assert game.is_legal(action)
        game.apply(action)


def test_the_budget_is_spent_by_sequential_halving() -> None:
    """16 simulations, 4 candidates: two rounds of 8, every candidate twice in the first,
    the better two four more times; the two dropped say so."""
    game = a_decision_with_choice("furball")
    player = SearchPlayer(16)
    seat = Seat(game)
    candidates = player.candidates(seat, game.legal_actions(), random.Random(1), 4)
    assert len(candidates) == 4
    player.halve(seat, candidates, 16, random.Random(2))
    assert sorted(c.visits for c in candidates) == [2, 2, 6, 6]
    assert sum(c.visits for c in candidates) == 16
    assert sorted(c.dropped_after for c in candidates) == [0, 0, 1, 1]


def test_a_small_budget_weighs_fewer_candidates() -> None:
    game = a_decision_with_choice("furball")
    legal = game.legal_actions()
    assert len(SearchPlayer(2).weigh(Seat(game), legal, random.Random(1))) == 1
    assert len(SearchPlayer(8).weigh(Seat(game), legal, random.Random(1))) == 2
    assert len(SearchPlayer(40).weigh(Seat(game), legal, random.Random(1))) == 4


class Weigher:
    """A guide that can show its candidates: the heuristic's choice first, then the
    other legal actions in order, each with a reason."""

    name = "weigher"

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        return self.weigh(seat, legal, rng)[0].action

    def weigh(self, seat: Seat, legal: list[Any], rng: random.Random) -> list[Weighed]:
        best = self.inner.decide(seat, legal, rng)
        rest = [a for a in legal if a != best]
        return [Weighed(best, 1.0, "closes in")] + [
            Weighed(a, 0.0, f"option {i}") for i, a in enumerate(rest)
        ]


def fighter_movement() -> Game:
    """A furball game at its first fighter move, with several fighters free to move."""
    game = new_game("furball", seed=3)
    player = make_player("heuristic", game.ruleset)
    rng = random.Random(3)
    while not any(type(a).__name__ == "MoveFighter" for a in game.legal_actions()):
        game.apply(player.decide(Seat(game), game.legal_actions(), rng))
    return game


class Scripted:
    """A guide whose ranking is a fixed list of actions, each with its place as reason."""

    name = "scripted"

    def __init__(self, ranking: list[Any]) -> None:
        self.ranking = ranking

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        return self.ranking[0]

    def weigh(self, seat: Seat, legal: list[Any], rng: random.Random) -> list[Weighed]:
        return [Weighed(a, -i, f"place {i}") for i, a in enumerate(self.ranking)]


def test_the_candidates_are_the_guides_choice_then_its_unit_then_the_side() -> None:
    """The guide ranks a move of fighter A, a move of fighter B, the side's end of
    movement and another move of A: the search weighs A's two moves first, then the
    side's choice, then B's move, each keeping the guide's words."""
    game = fighter_movement()
    legal = game.legal_actions()
    moves: dict[str, list[Any]] = {}
    for action in legal:
        if type(action).__name__ == "MoveFighter":
            moves.setdefault(action.unit, []).append(action)
    a, b = [unit for unit, found in moves.items() if len(found) >= 2][:2]
    end = next(x for x in legal if type(x).__name__ == "EndMovement")
    ranking = [moves[a][0], moves[b][0], end, moves[a][1]]
    player = SearchPlayer(40)
    player._guides[game.ruleset.name] = Scripted(ranking)
    found = player.candidates(Seat(game), legal, random.Random(1), 4)
    assert [c.action for c in found] == [moves[a][0], moves[a][1], end, moves[b][0]]
    assert [c.source for c in found] == [
        "the scripted's 1st choice: place 0",
        "the scripted's 4th choice: place 3",
        "the scripted's 3rd choice: place 2",
        "the scripted's 2nd choice: place 1",
    ]
    assert [c.rank for c in found] == [0, 1, 2, 3]
    assert len(player.candidates(Seat(game), legal, random.Random(1), 2)) == 2


@pytest.mark.parametrize(
    ("scenario", "kinds_with_unit", "kinds_of_the_side"),
    [
        (
            "carrier-strike",
            {"MoveFighter", "Fire", "Dogfight", "Launch"},
            {"EndMovement", "FighterOrder"},
        ),
        ("skirmish", {"Activate", "Manoeuvre", "Shoot", "EndActivation"}, {"ChooseOrder"}),
        ("fighter-duel", {"Select", "Move", "Resolve"}, {"Pass"}),
    ],
)
def test_every_ruleset_names_the_unit_an_action_is_for(
    scenario: str, kinds_with_unit: set[str], kinds_of_the_side: set[str]
) -> None:
    """`Ruleset.actor_of` over a heuristic game's legal actions: an action of a kind
    that names a unit gives that unit, one of the whole side gives None."""
    game = new_game(scenario, seed=2)
    player = make_player("heuristic", game.ruleset)
    rng = random.Random(2)
    seen: set[str] = set()
    for _ in range(400):
        if game.is_over():
            break
        for action in game.legal_actions():
            kind = type(action).__name__
            actor = game.ruleset.actor_of(action)
            if kind in kinds_with_unit:
                named = getattr(action, "ship", None) if kind == "Launch" else None
                named = named or getattr(action, "unit", None) or getattr(action, "actor", None)
                named = named or getattr(action, "craft", None)
                assert actor == named and actor, (kind, action)
                seen.add(kind)
            elif kind in kinds_of_the_side:
                assert actor is None, (kind, action)
                seen.add(kind)
        game.apply(player.decide(Seat(game), game.legal_actions(), rng))
    assert seen == kinds_with_unit | kinds_of_the_side


def test_a_won_game_is_worth_more_than_a_lost_one() -> None:
    game = advanced("skirmish", 0)
    while not game.is_over():
        player = make_player("heuristic", game.ruleset)
        game.apply(player.decide(Seat(game), game.legal_actions(), random.Random(1)))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is not None
    loser = next(s for s in game.sides() if s != outcome.winner)
    assert position_value(game, outcome.winner) > 1 > -1 > position_value(game, loser)


@pytest.mark.parametrize(("scenario", "skip"), [("furball", 0), ("escort-mission", 4)])
def test_the_guide_remembering_positions_changes_no_weighing(
    scenario: str, skip: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """acta's heuristic remembers the positions the playouts pass through
    (`RememberingPlayer`): the search weighs exactly as when it works each out again,
    and positions are met again (no die is rolled while fighters move)."""
    game = a_decision_with_choice(scenario, skip)
    legal = game.legal_actions()
    recalled: list[bool] = []
    real_recall = PositionMemo.recall

    def counting(self: PositionMemo, key: bytes, legal: list[Any]) -> Any:
        found = real_recall(self, key, legal)
        recalled.append(found is not None)
        return found

    monkeypatch.setattr(PositionMemo, "recall", counting)
    search = SearchPlayer(24)
    remembering = search.weigh(Seat(game), legal, random.Random(7))
    assert any(recalled), "some position of the playouts was met again"
    guide = search.guide(game.ruleset)
    assert isinstance(guide, ActaHeuristic) and guide.positions is None, "dropped after"
    assert isinstance(SearchPlayer(24).guide(game.ruleset), RememberingPlayer)
    monkeypatch.setattr(ActaHeuristic, "remember_positions", lambda self, on: None)
    recalled.clear()
    afresh = SearchPlayer(24).weigh(Seat(game), legal, random.Random(7))
    assert not recalled, "nothing remembered this time"
    assert remembering == afresh


def test_a_remembered_position_is_not_scored_again() -> None:
    game = a_decision_with_choice("furball")
    player = ActaHeuristic()
    player.remember_positions(True)
    legal = game.legal_actions()
    first = player.decide(Seat(game), legal, random.Random(3))
    calls: list[int] = []
    real_score = player.score

    def score(view: Any, legal: list[Any]) -> Any:
        calls.append(1)
        return real_score(view, legal)

    player.score = score  # type: ignore[method-assign]
    again = game.legal_actions()
    assert player.decide(Seat(game), again, random.Random(3)) == first
    assert not calls, "recalled, not scored"
    player.remember_positions(False)
    assert player.decide(Seat(game), again, random.Random(3)) == first
    assert calls == [1]
