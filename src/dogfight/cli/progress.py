"""The progress bar of the commands that play many battles (simulate, duel, balance,
compare): battles done of the total, the share, the rate and the time left, on a
terminal's stderr only (a pipe or a test sees nothing)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
)
from rich.text import Text

from dogfight.cli import output as out

Update = Callable[[int, int], None]
"""Called as `update(done, total)` while battles run (a total of 0 keeps the bar's)."""


def _clock(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))


class RateColumn(ProgressColumn):
    """'41.2 battles/s, 0:00:30 left' while running ('- battles/s, -:--:-- left' until
    a few battles have finished), '41.2 battles/s, took 0:00:42' at the end."""

    def render(self, task: Task) -> Text:
        """The column's text for `task`."""
        speed = task.finished_speed or task.speed
        rate = f"{speed:.1f} battles/s" if speed else "- battles/s"
        if task.finished:
            when = f"took {_clock(task.finished_time or task.elapsed or 0)}"
        else:
            left = task.time_remaining
            when = f"{_clock(left)} left" if left is not None else "-:--:-- left"
        return Text(f"{rate}, {when}", style="progress.remaining")


@contextmanager
def battle_progress(
    label: str, total: int, enabled: bool = True, console: Console | None = None
) -> Iterator[Update | None]:
    """A bar labelled `label` for `total` battles, or None when `enabled` is false or
    stderr is no terminal. Refreshed by hand on each update: no display thread runs
    while worker processes start."""
    console = console or out.stderr_console()
    if not enabled or not console.is_terminal:
        yield None
        return
    bar = Progress(
        TextColumn(label),
        BarColumn(bar_width=24),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        RateColumn(),
        console=console,
        auto_refresh=False,
        transient=True,
    )
    task = bar.add_task("battles", total=total or None)

    def update(done: int, runner_total: int) -> None:
        bar.update(task, completed=done, total=runner_total or total or None)
        bar.refresh()

    with bar:
        yield update
