"""Browser tests of what the board draws (issue 16, items 2, 3, 4 and 8): your side's
colour, never your own unit as a target, your cloaked craft marked; trails, attack lines
with hit and miss markers and wrecks; labels that do not overlap, stacked tokens fanned
out, weapon arcs in colours with a legend, the range ruler, threat arcs on hover; the
ghost's arcs and lines of fire; a click near a hex's edge taking that hex.

What the page draws is compared with what the server's view says (or, for the page's
own drawing helpers, with a scene made up in the test), never with figures guessed here.
A failing test leaves tests/e2e/artifacts/<test>.png.
"""

from __future__ import annotations

import json
import math
import time
import urllib.request
from typing import Any

import pytest

from .driver import CHROMIUM, act, click_unit, create_game, move_units, point_in_envelope

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (CI installs Debian's chromium)"
)

BLUE = "rgb(78, 161, 255)"
RED = "rgb(255, 93, 93)"


def api(base: str, method: str, path: str, body: Any = None) -> Any:
    """Call the server directly; the JSON reply."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as reply:
        return json.loads(reply.read())


def finished_game(base: str, ruleset: str, scenario: str, seats: dict[str, str], seed: int) -> str:
    """A game the computer plays on every seat, waited on to its end; its id."""
    created = api(
        base,
        "POST",
        "/api/games",
        {"ruleset": ruleset, "scenario": scenario, "seats": seats, "options": {}, "seed": seed},
    )
    game = created["game"]
    stop = time.monotonic() + 120
    while not api(base, "GET", f"/api/games/{game}")["over"]:
        assert time.monotonic() < stop, "the computers did not finish the game"
        time.sleep(0.3)
    return str(game)


def step_with(base: str, game: str, wanted: str) -> tuple[int, dict[str, Any]]:
    """The first review step of a finished game whose scene's `recent` has `wanted`."""
    total = api(base, "GET", f"/api/games/{game}")["version"]
    for step in range(1, total + 1):
        view = api(base, "GET", f"/api/games/{game}?step={step}")
        if view["scene"]["recent"][wanted]:
            return step, view
    raise AssertionError(f"no step of game {game} has recent {wanted}")


def open_step(page: Any, base: str, game: str, step: int) -> None:
    page.goto(f"{base}/game/{game}?step={step}")
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_function(f"() => document.body.dataset.version === '{step}'")


@pytest.fixture(scope="module")
def furball(server: Any) -> str:
    return finished_game(
        server.url, "acta", "furball", {"Empire": "heuristic", "Klingon": "heuristic"}, 5
    )


# ---------------------------------------------------------------- item 8: colours


@pytest.mark.parametrize("side", ["Empire", "Klingon"])
def test_your_side_is_drawn_in_your_colour(page: Any, server: Any, side: str) -> None:
    other = "Klingon" if side == "Empire" else "Empire"
    create_game(page, server.url, "acta", "furball", {side: "human", other: "heuristic"}, 3)
    fills = page.evaluate(
        """() => [...document.querySelectorAll('#layer-units .unit')].map(g =>
            [g.classList.contains('mine'), getComputedStyle(g.querySelector('.base')).fill])"""
    )
    assert {fill for mine, fill in fills if mine} == {BLUE}
    assert {fill for mine, fill in fills if not mine} == {RED}


BOARD = """async ([scene, selected, highlights]) => {
  const board = await import('/static/board.js');
  document.getElementById('test-board')?.remove();
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.id = 'test-board';
  svg.setAttribute('viewBox', '-2 -2 24 24');
  svg.style.width = '600px';
  svg.style.height = '600px';
  for (const name of ['shapes', 'overlays', 'envelope', 'units', 'dests', 'ghost']) {
    const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
    g.id = 'layer-' + name;
    svg.append(g);
  }
  document.body.prepend(svg);
  const view = new board.BoardView(svg);
  view.setScene(scene);
  view.drawUnits(scene.units, selected, null, new Set(highlights));
  window.testBoard = view;
  return true;
}"""


def unit(ident: str, x: float, y: float, **more: Any) -> dict[str, Any]:
    return {
        "id": ident,
        "side": more.pop("side", "A"),
        "side_index": more.pop("side_index", 0),
        "label": ident,
        "x": x,
        "y": y,
        "facing": more.pop("facing", 0),
        "radius": 0.5,
        "mine": more.pop("mine", True),
        "details": {},
        "overlays": more.pop("overlays", []),
        **more,
    }


