"""Driving the browser page for the end-to-end tests and the README screenshots.

A live server (uvicorn on a free loopback port, in a background thread, over a
temporary SQLite file) and Debian's chromium through Playwright. The helpers act
only through the page's real controls: the lobby form, units and envelopes on the
SVG board, the move and odds panels and the action buttons.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 800}


class LiveServer:
    """The dogfight web app served by uvicorn in a daemon thread."""

    def __init__(self, db_path: Path) -> None:
        import uvicorn

        from dogfight.web.app import create_app
        from dogfight.web.guard import allowed_hosts

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(
            # As `dogfight serve` makes it (host names checked), but that tests may fix
            # the seed of a game between people.
            create_app(db_path, hosts=allowed_hosts("127.0.0.1"), people_choose_seeds=True),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="off",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the dogfight web server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@contextmanager
def live_server(db_path: Path) -> Iterator[LiveServer]:
    """A started server, stopped on exit."""
    server = LiveServer(db_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's headless chromium through Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


# ---------------------------------------------------------------- the lobby


def create_game(
    page: Any, base: str, ruleset: str, scenario: str, seats: dict[str, str], seed: int
) -> str:
    """Fill the lobby form, create the game and open the first human seat's page.

    Returns the side played in the browser."""
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ruleset", ruleset)
    page.select_option("#scenario", scenario)
    for side, kind in seats.items():
        page.select_option(f'#seat-rows select[data-side="{side}"]', kind)
    page.fill("#seed", str(seed))
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    human = next(side for side, kind in seats.items() if kind == "human")
    page.click(f'button.play-as[data-side="{human}"]')
    page.wait_for_url("**/game/**")
    page.wait_for_selector("body[data-ready=true]")
    return human


# ---------------------------------------------------------------- the game page


def version(page: Any) -> str:
    return str(page.evaluate("() => document.body.dataset.version || ''"))


def error_text(page: Any) -> str:
    return str(
        page.evaluate(
            "() => { const e = document.getElementById('error');"
            " return e.hidden ? '' : e.textContent; }"
        )
    )


def act(page: Any, do: Any) -> None:
    """Do something that posts to the server and wait for the new view (fail on an error line)."""
    before = version(page)
    do()
    page.wait_for_function(
        """(before) => document.body.dataset.busy !== 'true' && (
            document.body.dataset.version !== before
            || !document.getElementById('error').hidden)""",
        arg=before,
    )
    message = error_text(page)
    if message:
        raise AssertionError(f"the server refused a choice made through the page: {message}")


def wait_turn(page: Any) -> bool:
    """Wait until this seat must decide or the game is over; True while the game goes on."""
    page.wait_for_function(
        "() => document.body.dataset.busy !== 'true' && "
        "(document.body.dataset.yourTurn === 'true' || document.body.dataset.over === 'true')"
    )
    return bool(page.evaluate("() => document.body.dataset.over !== 'true'"))


def click_unit(page: Any, unit: str) -> None:
    """Click a unit (a scene unit's id, or an evo flight's) on the board, or in the units
    list when another token covers it."""
    selector = f'#layer-units [data-unit="{unit}"] .base, #layer-units [data-key="{unit}"] .base'
    base = page.locator(selector).first
    box = base.bounding_box()
    if box:
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        on_top = page.evaluate(
            """([x, y]) => { const n = document.elementFromPoint(x, y);
                const g = n && n.closest('#layer-units [data-unit]');
                return g ? [g.dataset.unit, g.dataset.key] : null; }""",
            [x, y],
        )
        if on_top and unit in on_top:
            page.mouse.click(x, y)
            return
    if not page.locator("#units-panel[open]").count():
        page.click("#units-panel > summary")
    page.locator(
        f'#units button.unit-button[data-unit="{unit}"], '
        f'#units button.unit-button[data-key="{unit}"]'
    ).first.click()


def point_in_envelope(page: Any, unit: str) -> tuple[float, float] | None:
    """A screen point on the unit's free envelope away from any token, farthest from the unit."""
    found = page.evaluate(
        """(unit) => {
          const shapes = [...document.querySelectorAll('#layer-envelope .envelope-free')];
          const token = document.querySelector(`#layer-units [data-key="${unit}"] .base`);
          if (!shapes.length || !token) return null;
          const t = token.getBoundingClientRect();
          const tx = t.x + t.width / 2, ty = t.y + t.height / 2;
          const area = document.getElementById('board').getBoundingClientRect();
          let best = null;
          for (const shape of shapes) {
            const b = shape.getBoundingClientRect();
            for (let i = 1; i < 12; i++) for (let j = 1; j < 12; j++) {
              const x = b.x + (b.width * i) / 12, y = b.y + (b.height * j) / 12;
              // clear of the zoom buttons and the board's edges
              if (x < area.left + 60 || x > area.right - 5) continue;
              if (y < area.top + 45 || y > area.bottom - 5) continue;
              // well inside the shape: the point and its neighbours all land on it
              const inside = [[0, 0], [-4, 0], [4, 0], [0, -4], [0, 4]].every(([dx, dy]) => {
                const hit = document.elementFromPoint(x + dx, y + dy);
                return hit && hit.classList.contains('envelope-free');
              });
              if (!inside) continue;
              // not the farthest reach (it may leave the table), about two thirds of it
              const d = Math.hypot(x - tx, y - ty);
              const score = -Math.abs(d - 0.6 * Math.max(b.width, b.height) / 2);
              if (!best || score > best[2]) best = [x, y, score];
            }
          }
          return best ? [best[0], best[1]] : null;
        }""",
        unit,
    )
    return (found[0], found[1]) if found else None


