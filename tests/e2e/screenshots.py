"""Take the README's board screenshots: docs/img/board-<ruleset>.png (1280x800).

Not a test. Run from the repository root:
    PYTHONPATH=src python -m tests.e2e.screenshots [RULESET ...]

For each ruleset it starts a server, creates a game against the computer through the
lobby, plays a few turns through the page, selects a unit so its arcs and movement
envelope show, picks a destination so the ghost shows, and saves the page.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from .driver import (
    CALM,
    VIEWPORT,
    chromium,
    click_any_action,
    click_unit,
    create_game,
    live_server,
    move_units,
    point_in_envelope,
    wait_turn,
)
from .test_play import GAMES

OUT = Path(__file__).resolve().parents[2] / "docs" / "img"
# how many of our decisions to play before the picture, so the forces have closed in
WARMUP = {"acta": 4, "evo": 6, "sfa": 4}


def show_a_move(page: Any) -> bool:
    """Select a unit that can move and choose a destination, leaving it unconfirmed."""
    for unit in move_units(page):
        click_unit(page, unit)
        point = point_in_envelope(page, unit)
        if point:
            page.mouse.click(*point)
            page.wait_for_selector("#layer-ghost .ghost")
            return True
        markers = page.locator("#layer-dests .dest")
        if markers.count():
            markers.nth(markers.count() // 2).click()
            page.wait_for_selector("#layer-ghost .ghost")
            return True
    return False


def screenshot(browser: Any, base: str, ruleset: str, scenario: str, seats: dict[str, str]) -> Path:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(20_000)
    create_game(page, base, ruleset, scenario, seats, seed=11)
    for _ in range(WARMUP.get(ruleset, 4)):
        if not wait_turn(page):
            break
        click_any_action(page, CALM)
    # on to a moment when a unit of ours can move, so the envelope shows
    for _ in range(30):
        if not wait_turn(page) or move_units(page):
            break
        click_any_action(page, CALM)
    if not show_a_move(page):
        mine = page.locator("#layer-units .unit.mine")
        if mine.count():
            click_unit(page, mine.first.get_attribute("data-unit") or "")
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"board-{ruleset}.png"
    page.screenshot(path=str(path))
    context.close()
    return path


def main(argv: list[str]) -> int:
    wanted = set(argv) or {g[0] for g in GAMES}
    with (
        tempfile.TemporaryDirectory() as tmp,
        live_server(Path(tmp) / "games.sqlite") as server,
        chromium() as browser,
    ):
        for ruleset, scenario, seats, _seed in GAMES:
            if ruleset in wanted:
                print(screenshot(browser, server.url, ruleset, scenario, seats))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
