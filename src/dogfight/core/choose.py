"""Choosing among scored actions: shared by every ruleset's computer players."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import msgspec

TIE = 1e-9
"""Scores this close to the best count as equal to it."""


def pick(scored: Iterable[tuple[float, Any]], rng: random.Random) -> Any:
    """The best-scoring action; among equal best, one chosen with `rng` (None if none)."""
    items = list(scored)
    if not items:
        return None
    best = max(score for score, _ in items)
    top = [action for score, action in items if score >= best - TIE]
    return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


MEMO_LIMIT = 20_000
"""Positions a `PositionMemo` holds before it starts afresh (a search decision of the
built-in scenarios meets a few hundred to a few thousand)."""


class PositionMemo:
    """Scored legal actions remembered by position, for a player asked the same
    position many times (the search's playouts).

    A position is the side to decide and the state it may know, encoded: equal bytes
    mean an equal state, so equal legal actions in the same order, and a scoring that
    reads only the state gives the same scores. What is kept is each score with the
    place of its action in the legal list, so a recalled scoring hands back the actions
    of the list given now, in the order scored, and `pick` draws from `rng` exactly as
    it did the first time.
    """

    def __init__(self) -> None:
        self._known: dict[bytes, list[tuple[float, int]]] = {}
        self._encoder = msgspec.msgpack.Encoder()

    def key(self, side: str, state: Any) -> bytes:
        """The position's key: `side` and the encoded `state`."""
        return side.encode() + b"\0" + self._encoder.encode(state)

    def recall(self, key: bytes, legal: list[Any]) -> list[tuple[float, Any]] | None:
        """The scoring kept for `key`, with the actions of `legal`; None if not kept."""
        known = self._known.get(key)
        if known is None:
            return None
        return [(score, legal[i]) for score, i in known]

    def keep(self, key: bytes, legal: list[Any], scored: list[tuple[float, Any]]) -> None:
        """Remember `scored` (actions of `legal`) for `key`; a scoring holding an action
        that is not one of `legal`'s objects is not kept."""
        place = {id(action): i for i, action in enumerate(legal)}
        kept: list[tuple[float, int]] = []
        for score, action in scored:
            i = place.get(id(action))
            if i is None:
                return
            kept.append((score, i))
        if len(self._known) >= MEMO_LIMIT:
            self._known.clear()
        self._known[key] = kept

    def __len__(self) -> int:
        return len(self._known)