def move_units(page: Any) -> list[str]:
    """Units of ours with a move on offer (from the Movement group's buttons)."""
    return list(
        dict.fromkeys(
            page.eval_on_selector_all(
                '#actions button.action[data-group="move"]',
                "bs => bs.map(b => b.dataset.unit).filter(Boolean)",
            )
        )
    )


def move_on_board(page: Any) -> bool:
    """Move one unit by choosing its destination on the board: a point inside a free
    envelope (turning the ghost with the arrow keys) or a legal destination marker."""
    for unit in move_units(page):
        click_unit(page, unit)
        page.wait_for_selector(f'#layer-units [data-key="{unit}"].selected')
        point = point_in_envelope(page, unit)
        if point:
            page.mouse.click(*point)
            page.wait_for_selector("#move-panel:not([hidden])")
            page.keyboard.press("ArrowRight")
            page.wait_for_selector("#layer-ghost .ghost")
        else:
            markers = page.locator("#layer-dests .dest")
            if markers.count() == 0:
                continue
            markers.nth(markers.count() - 1).click()
            page.wait_for_selector("#move-panel:not([hidden])")
        act(page, lambda: page.click("#move-here"))
        return True
    return False


def attack_via_target(page: Any) -> str:
    """Attack by selecting our unit, clicking the enemy on the board, picking the attack
    and committing after the odds are shown; an attack with exact odds is preferred, and
    its outcome table must add up to certainty. Returns "odds" or "plain" (what the
    panel showed), or "" when no attack on a target is offered."""
    aimed = ":not([data-target=''])"
    buttons = page.locator(
        f'#actions button.action[data-group="attack"]{aimed}, '
        f'#actions button.action[data-group="dogfight"]{aimed}'
    )
    if buttons.count() == 0:
        return ""
    with_odds = buttons.and_(page.locator('[data-odds="true"]'))
    first = with_odds.first if with_odds.count() else buttons.first
    unit, target = first.get_attribute("data-unit"), first.get_attribute("data-target")
    index = first.get_attribute("data-action-index")
    if not unit or not target:
        return ""
    click_unit(page, unit)
    click_unit(page, target)
    page.wait_for_selector("#layer-units .unit.target")
    page.click(f'#target-actions button.action[data-action-index="{index}"]')
    page.wait_for_selector("#odds-panel:not([hidden])")
    assert page.get_attribute("#commit", "data-action-index") == index
    odds = first.get_attribute("data-odds") == "true"
    if odds:
        shown = page.eval_on_selector_all(
            "#odds-chart tr td.pct", "cells => cells.map(c => parseFloat(c.textContent))"
        )
        assert shown and abs(sum(shown) - 100) < 0.5, shown
    act(page, lambda: page.click("#commit"))
    return "odds" if odds else "plain"


