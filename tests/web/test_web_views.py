"""The log rows of a view: the side an event is about, and which events are hits."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dogfight.core.events import Event
from dogfight.core.game import Game
from dogfight.core.scenario import builtin_scenarios, load_scenario
from dogfight.dice import Roll
from dogfight.web import boards, views
from dogfight.web.history import History, Step
from dogfight.web.views import is_hit, log_rows, side_of

SIDES = {"E-F1": "Empire", "K-F1": "Klingon", "W1": "Wardens", "NA-1": "Narn Regime"}


@pytest.mark.parametrize(
    ("data", "side"),
    [
        ({"winner": "Klingon"}, "Klingon"),
        ({"unit": "E-F1", "target": "K-F1"}, "Empire"),
        ({"actor": "W1#0"}, "Wardens"),
        ({"model": "NA-1.2"}, "Narn Regime"),
        ({"winner": "a draw", "attacker": "K-F1"}, "Klingon"),
        ({"unit": "X-9"}, None),
        ({"turn": 2}, None),
    ],
)
def test_side_of_an_event(data: dict[str, Any], side: str | None) -> None:
    assert side_of(Event(clause="T-1", text="", data=data), SIDES) == side


@pytest.mark.parametrize(
    ("data", "unknown"),
    [
        ({"unit": "E-F1", "target": "K-F1"}, False),
        ({"actor": "W1#0"}, False),  # a part of a known unit
        ({"model": "NA-1.2"}, False),
        ({"winner": "Klingon"}, False),
        ({"turn": 2}, False),
        ({"unit": "E-F2"}, True),  # launched since: the state must be looked at again
        ({"missile": "M4"}, True),
        ({"first": "Minbari"}, True),  # a side no known unit belongs to
    ],
)
def test_an_event_naming_an_unknown_unit_or_side_asks_for_a_new_scan(
    data: dict[str, Any], unknown: bool
) -> None:
    event = Event(clause="T-1", text="", data=data)
    assert views.names_unknown([event], SIDES) is unknown


@pytest.mark.parametrize("ruleset", ["acta", "evo", "sfa"])
def test_the_sides_noted_as_a_game_goes_give_every_event_the_side_a_scan_after_each_action_gives(
    ruleset: str,
) -> None:
    """History scans the state for units' sides only when an event names one it does
    not know; every event of random games of each built-in scenario then gets the
    side that scanning after every action would give it."""
    for scenario in builtin_scenarios(ruleset):
        separators = boards.part_separators(views.board_or_none(ruleset))
        for seed in (0, 2):
            game = Game(scenario, seed=seed)
            history = History(game)
            eager = dict(history.unit_sides)
            rng = random.Random(seed)
            while not game.is_over() and len(game.actions) < 600:
                legal = game.legal_actions()
                history.apply(game, legal[rng.randrange(len(legal))])
                eager.update(views.unit_sides_of(game))
            for event in game.events:
                assert side_of(event, history.unit_sides, separators) == side_of(
                    event, eager, separators
                ), (scenario.name, seed, event.data)


@pytest.mark.parametrize(
    ("data", "hit"),
    [
        ({"hits": 2}, True),
        ({"hits": 0}, False),
        ({"damage": 3}, True),
        ({"destroyed": True}, True),
        ({"disabled": False}, False),
        ({"allocations": {"NA-1.1": [4]}}, True),
        ({"unit": "E-F1", "distance": 10.5}, False),
    ],
)
def test_hits(data: dict[str, Any], hit: bool) -> None:
    assert is_hit(Event(clause="T-1", text="", data=data)) is hit


def test_log_rows_number_the_visible_events_and_write_the_dice() -> None:
    events = [
        Event(clause="A-1", text="rolls", rolls=(Roll(sides=6, value=4), Roll(sides=6, value=6))),
        Event(clause="A-2", text="moves", data={"unit": "E-F1"}),
    ]
    rows = log_rows(events, SIDES)
    assert rows == [
        {"seq": 0, "clause": "A-1", "text": "rolls", "dice": "d6: 4, 6", "side": None,
         "hit": False, "step": None, "by": None},
        {"seq": 1, "clause": "A-2", "text": "moves", "dice": "", "side": "Empire", "hit": False,
         "step": None, "by": None},
    ]  # fmt: skip


def test_log_rows_name_the_action_each_event_came_from_and_actors_in_words() -> None:
    events = [
        Event(clause="A-0", text="setup"),
        Event(clause="A-1", text="R1#0 moves; R1#1 waits; R1#10 stays"),
        Event(clause="A-2", text="E-F1 fires"),
    ]
    steps = [Step(side="Empire", turn=1, phase=None, rolled=False, events=2),
             Step(side="Klingon", turn=1, phase=None, rolled=False, events=3)]  # fmt: skip
    names = {"R1#0": "R1 Rebel Fighter", "R1#1": "R1 Rebel Fighter gunner 1"}
    rows = log_rows(events, SIDES, places=[0, 1, 2], steps=steps, start_events=1, names=names)
    assert [(r["step"], r["by"]) for r in rows] == [(None, None), (0, "Empire"), (1, "Klingon")]
    # whole ids only: R1#10 is not R1#1 followed by a 0
    assert rows[1]["text"] == "R1 Rebel Fighter moves; R1 Rebel Fighter gunner 1 waits; R1#10 stays"


class CountingBoard:
    """A stand-in board that counts how the view asks for its action descriptions."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def scene(self, game: Any, seat: str | None) -> dict[str, Any]:
        return {"width": 1, "height": 1, "origin": [0, 0], "unit_name": "hex",
                "shapes": [], "units": []}  # fmt: skip

    def describe(self, game: Any, action: Any) -> dict[str, Any]:
        self.calls.append("describe")
        return self.described(len(self.calls))

    def describe_all(self, game: Any, actions: list[Any]) -> list[dict[str, Any]]:
        self.calls.append("describe_all")
        return [self.described(i) for i in range(len(actions))]

    @staticmethod
    def described(number: int) -> dict[str, Any]:
        return {"kind": "k", "group": "other", "label": f"#{number}", "unit": None,
                "target": None, "dest": None, "odds": None}  # fmt: skip

    def envelopes(self, game: Any) -> dict[str, Any]:
        return {}


