"""The acta heuristic player: exact dice odds, sensible single decisions, and its record
against the random player."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from dogfight.ai import RandomPlayer, make_player
from dogfight.core import Game, load_scenario, play
from dogfight.core.scenario import scenario_from_raw
from dogfight.core.seat import Seat
from dogfight.rulesets.acta import actions as A
from dogfight.rulesets.acta.heuristic import ActaHeuristic, duel, hits_summary

SIDES = ("Empire", "Klingon")


# ---- helpers ----------------------------------------------------------------------


def position(*units: tuple[int, str, str, float, float], **extra: Any) -> Game:
    """A small furball-style battle: (side index, id, type, x, y) per unit."""
    sides = []
    for index, name in enumerate(SIDES):
        roster = []
        for side, uid, utype, x, y in units:
            if side == index:
                entry: dict[str, Any] = {"id": uid, "type": utype, "at": [x, y]}
                entry["heading"] = 0 if index == 0 else 180
                if utype in ("zaresh", "zul", "zketh"):
                    entry["dogfight_drones"] = extra.get("drones", {}).get(uid, False)
                roster.append(entry)
        bonus = extra.get("initiative", (0, 0))[index]
        sides.append({"name": name, "initiative": bonus, "units": roster})
    raw = {
        "name": "test",
        "ruleset": "acta",
        "title": "heuristic test position",
        "table": {"width": 36, "height": 36},
        "turn_limit": 8,
        "sides": sides,
    }
    return Game(scenario_from_raw(raw, "test"), seed=extra.get("seed", 0))


def decisions(
    game: Game, player: ActaHeuristic, rng: random.Random, until: Callable[[Game], bool]
) -> None:
    """Let the heuristic play both sides until `until(game)` or the game ends."""
    while not game.is_over() and not until(game):
        legal = game.legal_actions()
        game.apply(player.decide(Seat.of(game), legal, rng))


class Checked:
    """Wraps the heuristic: every answer must be one of the legal actions offered."""

    def __init__(self) -> None:
        self.player = ActaHeuristic(strict=True)
        self.count = 0

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        action = self.player.decide(seat, legal, rng)
        assert action in legal, f"{action} is not among the legal actions"
        self.count += 1
        return action


def heuristic_wins(scenario_name: str, games: int) -> dict[str, int]:
    """Wins of the heuristic against the random player, playing each side in turn."""
    scenario = load_scenario(scenario_name)
    wins = dict.fromkeys(SIDES, 0)
    for i in range(games):
        game = Game(scenario, seed=i)
        sides = game.state.sides
        me = sides[i % 2]
        players: dict[str, Any] = {
            s: (ActaHeuristic() if s == me else RandomPlayer()) for s in sides
        }
        play(game, players, random.Random(i))
        outcome = game.outcome()
        assert outcome is not None
        if outcome.winner == me:
            wins[me] += 1
    return wins


# ---- exact odds -------------------------------------------------------------------


def test_duel_odds_are_exact() -> None:
    for diff in range(-7, 8):
        win = sum(1 for a in range(1, 7) for b in range(1, 7) if a + diff > b)
        lose = sum(1 for a in range(1, 7) for b in range(1, 7) if a + diff < b)
        assert duel(diff) == (win / 36, lose / 36)
    assert duel(0) == (15 / 36, 15 / 36)
    assert duel(2) == (26 / 36, 6 / 36)
    decided = duel(1, reroll_ties=True)
    assert sum(decided) == pytest.approx(1.0)
    assert decided[0] == pytest.approx(21 / 31)


def test_hits_summary_matches_enumeration() -> None:
    # Two dice at 1/2 and one at 1/3: P(at least 2 hits) and E[min(hits, 2)].
    kill, capped = hits_summary(((2, 0.5), (1, 1 / 3)), 2)
    outcomes = [
        (a + b + c, pa * pb * pc)
        for a, pa in ((0, 0.5), (1, 0.5))
        for b, pb in ((0, 0.5), (1, 0.5))
        for c, pc in ((0, 2 / 3), (1, 1 / 3))
    ]
    assert kill == pytest.approx(sum(p for hits, p in outcomes if hits >= 2))
    assert capped == pytest.approx(sum(min(hits, 2) * p for hits, p in outcomes))


# ---- single decisions -------------------------------------------------------------


def test_dogfights_with_good_odds_and_supports_with_bad() -> None:
    # A Hummingbird (+3) locked with a Zaresh (+1): the Empire should attack. The
    # Klingon may not hang back: with no dogfight to support, its Zaresh must attack
    # (ACTA-DOG-3), so that is the only role it is offered.
    game = position((0, "E-F1", "hummingbird", 10, 10), (1, "K-F1", "zaresh", 11, 10))
    player = ActaHeuristic(strict=True)
    rng = random.Random(1)
    seen: dict[str, Any] = {}
    for _ in range(200):
        if game.is_over() or len(seen) == 2:
            break
        legal = game.legal_actions()
        action = player.decide(Seat.of(game), legal, rng)
        if any(isinstance(a, A.Dogfight) for a in legal):
            seen[game.current_player() or ""] = action
        game.apply(action)
    assert seen, "no dogfight was offered"
    if "Empire" in seen:
        assert seen["Empire"] == A.Dogfight(unit="E-F1", enemy="K-F1")
    if "Klingon" in seen:
        assert seen["Klingon"] == A.Dogfight(unit="K-F1", enemy="E-F1")


def test_picks_the_favourable_dogfight_from_a_list() -> None:
    # A Hummingbird (+3) touches a Zul with dogfight drones (+4) and a Zaresh (+1);
    # whichever it attacks, the other may support the defence (+1). It attacks the
    # Zaresh (+3 v +2), not the Zul (+3 v +5). The Empire always wins the initiative,
    # so it nominates first.
    game = position(
        (0, "E-F1", "hummingbird", 10, 10),
        (1, "K-F1", "zaresh", 11, 10),
        (1, "K-F2", "zul", 9, 10),
        drones={"K-F2": True},
        initiative=(10, 0),
    )
    player = ActaHeuristic(strict=True)
    rng = random.Random(3)
    decisions(
        game,
        player,
        rng,
        lambda g: g.current_player() == "Empire" and g.state.phase == "fighter_attack",
    )
    assert not game.is_over()
    legal = game.legal_actions()
    assert A.Dogfight(unit="E-F1", enemy="K-F1") in legal
    assert A.Dogfight(unit="E-F1", enemy="K-F2") in legal
    assert player.decide(Seat.of(game), legal, rng) == A.Dogfight(unit="E-F1", enemy="K-F1")


def test_moves_fighters_last_when_it_has_the_initiative() -> None:
    game = Game(load_scenario("furball"), seed=0)
    player = ActaHeuristic(strict=True)
    rng = random.Random(0)
    decisions(game, player, rng, lambda g: g.state.phase == "fighter_order")
    assert game.state.phase == "fighter_order"
    winner = game.current_player()
    assert winner == game.state.initiative
    choice = player.decide(Seat.of(game), game.legal_actions(), rng)
    assert choice == A.FighterOrder(first=game.state.other(winner))


def test_takes_dogfight_drones_against_many_fighters() -> None:
    game = Game(load_scenario("furball"), seed=0)
    assert game.state.phase == "setup" and game.current_player() == "Klingon"
    legal = game.legal_actions()
    choice = ActaHeuristic(strict=True).decide(Seat.of(game), legal, random.Random(0))
    assert choice.swap, "against four fighters the Klingons should swap for dogfight drones"


def test_launches_whenever_it_can() -> None:
    game = Game(load_scenario("carrier-strike"), seed=2)
    checked = Checked()
    rng = random.Random(2)
    launches = 0
    while not game.is_over() and game.state.turn <= 3:
        legal = game.legal_actions()
        action = checked.decide(Seat.of(game), legal, rng)
        if game.state.phase == "launch":
            offered = [a for a in legal if isinstance(a, A.Launch) and a.fighter]
            if offered:
                assert action.fighter, "a carrier with a fighter to launch passed"
                launches += 1
        game.apply(action)
    assert launches >= 4


@pytest.mark.parametrize("name", ["furball", "carrier-strike", "escort-mission"])
def test_always_answers_with_a_legal_action(name: str) -> None:
    scenario = load_scenario(name)
    for seed in range(3):
        game = Game(scenario, seed=seed)
        checked = Checked()
        players: dict[str, Any] = {s: checked for s in game.state.sides}
        play(game, players, random.Random(seed))
        assert game.is_over()
        assert checked.player.fallbacks == 0
        assert checked.count > 0


def test_falls_back_to_a_legal_action_on_a_broken_position() -> None:
    game = Game(load_scenario("furball"), seed=0)
    legal = game.legal_actions()
    game.state.units.clear()  # nonsense the scorer cannot work with
    player = ActaHeuristic()
    assert player.decide(Seat.of(game), legal, random.Random(0)) in legal


def test_is_deterministic_given_the_rng() -> None:
    def actions(seed: int) -> list[Any]:
        game = Game(load_scenario("furball"), seed=seed)
        players: dict[str, Any] = {
            "Empire": ActaHeuristic(),
            "Klingon": RandomPlayer(),
        }
        play(game, players, random.Random(seed))
        return list(game.actions)

    assert actions(5) == actions(5)


def test_is_the_heuristic_player_kind() -> None:
    assert isinstance(make_player("heuristic", "acta"), ActaHeuristic)


# ---- against the random player -------------------------------------------------------

FURBALL_GAMES = 200
FURBALL_FLOOR = 170
"""A floor well under what it reaches (191 of these 200; 569 of 600 other seeds)."""
FURBALL_TARGET = 180
"""The 90% the heuristic was asked for."""


@cache
def furball_record() -> dict[str, int]:
    """200 seeded battles, 100 on each side: game seed i, the players' generator seeded i."""
    return heuristic_wins("furball", FURBALL_GAMES)


@pytest.mark.slow
def test_beats_the_random_player_in_furball() -> None:
    wins = furball_record()
    assert sum(wins.values()) >= FURBALL_FLOOR, wins
    assert min(wins.values()) >= FURBALL_FLOOR // 2 - 5, wins  # on both sides


@pytest.mark.slow
def test_wins_ninety_percent_of_furballs() -> None:
    wins = furball_record()
    assert sum(wins.values()) >= FURBALL_TARGET, wins
