"""The log rows of a view: the side an event is about, and which events are hits."""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.core.events import Event
from dogfight.dice import Roll
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
         "hit": False},
        {"seq": 1, "clause": "A-2", "text": "moves", "dice": "", "side": "Empire", "hit": False},
    ]  # fmt: skip