def test_a_view_describes_its_actions_with_one_describe_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/web-api.md: `describe_all` reads the observation once for the whole list."""
    board = CountingBoard()
    monkeypatch.setattr(views, "board_or_none", lambda ruleset: board)
    game = Game(load_scenario("acta/furball"), seed=1)
    seat = game.current_player()
    built = views.build_view(
        game, game_id="g", seat=seat, seats={seat: "human"}, step=None, can_undo=False,
        unit_sides={},
    )  # fmt: skip
    assert board.calls == ["describe_all"]
    legal = game.legal_actions()
    assert [a["index"] for a in built["actions"]] == list(range(len(legal)))
    assert [a["label"] for a in built["actions"]] == [f"#{i}" for i in range(len(legal))]


def test_a_ruleset_without_a_board_adapter_gets_the_bare_view() -> None:
    """Rulesets are plugins; one with no board must still be playable from its action
    list (a bare scene), not answer every view with 'no board'. The bare scene is the
    same for every ruleset: the web knows no ruleset's measure, so its unit is the
    docs' default."""
    assert views.board_or_none("chess") is None
    game = Game(load_scenario("sfa/fighter-duel"), seed=1)
    assert views.scene_for(None, game, None) == {
        "width": 0, "height": 0, "origin": [0, 0], "unit_name": "inch", "shapes": [],
        "units": [],
    }  # fmt: skip


class Parts:
    """A board stand-in that says how its event ids name a part of a unit."""

    def __init__(self, separators: str) -> None:
        self.part_separators = separators


@pytest.mark.parametrize(
    ("separators", "data", "side"),
    [
        ("#", {"actor": "W1#0"}, "Wardens"),
        ("#", {"model": "NA-1.2"}, None),
        (".", {"model": "NA-1.2"}, "Narn Regime"),
        (".", {"actor": "W1#0"}, None),
        ("", {"actor": "W1#0"}, None),
        ("", {"unit": "E-F1"}, "Empire"),
    ],
)
def test_the_board_says_how_an_event_names_a_part_of_a_unit(
    separators: str, data: dict[str, Any], side: str | None
) -> None:
    """The web knows no ruleset's id format: a board's `part_separators` decides which
    ids name a part of a unit (an adapter without it gets the default, '#' and '.')."""
    board = Parts(separators)
    assert boards.part_separators(board) == separators  # type: ignore[arg-type]
    event = Event(clause="T-1", text="", data=data)
    assert side_of(event, SIDES, boards.part_separators(board)) == side  # type: ignore[arg-type]
    assert log_rows([event], SIDES, separators)[0]["side"] == side


def test_an_adapter_without_part_separators_gets_the_default() -> None:
    assert boards.part_separators(None) == boards.PART_SEPARATORS == "#."
    assert boards.part_separators(CountingBoard()) == "#."  # type: ignore[arg-type]


def test_a_part_is_looked_up_under_its_nearest_owner_first() -> None:
    """A unit whose own id holds a separator ('A.B') owns 'A.B.3' before a unit 'A'."""
    sides = {"A": "first", "A.B": "second"}
    assert side_of(Event(clause="T-1", text="", data={"model": "A.B.3"}), sides) == "second"
    assert side_of(Event(clause="T-1", text="", data={"model": "A.9"}), sides) == "first"
    assert views.owners("A.B.3", "#.") == ["A.B", "A"]
