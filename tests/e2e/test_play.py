"""End-to-end: a person plays a whole game against the computer through the page,
in a real headless chromium, for each ruleset.

Each test creates the game through the lobby form, opens the seat's link and plays to
the end with the page's controls only: one move chosen on the board's envelope, one
attack by clicking the target and committing after the odds, the rest with the
action buttons and forms. A failing test leaves tests/e2e/artifacts/<test>.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from .driver import CHROMIUM, create_game, play_to_end

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (CI installs Debian's chromium)"
)

GAMES = [
    ("acta", "furball", {"Empire": "human", "Klingon": "heuristic"}, 7),
    # The scripted page player ends activations it cannot shoot from, so the seed decides
    # whether it ever gets a target before its side is gone: after the issue-10 rules
    # (the roll-off winner chooses to go first, reactions only within 10") seed 7 gave it
    # no shot in skirmish; seed 2 does.
    ("evo", "skirmish", {"Earth Alliance": "human", "Narn Regime": "heuristic"}, 2),
    # Forward guns fire only along the hex line ahead, and the heuristic Alien pilots keep
    # out of the slow Rebels' lines, so a scripted player rarely gets a shot at them; the
    # random computer comes to blows (seed 3 since the issue-11 rules changed the game).
    ("sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"}, 3),
]


@pytest.mark.parametrize(("ruleset", "scenario", "seats", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_play_a_game_to_the_end(
    page: Any, server: Any, ruleset: str, scenario: str, seats: dict[str, str], seed: int
) -> None:
    side = create_game(page, server.url, ruleset, scenario, seats, seed=seed)
    assert page.text_content("#seat") == side
    assert page.text_content("#scenario-title").endswith(f"({ruleset})")
    # The seat acts once the board has shown the computer's actions one at a time:
    # fast, so that the whole game plays through the stepping board within the deadline;
    # instant for the longest game, sfa's (the speeds are tested in test_board_steps.py).
    page.select_option("#play-speed", "instant" if ruleset == "sfa" else "fast")

    done = play_to_end(page, deadline_s=55)

    assert done["board_moves"] == 1, done
    assert done["target_attacks"] == 1, done
    assert done["odds_shown"] == 1, done
    banner = page.locator("#outcome")
    assert banner.is_visible()
    text = banner.text_content() or ""
    assert text.startswith("Game over")
    winner = banner.get_attribute("data-winner")
    if winner:
        assert f"Winner: {winner}" in text
        assert ("You win!" if winner == side else "You lose.") in text
    else:
        assert "draw" in text
    # the game is over: no action is offered any more, and the review bar is there
    assert page.locator("#actions button.action").count() == 0
    assert page.locator("#review").is_visible()

    # the log: events with clause ids, and one clause opened in the popover. The page
    # hears of each move at once (a long-poll), so the log may still be playing the
    # computer's last actions back one at a time: skipped, as a reader may.
    if page.locator("#playback-skip").is_visible():
        page.click("#playback-skip")
    page.wait_for_function("() => document.body.dataset.playing !== 'true'")
    clauses = page.locator("#log button.clause")
    assert clauses.count() > 10
    first = clauses.first
    clause = first.get_attribute("data-clause") or ""
    assert clause.split("-")[0].lower() in (ruleset, "sfa")
    first.click()
    popover = page.locator("#clause-pop")
    popover.wait_for(state="visible")
    assert popover.get_attribute("data-clause") == clause
    assert (page.text_content("#clause-title") or "").startswith(clause)
    assert len(page.text_content("#clause-text") or "") > 20
    # rendered, not raw Markdown (issue 16 item 7)
    assert "**" not in (page.text_content("#clause-text") or "")
    assert page.locator("#clause-text p").count() >= 1
    assert page.page_errors == []
