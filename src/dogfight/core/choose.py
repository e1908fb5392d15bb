"""Choosing among scored actions: shared by every ruleset's computer players."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

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
