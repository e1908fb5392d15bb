"""The battles' progress bar (cli/progress.py): the rate and the time left are shown,
and nothing is drawn where stderr is no terminal."""

from __future__ import annotations

import io

from rich.console import Console

from dogfight.cli.progress import battle_progress


def test_the_bar_shows_done_share_rate_and_time_left() -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=160, color_system=None)
    with battle_progress("simulating", 10, console=console) as update:
        assert update is not None
        for done in range(1, 6):
            update(done, 10)
        text = screen.getvalue()
    assert "simulating" in text
    assert "5/10" in text and "50%" in text
    assert "battles/s, " in text and " left" in text


def test_no_bar_off_a_terminal_or_when_turned_off() -> None:
    piped = Console(file=io.StringIO(), force_terminal=False)
    with battle_progress("simulating", 10, console=piped) as update:
        assert update is None
    screen = Console(file=io.StringIO(), force_terminal=True)
    with battle_progress("simulating", 10, enabled=False, console=screen) as update:
        assert update is None
