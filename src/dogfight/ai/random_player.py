"""The random player: picks uniformly among the legal actions."""

from __future__ import annotations

import random
from typing import Any

from dogfight.core.seat import Seat


class RandomPlayer:
    """Chooses any legal action with equal chance, using the player's own generator."""

    name = "random"

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        """One of `legal`, uniformly at random."""
        return legal[rng.randrange(len(legal))]
