"""PositionMemo (core/choose.py): a scoring kept by position hands back the actions of
the list given now, in the order scored, and `pick` then draws as it did the first time."""

from __future__ import annotations

import random

import pytest

from dogfight.core import choose
from dogfight.core.choose import PositionMemo, pick


def test_a_recalled_scoring_holds_the_actions_of_the_list_given_now() -> None:
    memo = PositionMemo()
    first = ["hold", "close", "withdraw"]
    key = memo.key("Empire", {"turn": 2, "units": [1, 2]})
    memo.keep(key, first, [(0.5, first[2]), (0.9, first[0]), (0.9, first[1])])
    again = ["hold", "close", "withdraw"]  # equal actions, other objects
    recalled = memo.recall(key, again)
    assert recalled == [(0.5, "withdraw"), (0.9, "hold"), (0.9, "close")]
    assert all(any(a is b for b in again) for _, a in recalled)
    # The tie between "hold" and "close" is broken by the same draw both times.
    scored = [(0.5, first[2]), (0.9, first[0]), (0.9, first[1])]
    assert pick(recalled, random.Random(4)) == pick(scored, random.Random(4))


def test_the_key_tells_sides_and_states_apart() -> None:
    memo = PositionMemo()
    state = {"turn": 2}
    assert memo.key("Empire", state) == memo.key("Empire", {"turn": 2})
    assert memo.key("Empire", state) != memo.key("Klingon", state)
    assert memo.key("Empire", state) != memo.key("Empire", {"turn": 3})
    assert memo.recall(memo.key("Klingon", state), ["x"]) is None


def test_a_scoring_of_actions_not_in_the_list_is_not_kept() -> None:
    memo = PositionMemo()
    legal = [["move", 1], ["move", 2]]
    key = memo.key("A", 1)
    memo.keep(key, legal, [(1.0, list(legal[0]))])  # an equal copy, not the listed object
    assert memo.recall(key, legal) is None
    assert len(memo) == 0


def test_a_full_memo_starts_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(choose, "MEMO_LIMIT", 3)
    memo = PositionMemo()
    legal = ["a"]
    for n in range(3):
        memo.keep(memo.key("A", n), legal, [(0.0, legal[0])])
    assert len(memo) == 3
    memo.keep(memo.key("A", 99), legal, [(0.0, legal[0])])
    assert len(memo) == 1
    assert memo.recall(memo.key("A", 0), legal) is None
    assert memo.recall(memo.key("A", 99), legal) == [(0.0, "a")]
