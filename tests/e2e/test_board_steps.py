"""Browser tests of the board stepping through the computer's actions (issue 16 item 2):
at a slow speed the board shows the position after each of the computer's actions in
turn, in step with the log's highlighted lines, before the current one, and the seat
cannot act meanwhile; at instant it jumps to the current position."""

from __future__ import annotations

import math
from typing import Any

import pytest

from .driver import CALM, CHROMIUM, click_any_action, create_game, wait_turn
from .test_page import api, game_and_token

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (CI installs Debian's chromium)"
)

RECORD_BOARDS = """() => {
  // every drawing of the board's units: the past step shown (if any), where each unit
  // stands, the log's highlighted action and whether actions were on offer then
  window.boards = [];
  const layer = document.getElementById('layer-units');
  new MutationObserver(() => {
    const units = {};
    for (const g of layer.querySelectorAll('g[data-unit]')) {
      units[g.dataset.unit] = [Number(g.dataset.x), Number(g.dataset.y)];
    }
    const lit = [...document.querySelectorAll('#log li.last-action')].map(li => li.dataset.step);
    window.boards.push({frame: document.body.dataset.frame || '', units,
      version: Number(document.body.dataset.version), lit: [...new Set(lit)],
      yourTurn: document.body.dataset.yourTurn,
      offered: document.querySelectorAll('#actions button.action, #actions form').length});
  }).observe(layer, {childList: true});
}"""

SEATS = {"Empire": "human", "Klingon": "heuristic"}


def places(scene: dict[str, Any]) -> dict[str, tuple[float, float]]:
    return {u["id"]: (float(u["x"]), float(u["y"])) for u in scene["units"]}


def same_places(drawn: dict[str, list[float]], scene: dict[str, Any]) -> bool:
    want = places(scene)
    return set(drawn) == set(want) and all(
        math.isclose(drawn[k][0], want[k][0], abs_tol=1e-6)
        and math.isclose(drawn[k][1], want[k][1], abs_tol=1e-6)
        for k in want
    )


def settle(page: Any) -> None:
    """Wait until the playback is over and this seat may act (or the game is over)."""
    page.wait_for_function(
        "() => document.body.dataset.playing !== 'true' && document.body.dataset.busy !== 'true'"
        " && (document.body.dataset.yourTurn === 'true' || document.body.dataset.over === 'true')",
        timeout=90_000,
    )


def test_the_board_steps_through_the_computers_actions_at_a_slow_speed(
    page: Any, server: Any
) -> None:
    create_game(page, server.url, "acta", "furball", SEATS, 7)
    page.select_option("#play-speed", "slow")
    game, token = game_and_token(page)
    page.evaluate(RECORD_BOARDS)
    stepped: list[dict[str, Any]] = []
    for _ in range(20):
        assert wait_turn(page)
        page.evaluate("() => { window.boards = []; }")
        click_any_action(page, CALM)
        settle(page)
        boards = page.evaluate("() => window.boards")
        status, final = api(server.url, "GET", f"/api/games/{game}?token={token}")
        assert status == 200, final
        frames = [b for b in boards if b["frame"]]
        moved = [b for b in frames if not same_places(b["units"], final["scene"])]
        if moved:
            stepped = boards
            break
    assert stepped, "the board never showed a past position of the computer's actions"
    frames = [b for b in stepped if b["frame"]]
    # each past position drawn is the seat's view of that step, the log highlighting
    # the action that led to it, and nothing is offered to act on meanwhile
    for board in frames:
        step = int(board["frame"])
        path = f"/api/games/{game}/position?step={step}&token={token}"
        status, then = api(server.url, "GET", path)
        assert status == 200, then
        assert same_places(board["units"], then["scene"]), (step, board["units"])
        assert step < final["version"]
        assert board["yourTurn"] == "false" and board["offered"] == 0
    shown = [int(b["frame"]) for b in frames]
    assert shown == sorted(shown)
    lit = [int(b["lit"][0]) + 1 for b in frames if len(b["lit"]) == 1]
    assert set(lit) & set(shown), (lit, shown)
    # then the board settles on the current position, where the seat may act
    last = stepped[-1]
    assert last["frame"] == "" and same_places(last["units"], final["scene"])
    assert page.evaluate("() => document.body.dataset.yourTurn") == "true"
    assert page.locator("#actions button.action, #actions form").count() > 0
    assert page.page_errors == []


def test_at_instant_the_board_jumps_to_the_current_position(page: Any, server: Any) -> None:
    create_game(page, server.url, "acta", "furball", SEATS, 7)
    page.select_option("#play-speed", "instant")
    game, token = game_and_token(page)
    page.evaluate(RECORD_BOARDS)
    several = False
    for _ in range(12):
        assert wait_turn(page)
        status, before = api(server.url, "GET", f"/api/games/{game}?token={token}")
        assert status == 200, before
        click_any_action(page, CALM)
        settle(page)
        status, final = api(server.url, "GET", f"/api/games/{game}?token={token}")
        assert status == 200, final
        theirs = {
            e["step"]
            for e in final["log"]
            if e["step"] is not None and e["step"] >= before["version"] and e["by"] == "Klingon"
        }
        if len(theirs) >= 2:
            several = True
            break
    assert several, "the computer never took two actions in a row"
    boards = page.evaluate("() => window.boards")
    assert boards and not [b for b in boards if b["frame"]]
    assert same_places(boards[-1]["units"], final["scene"])
    assert page.page_errors == []
