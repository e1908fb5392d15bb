"""Playing battle tasks on a Dask cluster (`simulate --cluster tcp://HOST:PORT`).

The same chunks as a local pool are submitted to the cluster's scheduler as Dask
tasks and their results yielded in task order, with the same bound on chunks in
flight, so a run gives the same results on a cluster as on one machine. The
workers must be able to import `dogfight` (install the package on them).

Needs the `distributed` package: `pip install 'dogfight[cluster]'`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from dogfight.core.errors import DogfightError

if TYPE_CHECKING:
    from dogfight.sim.runner import BattleResult, BattleTask, Progress

CONNECT_TIMEOUT = "5s"
"""How long to wait for the scheduler before giving up."""


MISSING_EXTRA = "--cluster needs the cluster extra: pip install 'dogfight[cluster]'"


def _distributed() -> Any:
    """The `distributed` module, or one line saying which extra to install (a broken
    or partial install fails in many ways on import: all of them mean the same)."""
    try:
        import distributed
    except Exception:
        raise DogfightError(MISSING_EXTRA) from None
    return distributed


def connect(address: str) -> Any:
    """A `distributed.Client` connected to the scheduler at `address`; a
    `DogfightError` in one line if the package is missing or nobody answers."""
    Client = _distributed().Client
    if "://" not in address:
        raise DogfightError(f"--cluster {address}: give a scheduler address like tcp://HOST:8786")
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]
    except Exception as exc:  # any failure to connect: the address is the user's
        why = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise DogfightError(
            f"--cluster {address}: cannot reach a Dask scheduler there "
            f"within {CONNECT_TIMEOUT} ({why})"
        ) from None


def cluster_workers(client: Any) -> int:
    """Threads the cluster's workers offer (at least 1)."""
    info = client.scheduler_info()
    workers = info.get("workers", {}) if isinstance(info, dict) else {}
    return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))


def run_on_cluster(
    tasks: Iterable[BattleTask],
    address: str,
    *,
    progress: Progress | None = None,
    total: int = 0,
) -> Iterator[tuple[BattleTask, BattleResult]]:
    """Play `tasks` on the Dask cluster at `address`; yields in task order (see
    `dogfight.sim.runner.run_tasks`)."""
    as_completed = _distributed().as_completed

    from dogfight.sim.runner import CHUNKS_PER_WORKER, chunk_size, chunks_of, in_order, run_chunk

    client = connect(address)
    try:
        workers = cluster_workers(client)

        finished = as_completed(loop=client.loop)  # type: ignore[no-untyped-call]

        def submit(chunk: list[BattleTask]) -> Any:
            # pure=False: two chunks with equal tasks are still two pieces of work.
            future = client.submit(run_chunk, chunk, pure=False)
            finished.add(future)  # type: ignore[no-untyped-call]
            return future

        def wait_first(pending: set[Any]) -> tuple[set[Any], set[Any]]:
            # The futures' own client answers (no default client is set or needed).
            done = {next(finished)}
            return done, pending - done

        yield from in_order(
            chunks_of(tasks, chunk_size(total, workers)),
            submit,
            wait_first,
            workers * CHUNKS_PER_WORKER,
            progress,
            total,
        )
    finally:
        client.close()