# the order in which the tests prefer groups: fighting ends games sooner
PREFERRED = [
    "attack",
    "dogfight",
    "secret",
    "speed",
    "end",
    "support",
    "reaction",
    "launch",
    "special",
    "other",
    "move",
]


# the order for holding fire (screenshots, undo): moves and passes before attacks
CALM = [
    "secret",
    "speed",
    "move",
    "end",
    "support",
    "reaction",
    "launch",
    "special",
    "other",
    "dogfight",
    "attack",
]


def closing_move(page: Any, buttons: Any) -> Any:
    """Of the offered move buttons, the one ending nearest an enemy and facing it (so
    the game comes to blows instead of running out the turns)."""
    best = page.evaluate(
        """(buttons) => {
          const enemies = [...document.querySelectorAll('#layer-units .unit:not(.mine)')]
            .map(g => [Number(g.dataset.x), Number(g.dataset.y)]);
          let best = 0, bestScore = Infinity;
          buttons.forEach((b, i) => {
            if (!b.dataset.dest || !enemies.length) return;
            const [x, y, f] = b.dataset.dest.split(',').map(Number);
            let score = Infinity;
            for (const [ex, ey] of enemies) {
              const bearing = (Math.atan2(ex - x, -(ey - y)) * 180 / Math.PI + 360) % 360;
              const off = Math.min(Math.abs(bearing - f), 360 - Math.abs(bearing - f));
              score = Math.min(score, Math.hypot(ex - x, ey - y) + off / 10);
            }
            if (score < bestScore) { best = i; bestScore = score; }
          });
          return best;
        }""",
        buttons.element_handles(),
    )
    return buttons.nth(int(best))


def click_any_action(page: Any, order: list[str] = PREFERRED) -> str:
    """Take one offered action through its control: a form for secret selections and
    speed declarations, the odds panel for attacks, a button for the rest. Groups are
    tried in `order`; the first offered action of the first offered group is taken."""
    for group in order:
        forms = page.locator(f'#actions form.choice-form[data-group="{group}"]')
        if forms.count():
            form = forms.first
            # choose to fight when the form offers it (the first option is often "no action")
            what = form.locator("select.choice-what")
            if what.count():
                fight = [o for o in what.locator("option").all_text_contents() if "attack" in o]
                if fight:
                    what.select_option(label=fight[0])
            else:
                radio = form.locator("label.choice", has_text="attack")
                if radio.count():
                    radio.first.locator("input").check()
            act(page, form.locator('button[type="submit"]').click)
            return group
        buttons = page.locator(f'#actions button.action[data-group="{group}"]')
        if buttons.count() == 0:
            continue
        button = closing_move(page, buttons) if group == "move" else buttons.first
        if not button.is_visible():
            page.locator(f'#actions details[data-group="{group}"] > summary').click()
        if group in ("attack", "dogfight") or button.get_attribute("data-odds") == "true":
            button.click()
            page.wait_for_selector("#odds-panel:not([hidden])")
            act(page, lambda: page.click("#commit"))
        else:
            act(page, button.click)
        return group
    raise AssertionError("it is this seat's turn but the page offers no action")


def play_to_end(page: Any, deadline_s: float) -> dict[str, int]:
    """Play this seat to the end of the game; count what was done through which control."""
    done = {"board_moves": 0, "target_attacks": 0, "odds_shown": 0, "buttons": 0}
    stop = time.monotonic() + deadline_s
    while wait_turn(page):
        if time.monotonic() > stop:
            raise AssertionError(f"the game did not end within {deadline_s:.0f} s: {done}")
        if done["board_moves"] == 0 and move_on_board(page):
            done["board_moves"] += 1
        elif done["target_attacks"] == 0 and (shown := attack_via_target(page)):
            done["target_attacks"] += 1
            done["odds_shown"] += shown == "odds"
        else:
            click_any_action(page)
            done["buttons"] += 1
    return done