def scene(units: list[dict[str, Any]], unit_name: str = "inch") -> dict[str, Any]:
    return {
        "width": 20,
        "height": 20,
        "origin": [0, 0],
        "unit_name": unit_name,
        "shapes": [],
        "units": units,
    }


@pytest.fixture
def blank(page: Any, server: Any) -> Any:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    return page


def test_your_own_units_are_never_outlined_as_attackable(blank: Any) -> None:
    """An action of the selected unit may name a unit of ours (a support, an escort):
    only the enemy it names is outlined as a target."""
    units = [
        unit("mine-1", 3, 3),
        unit("mine-2", 8, 3),
        unit("enemy", 14, 3, side="B", side_index=1, mine=False),
    ]
    blank.evaluate(BOARD, [scene(units), "mine-1", ["mine-2", "enemy"]])
    attackable = blank.eval_on_selector_all(
        "#test-board .unit.attackable", "gs => gs.map(g => g.dataset.unit)"
    )
    assert attackable == ["enemy"]


def test_your_cloaked_craft_is_marked(blank: Any) -> None:
    units = [unit("ghosty", 3, 3, marks=["cloaked"]), unit("plain", 9, 3)]
    blank.evaluate(BOARD, [scene(units, "hex"), None, []])
    marked = blank.eval_on_selector_all(
        "#test-board .unit.mark-cloaked",
        "gs => gs.map(g => [g.dataset.unit,"
        " Boolean(g.querySelector('.mark-ring')), g.querySelector('title').textContent])",
    )
    assert len(marked) == 1
    ident, ring, title = marked[0]
    assert ident == "ghosty" and ring and "cloaked" in title


# ---------------------------------------------------------------- item 2: what happened


def test_units_that_moved_leave_a_trail(page: Any, server: Any, furball: str) -> None:
    step, view = step_with(server.url, furball, "trails")
    open_step(page, server.url, furball, step)
    drawn = page.eval_on_selector_all(
        "#layer-recent .trail-mark", "gs => gs.map(g => g.dataset.unit)"
    )
    assert sorted(drawn) == sorted(t["unit"] for t in view["scene"]["recent"]["trails"])
    # each trail runs from where the unit stood to where it stands now
    for trail in view["scene"]["recent"]["trails"]:
        token = next(u for u in view["scene"]["units"] if u["id"] == trail["unit"])
        assert (trail["x2"], trail["y2"]) == (token["x"], token["y"])


def test_attacks_are_drawn_with_hit_and_miss_markers(page: Any, server: Any, furball: str) -> None:
    total = api(server.url, "GET", f"/api/games/{furball}")["version"]
    seen = set()
    for step in range(1, total + 1):
        view = api(server.url, "GET", f"/api/games/{furball}?step={step}")
        attacks = view["scene"]["recent"]["attacks"]
        kinds = {a["hit"] for a in attacks}
        if not attacks or kinds <= seen:
            continue
        seen |= kinds
        open_step(page, server.url, furball, step)
        drawn = page.eval_on_selector_all(
            "#layer-recent .attack-mark",
            "gs => gs.map(g => [g.dataset.attacker, g.dataset.target, g.classList.contains('hit'),"
            " g.classList.contains('miss'), Boolean(g.querySelector('.attack-marker'))])",
        )
        assert sorted(drawn) == sorted(
            [a["attacker"], a["target"], a["hit"], not a["hit"], True] for a in attacks
        )
        if seen == {True, False}:
            break
    assert seen == {True, False}, "the game had no hit and no miss to draw"


def test_destroyed_units_are_drawn_as_wrecks(page: Any, server: Any, furball: str) -> None:
    step, view = step_with(server.url, furball, "wrecks")
    open_step(page, server.url, furball, step)
    wrecks = view["scene"]["recent"]["wrecks"]
    drawn = page.eval_on_selector_all("#layer-recent .wreck", "gs => gs.map(g => g.dataset.unit)")
    assert sorted(drawn) == sorted(w["unit"] for w in wrecks)
    # a wreck is of a unit no longer on the board
    on_board = {u["id"] for u in view["scene"]["units"]}
    assert not on_board & set(drawn)


