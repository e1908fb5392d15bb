"""The page's own helpers, run in the browser: wedge drawing (what is inside an arc),
and facing snapping of bearings. (Uploaded scenarios are read by the server:
tests/web/test_web_lobby.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .driver import CHROMIUM

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (CI installs Debian's chromium)"
)

DATA = Path(__file__).resolve().parents[2] / "src/dogfight/data"

INSIDE = """async ([wedge, points]) => {
  const board = await import('/static/board.js');
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '-10 -10 20 20');
  svg.style.width = '400px';
  svg.style.height = '400px';
  document.body.append(svg);
  const node = board.shapeElement({kind: 'wedge', cls: 'arc', ...wedge}, 1);
  svg.append(node);
  const result = points.map(([x, y]) => {
    const p = svg.createSVGPoint();
    p.x = x; p.y = y;
    return node.isPointInFill(p);
  });
  svg.remove();
  return result;
}"""


@pytest.fixture
def blank(page: Any, server: Any) -> Any:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    return page


def point(deg: float, r: float) -> list[float]:
    """Board point at distance r in direction deg (clockwise from up, y down)."""
    import math

    a = math.radians(deg)
    return [r * math.sin(a), -r * math.cos(a)]


@pytest.mark.parametrize(
    ("wedge", "inside", "outside"),
    [
        # a forward 90-degree arc: up is the facing, y grows downwards
        (
            {"x": 0, "y": 0, "r": 6, "start": -45, "end": 45},
            [(0, 5), (40, 5), (-40, 3)],
            [(180, 3), (90, 3), (0, 7), (50, 3)],
        ),
        # an arc swept past north (end beyond 360), as the contract allows
        (
            {"x": 0, "y": 0, "r": 6, "start": 300, "end": 420},
            [(0, 5), (330, 4), (50, 4)],
            [(180, 3), (290, 3), (70, 3)],
        ),
        # a wide arc (more than half a turn) takes the long way round
        (
            {"x": 0, "y": 0, "r": 6, "start": 90, "end": 360},
            [(180, 3), (270, 3), (100, 3)],
            [(45, 3)],
        ),
        # a full circle and a ring sector with an inner radius
        (
            {"x": 0, "y": 0, "r": 6, "start": 0, "end": 360},
            [(0, 5), (123, 5), (250, 2)],
            [(10, 6.5)],
        ),
        (
            {"x": 0, "y": 0, "r": 6, "r0": 3, "start": 60, "end": 120},
            [(90, 4.5), (70, 5)],
            [(90, 2), (90, 6.5), (30, 4.5)],
        ),
    ],
)
def test_wedges_cover_their_arc(
    blank: Any,
    wedge: dict[str, float],
    inside: list[tuple[float, float]],
    outside: list[tuple[float, float]],
) -> None:
    points = [point(d, r) for d, r in inside + outside]
    hits = blank.evaluate(INSIDE, [wedge, points])
    assert hits == [True] * len(inside) + [False] * len(outside)


def test_bearing_is_clockwise_from_up(blank: Any) -> None:
    bearings = blank.evaluate(
        """async () => { const b = await import('/static/board.js');
          return [[0, -1], [1, 0], [0, 1], [-1, 0], [1, -1]]
            .map(([x, y]) => b.bearing(0, 0, x, y)); }"""
    )
    assert bearings == pytest.approx([0, 90, 180, 270, 45])


RENDER = """async (text) => {
  const md = await import('/static/markdown.js');
  const box = document.createElement('div');
  box.append(...md.renderMarkdown(text));
  return box.innerHTML;
}"""


def test_the_rules_popover_renders_markdown_without_markup_from_the_text(blank: Any) -> None:
    """Issue 16 item 7: bold, code, lists and paragraphs; a tag in the text stays text."""
    html = blank.evaluate(
        RENDER,
        "**ACTA-DOG-5** (seed): roll `1d6`, *add* it.\nStill the same paragraph.\n\n"
        "- **Which rolls.** every roll\n  made by it\n- <img src=x onerror=alert(1)>\n\nEnd.",
    )
    assert html == (
        "<p><strong>ACTA-DOG-5</strong> (seed): roll <code>1d6</code>, <em>add</em> it. "
        "Still the same paragraph.</p><ul><li><strong>Which rolls.</strong> every roll "
        "made by it</li><li>&lt;img src=x onerror=alert(1)&gt;</li></ul><p>End.</p>"
    )
