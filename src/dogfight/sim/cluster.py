"""Playing battle tasks on a Dask cluster (`simulate --cluster tcp://HOST:PORT`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from dogfight.core.errors import DogfightError

if TYPE_CHECKING:
    from dogfight.sim.runner import BattleResult, BattleTask, Progress


def run_on_cluster(
    tasks: Iterable[BattleTask],
    address: str,
    *,
    progress: Progress | None = None,
    total: int = 0,
) -> Iterator[tuple[BattleTask, BattleResult]]:
    """Play `tasks` on the Dask cluster at `address`; yields in task order."""
    raise DogfightError("--cluster is not available yet")