# ---------------------------------------------------------------- item 3: crowded boards


def label_boxes(page: Any, selector: str = "#layer-units .unit .label") -> list[dict[str, float]]:
    return list(
        page.eval_on_selector_all(
            selector,
            """ls => ls.filter(l => getComputedStyle(l).display !== 'none').map(l => {
                const b = l.getBoundingClientRect();
                return {x0: b.left, x1: b.right, y0: b.top, y1: b.bottom, id: l.textContent}; })""",
        )
    )


def overlapping(boxes: list[dict[str, float]]) -> list[tuple[str, str]]:
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            across = a["x0"] < b["x1"] - 0.5 and b["x0"] < a["x1"] - 0.5
            down = a["y0"] < b["y1"] - 0.5 and b["y0"] < a["y1"] - 0.5
            if across and down:
                out.append((str(a["id"]), str(b["id"])))
    return out


def test_labels_do_not_overlap(page: Any, server: Any) -> None:
    """evo's flights stand in tight formations: every label shown is clear of the others."""
    create_game(
        page,
        server.url,
        "evo",
        "squadron-battle",
        {"Earth Alliance": "human", "Narn Regime": "heuristic"},
        3,
    )
    boxes = label_boxes(page)
    units = page.locator("#layer-units .unit").count()
    assert len(boxes) >= units // 2, (len(boxes), units)
    assert overlapping(boxes) == []


def test_stacked_tokens_are_fanned_out(blank: Any) -> None:
    units = [unit("a", 5, 5), unit("b", 5, 5), unit("c", 5.05, 5), unit("alone", 12, 12)]
    blank.evaluate(BOARD, [scene(units), None, []])
    bases = blank.eval_on_selector_all(
        "#test-board .unit",
        """gs => gs.map(g => { const b = g.querySelector('.base').getBoundingClientRect();
            return [g.dataset.unit, g.dataset.fanned || '',
                    b.x + b.width / 2, b.y + b.height / 2]; })""",
    )
    fanned = {b[0] for b in bases if b[1] == "true"}
    assert fanned == {"a", "b", "c"}
    stack = [b for b in bases if b[0] in fanned]
    for i, p in enumerate(stack):
        for q in stack[i + 1 :]:
            assert math.hypot(p[2] - q[2], p[3] - q[3]) > 10, (p, q)
    assert overlapping(label_boxes(blank, "#test-board .unit .label")) == []


def own_unit_with_arcs(view: dict[str, Any]) -> dict[str, Any]:
    """Of our units, the one with the most distinct weapons drawn as arcs."""
    ours = [u for u in view["scene"]["units"] if u["mine"]]

    def weapons(u: dict[str, Any]) -> int:
        return len({o.get("title", "").split(":")[0] for o in u["overlays"] if o["cls"] == "arc"})

    return max(ours, key=weapons)


