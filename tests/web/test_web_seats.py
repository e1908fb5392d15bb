"""The open route's `seats` query (SIDE:KIND,...): kinds with colons of their own."""

from __future__ import annotations

import pytest

from dogfight.web.errors import BadRequest
from dogfight.web.seats import parse_seats

SIDES = ["Empire", "Klingon"]


def test_a_persona_or_a_search_budget_keeps_its_colon() -> None:
    assert parse_seats("Klingon:heuristic:aggressive", SIDES) == {
        "Empire": "human",
        "Klingon": "heuristic:aggressive",
    }
    assert parse_seats(" Empire : search:200 ,Klingon:random", SIDES) == {
        "Empire": "search:200",
        "Klingon": "random",
    }


def test_a_side_whose_name_holds_a_colon_is_found_by_name() -> None:
    assert parse_seats("Red: Alpha:heuristic:cautious", ["Red: Alpha", "Blue"]) == {
        "Red: Alpha": "heuristic:cautious",
        "Blue": "human",
    }


@pytest.mark.parametrize("text", ["Klingon", ":random", " : "])
def test_a_part_that_is_not_side_and_kind_is_refused(text: str) -> None:
    with pytest.raises(BadRequest, match="is not SIDE:KIND"):
        parse_seats(text, SIDES)