def test_weapon_arcs_have_colours_of_their_own_and_a_legend(page: Any, server: Any) -> None:
    create_game(page, server.url, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"}, 3)
    game, token = page.url.split("/game/")[1].split("?token=")
    view = api(server.url, "GET", f"/api/games/{game}?token={token}")
    chosen = own_unit_with_arcs(view)
    names = list(
        dict.fromkeys(o["title"].split(":")[0] for o in chosen["overlays"] if o["cls"] == "arc")
    )
    assert names
    click_unit(page, chosen.get("flight") or chosen["id"])
    page.wait_for_selector("#arc-legend:not([hidden])")
    legend = page.eval_on_selector_all(
        "#arc-legend .entry",
        "es => es.map(e => [e.dataset.weapon, e.querySelector('.swatch').className])",
    )
    assert [name for name, _ in legend] == names
    drawn = page.eval_on_selector_all(
        "#layer-overlays .arc",
        "ns => ns.map(n => [n.dataset.weapon, [...n.classList].find(c => /^arc-\\d$/.test(c)),"
        " getComputedStyle(n).stroke])",
    )
    colour_of: dict[str, set[str]] = {}
    for weapon, cls, stroke in drawn:
        colour_of.setdefault(weapon, set()).add(stroke)
        assert cls in dict(legend)[weapon]
    # one colour per weapon, a different one for each
    assert all(len(c) == 1 for c in colour_of.values())
    assert len({next(iter(c)) for c in colour_of.values()}) == len(colour_of)


def test_the_range_ruler_measures_in_table_inches(page: Any, server: Any) -> None:
    create_game(page, server.url, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"}, 3)
    tokens = page.eval_on_selector_all(
        "#layer-units .unit",
        """gs => gs.map(g => { const b = g.querySelector('.base').getBoundingClientRect();
            return [Number(g.dataset.x), Number(g.dataset.y),
                    b.x + b.width / 2, b.y + b.height / 2]; })""",
    )
    (ax, ay, asx, asy), (bx, by, bsx, bsy) = tokens[0], tokens[-1]
    page.click("#ruler")
    page.mouse.move(asx, asy)
    page.mouse.down()
    page.mouse.move((asx + bsx) / 2, (asy + bsy) / 2)
    page.mouse.move(bsx, bsy)
    page.mouse.up()
    shown = page.get_attribute("#layer-measure .ruler", "data-length") or ""
    assert shown.endswith('"')
    # the screen points are the tokens' centres to within a pixel or so
    assert float(shown[:-1]) == pytest.approx(math.hypot(bx - ax, by - ay), abs=0.25)
    page.keyboard.press("Escape")
    assert page.locator("#layer-measure .ruler").count() == 0


def test_an_enemys_threat_arcs_show_on_hover(page: Any, server: Any) -> None:
    create_game(page, server.url, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"}, 3)
    game, token = page.url.split("/game/")[1].split("?token=")
    view = api(server.url, "GET", f"/api/games/{game}?token={token}")
    enemy = next(
        u
        for u in view["scene"]["units"]
        if not u["mine"] and any(o["cls"] == "arc" for o in u["overlays"])
    )
    assert page.locator("#layer-threat .arc").count() == 0
    page.hover(f'#layer-units .unit[data-unit="{enemy["id"]}"] .base', force=True)
    page.wait_for_selector("#layer-threat .arc")
    arcs = [o for o in enemy["overlays"] if o["cls"] == "arc"]
    assert page.locator("#layer-threat .arc.threat").count() == len(arcs)


# ---------------------------------------------------------------- item 4: previews


def test_the_ghost_shows_its_arcs_from_the_destination(page: Any, server: Any) -> None:
    create_game(page, server.url, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"}, 3)
    game, token = page.url.split("/game/")[1].split("?token=")
    view = api(server.url, "GET", f"/api/games/{game}?token={token}")
    mover = next(
        u
        for u in move_units(page)
        if view["envelopes"].get(u, {}).get("free")
        and any(
            o["cls"] == "arc" for s in view["scene"]["units"] if s["id"] == u for o in s["overlays"]
        )
    )
    click_unit(page, mover)
    point = point_in_envelope(page, mover)
    assert point
    page.mouse.click(*point)
    page.wait_for_selector("#layer-ghost .ghost")
    token_unit = next(s for s in view["scene"]["units"] if s["id"] == mover)
    arcs = [o for o in token_unit["overlays"] if o["cls"] == "arc"]
    assert page.locator("#layer-ghost .ghost-arc").count() == len(arcs)
    # the arcs are drawn round the ghost, not round the unit where it stands
    centre = page.evaluate(
        """() => { const box = (s) => document.querySelector(s).getBoundingClientRect();
            const a = box('#layer-ghost .ghost-arc');
            const g = box('#layer-ghost .ghost .base');
            const u = box('#layer-units .unit.selected .base');
            return [a.x + a.width / 2, a.y + a.height / 2, g.x + g.width / 2, g.y + g.height / 2,
                    u.x + u.width / 2, u.y + u.height / 2, a.width]; }"""
    )
    ax, ay, gx, gy, ux, uy, _ = centre
    if token_unit["overlays"][0]["kind"] == "circle":
        assert math.hypot(ax - gx, ay - gy) < math.hypot(ax - ux, ay - uy)


LINE_OF_FIRE = """async ([ghost, enemies, at]) => {
  const view = window.testBoard;
  view.drawGhost(ghost, at[0], at[1], at[2]);
  return view.drawGhostOverlays(ghost, at[0], at[1], at[2], enemies);
}"""


def test_the_ghost_draws_lines_of_fire_to_enemies_in_its_arcs(blank: Any) -> None:
    """A forward 90-degree arc of 6": moved to (10, 10) facing east, it takes in the
    enemy 4" east of there and not the one 4" north."""
    arc = {
        "kind": "wedge",
        "cls": "arc",
        "title": "Gun: front, 6",
        "x": 2,
        "y": 18,
        "r": 6,
        "start": -45,
        "end": 45,
    }
    ghost = unit("mine", 2, 18, overlays=[arc])
    east = unit("east", 14, 10, side="B", side_index=1, mine=False)
    north = unit("north", 10, 6, side="B", side_index=1, mine=False)
    blank.evaluate(BOARD, [scene([ghost, east, north]), "mine", []])
    in_line = blank.evaluate(LINE_OF_FIRE, [ghost, [east, north], [10, 10, 90]])
    assert in_line == ["east"]
    assert blank.eval_on_selector_all(
        "#test-board .line-of-fire", "ls => ls.map(l => l.dataset.target)"
    ) == ["east"]


def test_an_sfa_click_near_a_hex_edge_takes_that_hex(page: Any, server: Any) -> None:
    create_game(page, server.url, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"}, 3)
    stop = time.monotonic() + 60
    while not page.locator("#layer-envelope .envelope-free").count():
        assert time.monotonic() < stop, "no move on the board came"
        page.wait_for_function("() => document.body.dataset.yourTurn === 'true'")
        units = move_units(page)
        if units:
            click_unit(page, units[0])
            page.wait_for_selector(f'#layer-units [data-key="{units[0]}"].selected')
            if page.locator("#layer-envelope .envelope-free").count():
                break
        from .driver import CALM, click_any_action

        click_any_action(page, CALM)
    # a point just outside a reachable cell, on its border's stroke (which the browser
    # counts as the cell), over a hex next door that the move cannot reach
    point = page.evaluate(
        """() => {
          const cells = [...document.querySelectorAll('#layer-envelope .envelope-free')];
          const svg = document.getElementById('board');
          const m = svg.getScreenCTM();
          const centres = cells.map(cell => {
            const pts = cell.getAttribute('points').split(' ')
              .map(p => p.split(',').map(Number));
            return [pts, pts.reduce((s, p) => s + p[0], 0) / 6,
                    pts.reduce((s, p) => s + p[1], 0) / 6];
          });
          const reachable = (x, y) =>
            centres.some(([, cx, cy]) => Math.hypot(cx - x, cy - y) < 0.2);
          const screen = (x, y) => {
            const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(m); };
          for (let i = 0; i < cells.length; i++) {
            const [pts, cx, cy] = centres[i];
            for (let k = 0; k < 6; k++) {
              const [a, b] = [pts[k], pts[(k + 1) % 6]];
              const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
              // the hex beyond this side is not reachable
              if (reachable(2 * mx - cx, 2 * my - cy)) continue;
              const e = screen(mx, my);
              // whole pixels (a click lands on one) round the side's midpoint
              for (let dx = -2; dx <= 2; dx++) for (let dy = -2; dy <= 2; dy++) {
                const sx = Math.round(e.x) + dx, sy = Math.round(e.y) + dy;
                const hits = document.elementsFromPoint(sx, sy);
                if (hits.find(h => h.classList.contains('envelope-free')) !== cells[i]) continue;
                if (hits[0].closest('#layer-units')) continue;
                const b = svg.createSVGPoint();
                const inv = m.inverse();
                b.x = sx; b.y = sy;
                const q = b.matrixTransform(inv);
                // outside the cell's own fill: on its border only
                if (cells[i].isPointInFill(q)) continue;
                return [sx, sy];
              }
            }
          }
          return null;
        }"""
    )
    assert point, "no reachable hex to click near its edge"
    page.mouse.click(*point)
    page.wait_for_selector("#move-panel:not([hidden])")
    act(page, lambda: page.click("#move-here"))


def test_envelopes_leave_out_points_the_rules_refuse(page: Any, server: Any) -> None:
    """acta fighters may not stack (ACTA-FTR-3): the envelope shows the discs round the
    other fighters as holes, and a click in one chooses nothing."""
    create_game(page, server.url, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"}, 3)
    game, token = page.url.split("/game/")[1].split("?token=")
    view = api(server.url, "GET", f"/api/games/{game}?token={token}")
    mover, envelope = next(
        (u, e)
        for u, e in view["envelopes"].items()
        if e["free"] and any(s["cls"] == "blocked" for s in e["shapes"])
    )
    holes = [s for s in envelope["shapes"] if s["cls"] == "blocked"]
    click_unit(page, mover)
    page.wait_for_selector("#layer-envelope .envelope-blocked")
    drawn = page.eval_on_selector_all(
        "#layer-envelope .envelope-blocked",
        "ns => ns.map(n => [Number(n.getAttribute('cx')), Number(n.getAttribute('cy'))])",
    )
    assert sorted(drawn) == sorted([h["x"], h["y"]] for h in holes)
    # a screen point inside a hole, on no token, over the envelope
    point = page.evaluate(
        """() => {
          for (const hole of document.querySelectorAll('#layer-envelope .envelope-blocked')) {
            const b = hole.getBoundingClientRect();
            for (const [fx, fy] of [[0.5, 0.15], [0.15, 0.5], [0.85, 0.5], [0.5, 0.85]]) {
              const x = b.x + b.width * fx, y = b.y + b.height * fy;
              const hits = document.elementsFromPoint(x, y);
              if (hits[0] !== hole) continue;
              if (!hits.some(h => h.classList.contains('envelope-free'))) continue;
              return [x, y];
            }
          }
          return null;
        }"""
    )
    assert point, "no hole lies over the envelope clear of the tokens"
    page.mouse.click(*point)
    page.wait_for_timeout(200)
    assert page.locator("#move-panel").is_hidden()
    # elsewhere in the envelope a click still chooses a move
    free = point_in_envelope(page, mover)
    assert free
    page.mouse.click(*free)
    page.wait_for_selector("#move-panel:not([hidden])")


def seat_view(page: Any, base: str) -> dict[str, Any]:
    game, token = page.url.split("/game/")[1].split("?token=")
    return dict(api(base, "GET", f"/api/games/{game}?token={token}"))


def test_evo_shows_the_drift_before_activate_and_the_whole_flight_moving(
    page: Any, server: Any
) -> None:
    from .driver import CALM, click_any_action, wait_turn

    create_game(
        page,
        server.url,
        "evo",
        "skirmish",
        {"Earth Alliance": "human", "Narn Regime": "heuristic"},
        2,
    )
    stop = time.monotonic() + 60
    while True:
        assert time.monotonic() < stop and wait_turn(page), "no Activate came"
        view = seat_view(page, server.url)
        activate = next((a for a in view["actions"] if a.get("preview")), None)
        if activate:
            break
        click_any_action(page, CALM)
    # the inertia drift: a ghost of each model where the drift leaves it
    click_unit(page, activate["unit"])
    page.wait_for_selector("#layer-preview .unit.drift-ghost .base")
    drawn = page.eval_on_selector_all(
        "#layer-preview .unit.drift-ghost",
        "gs => gs.map(g => [g.dataset.unit, Number(g.dataset.x), Number(g.dataset.y)])",
    )
    assert sorted(drawn) == sorted([p["unit"], p["x"], p["y"]] for p in activate["preview"])
    act(
        page, lambda: page.click(f'#actions button.action[data-action-index="{activate["index"]}"]')
    )
    # after it, the manoeuvre: the whole flight in command moves with the ghost
    wait_turn(page)
    view = seat_view(page, server.url)
    flight = activate["unit"]
    envelope = view["envelopes"].get(flight)
    assert envelope, "the activated flight has no manoeuvre on offer"
    if not page.locator(f'#layer-units [data-key="{flight}"].selected').count():
        click_unit(page, flight)
    point = point_in_envelope(page, flight)
    assert point
    page.mouse.click(*point)
    page.wait_for_selector("#move-panel:not([hidden])")
    ghosts = page.eval_on_selector_all(
        "#layer-preview .unit.flight-ghost", "gs => gs.map(g => g.dataset.unit)"
    )
    assert sorted(ghosts) == sorted(envelope["moves_with"])
    assert envelope["moves_with"], "the flight has no other model in command"
