"""Browser tests of the page's other controls: uploads in the lobby, the spectator's
link, undo, zoom and pan, opening a game file, review and the log's filters.

What the page shows is compared with what the server's API says, never with numbers
written into the test.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from dogfight.core.gamefile import save_game
from dogfight.core.scenario import load_scenario
from dogfight.sim.runner import play_battle

from .driver import (
    CALM,
    CHROMIUM,
    act,
    click_any_action,
    click_unit,
    create_game,
    move_on_board,
    move_units,
    point_in_envelope,
    version,
    wait_turn,
)

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (CI installs Debian's chromium)"
)

FURBALL = Path(__file__).resolve().parents[2] / "src/dogfight/data/acta/scenarios/furball.yaml"
ACTA_SEATS = {"Empire": "human", "Klingon": "heuristic"}


def api(base: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """Call the server directly: (status, JSON reply)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def game_and_token(page: Any) -> tuple[str, str | None]:
    """The game id and seat token of the page's address."""
    url = page.url.split("?")
    game = url[0].rstrip("/").split("/")[-1]
    token = url[1].split("token=")[1].split("&")[0] if len(url) > 1 and "token=" in url[1] else None
    return game, token


def upload(page: Any, text: str, name: str = "mine.yaml") -> None:
    page.select_option("#scenario", "__upload__")
    page.set_input_files(
        "#scenario-file",
        files=[{"name": name, "mimeType": "text/yaml", "buffer": text.encode()}],
    )


def test_a_bad_scenario_upload_shows_the_servers_line(page: Any, server: Any) -> None:
    broken = FURBALL.read_text().replace("type: wasp", "type: no-such-fighter", 1)
    status, reply = api(
        server.url,
        "POST",
        "/api/games",
        {
            "ruleset": "acta",
            "scenario": None,
            "scenario_text": broken,
            "seats": ACTA_SEATS,
            "options": {},
            "seed": 1,
        },
    )
    assert status == 422
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ruleset", "acta")
    upload(page, broken)
    # The server reads the file as soon as it is chosen: its line shows before Create.
    page.wait_for_selector("#error:not([hidden])")
    assert page.text_content("#error") == reply["error"]
    assert page.locator("#seat-rows select").count() == 0
    page.click("#create")
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#created").is_hidden()


def test_an_uploaded_scenario_gets_its_own_seats(page: Any, server: Any) -> None:
    text = (
        FURBALL.read_text()
        .replace("name: Empire", "name: Blue")
        .replace("name: Klingon", "name: Red")
    )
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ruleset", "acta")
    upload(page, text)
    page.wait_for_selector('#seat-rows select[data-side="Red"]')
    sides = page.eval_on_selector_all("#seat-rows select", "ss => ss.map(s => s.dataset.side)")
    assert sides == ["Blue", "Red"]
    page.select_option('#seat-rows select[data-side="Red"]', "random")
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    assert page.locator("#seat-links a.seat-link").count() == 1
    page.click('button.play-as[data-side="Blue"]')
    page.wait_for_url("**/game/**")
    page.wait_for_selector("body[data-ready=true]")
    assert page.text_content("#seat") == "Blue"
    game, token = game_and_token(page)
    _, view = api(server.url, "GET", f"/api/games/{game}?token={token}")
    assert view["seats"] == {"Blue": "human", "Red": "random"}


def test_options_start_at_their_documented_defaults(page: Any, server: Any) -> None:
    _, rulesets = api(server.url, "GET", "/api/rulesets")
    evo = next(r for r in rulesets if r["name"] == "evo")
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ruleset", "evo")
    for option in evo["options"]:
        field = page.locator(f'[data-option="{option["name"]}"]')
        if isinstance(option["default"], bool):
            assert field.is_checked() == option["default"]
        elif option["choices"]:
            assert field.input_value() == option["default"]
        else:
            assert float(field.input_value()) == float(option["default"])


def test_spectator_sees_the_board_and_no_actions(page: Any, server: Any) -> None:
    create_game(page, server.url, "acta", "furball", ACTA_SEATS, seed=5)
    game, _ = game_and_token(page)
    page.goto(f"{server.url}/game/{game}")
    page.wait_for_selector("body[data-ready=true]")
    _, view = api(server.url, "GET", f"/api/games/{game}")
    assert page.text_content("#seat") == "spectator"
    assert page.locator("#actions button.action").count() == 0
    assert page.locator("#layer-units .unit").count() == len(view["scene"]["units"])
    assert page.locator("#layer-units .unit.mine").count() == 0
    assert page.locator("#filter-mine").is_disabled()
    assert page.locator("#undo").is_hidden()


def test_undo_takes_back_a_move_made_on_the_board(page: Any, server: Any) -> None:
    create_game(page, server.url, "acta", "furball", ACTA_SEATS, seed=5)
    # on to the fighters' movement (the choices before it roll no dice either)
    while wait_turn(page) and not move_units(page):
        click_any_action(page, CALM)
    before = version(page)
    places = page.eval_on_selector_all(
        "#layer-units .unit", "gs => gs.map(g => [g.dataset.unit, g.dataset.x, g.dataset.y])"
    )
    assert move_on_board(page)
    assert (
        page.eval_on_selector_all(
            "#layer-units .unit", "gs => gs.map(g => [g.dataset.unit, g.dataset.x, g.dataset.y])"
        )
        != places
    )
    assert page.locator("#undo").is_visible()
    act(page, lambda: page.click("#undo"))
    assert version(page) == before
    assert (
        page.eval_on_selector_all(
            "#layer-units .unit", "gs => gs.map(g => [g.dataset.unit, g.dataset.x, g.dataset.y])"
        )
        == places
    )


def view_box(page: Any) -> list[float]:
    return [float(v) for v in (page.get_attribute("#board", "viewBox") or "").split()]


def test_zoom_pan_and_fit(page: Any, server: Any) -> None:
    create_game(
        page, server.url, "evo", "skirmish", {"Earth Alliance": "human", "Narn Regime": "random"}, 3
    )
    fitted = view_box(page)
    page.click("#zoom-in")
    zoomed = view_box(page)
    assert zoomed[2] == pytest.approx(fitted[2] / 1.25, rel=1e-3)
    box = page.locator("#board").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -200)
    page.wait_for_function(
        "(w) => Number(document.getElementById('board').getAttribute('viewBox').split(' ')[2]) < w",
        arg=zoomed[2],
    )
    wheeled = view_box(page)
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 40, cy + 30, steps=4)
    page.mouse.up()
    panned = view_box(page)
    assert panned[2:] == wheeled[2:]
    assert panned[0] < wheeled[0] and panned[1] < wheeled[1]
    page.click("#fit")
    assert view_box(page) == pytest.approx(fitted)


@pytest.fixture(scope="module")
def finished_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = play_battle(load_scenario("furball"), seed=4, players={"Klingon": "random"})
    assert game.is_over()
    return save_game(game, tmp_path_factory.mktemp("files") / "furball.json")


def turn_text(view: dict[str, Any]) -> str:
    """The status bar's turn, as the page words it (issue 16 item 7): "3 of 8"."""
    return f"{view['turn']} of {view['turn_limit']}" if view["turn_limit"] else str(view["turn"])


def open_for_review(page: Any, server: Any, path: Path) -> tuple[str, str | None]:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.set_input_files("#open-file", str(path))
    page.wait_for_selector('#open-seat-rows select[data-side="Klingon"]')
    page.select_option('#open-seat-rows select[data-side="Klingon"]', "heuristic")
    page.click("#open-game")
    page.wait_for_selector("#created:not([hidden])")
    page.click('button.play-as[data-side="Empire"]')
    page.wait_for_url("**/game/**")
    page.wait_for_selector("body[data-ready=true]")
    return game_and_token(page)


def test_a_finished_game_file_opens_for_review(page: Any, server: Any, finished_file: Path) -> None:
    game, token = open_for_review(page, server, finished_file)
    _, final = api(server.url, "GET", f"/api/games/{game}?token={token}")
    assert final["over"]
    assert page.locator("#outcome").is_visible()
    assert page.get_attribute("#review-step", "max") == str(final["version"])
    # Issue 16 item 5: the end of the game says who has what left.
    assert page.locator("#summary").is_visible()
    for row in final["summary"]["sides"]:
        cells = page.locator(f'#summary-rows tr[data-side="{row["side"]}"] td').all_text_contents()
        assert cells[1] == f"{row['survivors']} of {row['fielded']}"
        assert cells[3] == str(row["kills"])
    assert page.text_content("#summary-turns").startswith(f"{final['summary']['turns']} turn")
    assert "/file" in (page.get_attribute("#summary-download", "href") or "")

    page.click("#review-first")
    page.wait_for_function("() => document.getElementById('outcome').hidden")
    _, start = api(server.url, "GET", f"/api/games/{game}?token={token}&step=0")
    assert page.text_content("#turn") == turn_text(start)
    drawn = page.eval_on_selector_all(
        "#layer-units .unit",
        "gs => gs.map(g => [g.dataset.unit, Number(g.dataset.x), Number(g.dataset.y)])",
    )
    assert drawn == [[u["id"], u["x"], u["y"]] for u in start["scene"]["units"]]
    assert page.locator("#review-prev").is_disabled()

    page.click("#review-next-turn")
    page.wait_for_function(
        "(t) => document.getElementById('turn').textContent !== t", arg=turn_text(start)
    )
    step = int(page.input_value("#review-step"))
    _, here = api(server.url, "GET", f"/api/games/{game}?token={token}&step={step}")
    _, before = api(server.url, "GET", f"/api/games/{game}?token={token}&step={step - 1}")
    # the first step of the next turn: one step back is still the turn before
    assert here["turn"] == start["turn"] + 1
    assert before["turn"] == start["turn"]
    assert page.text_content("#turn") == turn_text(here)

    page.click("#review-end")
    page.wait_for_selector("#outcome:not([hidden])")
    assert page.text_content("#review-label").startswith(
        f"step {final['version']} of {final['version']}"
    )


def test_log_filters_and_download(page: Any, server: Any, finished_file: Path) -> None:
    game, token = open_for_review(page, server, finished_file)
    _, view = api(server.url, "GET", f"/api/games/{game}?token={token}")
    log = view["log"]
    shown = "ls => ls.filter(l => !l.hidden).map(l => Number(l.dataset.seq))"
    assert page.eval_on_selector_all("#log li", shown) == [e["seq"] for e in log]
    hits = [e["seq"] for e in log if e["hit"]]
    mine = [e["seq"] for e in log if e["side"] == "Empire"]
    assert hits and mine and len(hits) < len(log) and len(mine) < len(log)
    page.check("#filter-hits")
    assert page.eval_on_selector_all("#log li", shown) == hits
    page.check("#filter-mine")
    assert page.eval_on_selector_all("#log li", shown) == mine
    page.check("#filter-enemy")
    enemy = [e["seq"] for e in log if e["side"] and e["side"] != "Empire"]
    assert enemy and page.eval_on_selector_all("#log li", shown) == enemy

    link = page.get_attribute("#download", "href") or ""
    reply = page.request.get(server.url + link)
    assert reply.ok
    saved = reply.json()
    original = json.loads(finished_file.read_text())
    assert saved["format"] == "dogfight-game"
    assert saved["actions"] == original["actions"]


def test_a_spectator_may_download_a_finished_game_at_any_review_step(
    page: Any, server: Any, finished_file: Path
) -> None:
    """Anyone may download a finished game (docs/web-api.md), so the link stays while a
    spectator steps back to a position where the game was not over yet."""
    status, opened = api(
        server.url, "POST", "/api/games/open", json.loads(finished_file.read_text())
    )
    assert status == 201
    page.goto(server.url + opened["spectator"])
    page.wait_for_selector("body[data-ready=true]")
    assert page.text_content("#seat") == "spectator"
    assert page.locator("#download").is_visible()
    page.click("#review-first")
    page.wait_for_function("() => document.getElementById('outcome').hidden")
    assert page.locator("#download").is_visible()
    reply = page.request.get(server.url + (page.get_attribute("#download", "href") or ""))
    assert reply.ok
    assert reply.json()["actions"] == json.loads(finished_file.read_text())["actions"]


def test_a_second_person_joins_through_the_link(page: Any, browser: Any, server: Any) -> None:
    """Two people: each page offers actions only on its own turn and picks up the
    other's move by polling."""
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ruleset", "acta")
    page.select_option("#scenario", "furball")
    page.select_option('#seat-rows select[data-side="Empire"]', "human")
    page.select_option('#seat-rows select[data-side="Klingon"]', "human")
    page.fill("#seed", "9")
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    empire = page.get_attribute('a.seat-link[data-side="Empire"]', "href")
    klingon = page.get_attribute('a.seat-link[data-side="Klingon"]', "href")
    assert empire and klingon and empire != klingon
    other = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        second = other.new_page()
        second.set_default_timeout(15_000)
        page.goto(empire)
        second.goto(klingon)
        for each in (page, second):
            each.wait_for_selector("body[data-ready=true]")
        assert (page.text_content("#seat"), second.text_content("#seat")) == ("Empire", "Klingon")
        for _ in range(3):
            # whose turn the view says (the mover's page may still be playing back the
            # other's last move, and offers its actions once that ends)
            empire_moves = not page.locator("#waiting").is_visible()
            mover, waiter = (page, second) if empire_moves else (second, page)
            assert waiter.locator("#actions button.action").count() == 0
            assert waiter.locator("#waiting").is_visible()
            assert wait_turn(mover)
            before = version(waiter)
            click_any_action(mover, CALM)
            # the waiting page polls and redraws with the new version
            waiter.wait_for_function(
                "(v) => document.body.dataset.version !== v", arg=before, timeout=10_000
            )
            assert version(waiter) == version(mover)
    finally:
        other.close()


def test_a_damaged_game_file_shows_the_servers_line(page: Any, server: Any) -> None:
    damaged = json.dumps({"format": "dogfight-game", "format_version": 99, "actions": []})
    request = urllib.request.Request(
        server.url + "/api/games/open",
        data=damaged.encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 422
    expected = json.loads(refused.value.read())["error"]
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.set_input_files(
        "#open-file",
        files=[{"name": "old.json", "mimeType": "application/json", "buffer": damaged.encode()}],
    )
    page.click("#open-game")
    page.wait_for_selector("#error:not([hidden])")
    assert page.text_content("#error") == expected
    assert page.locator("#created").is_hidden()


def test_the_end_facing_is_set_by_dragging_the_ghost(page: Any, server: Any) -> None:
    create_game(page, server.url, "acta", "furball", ACTA_SEATS, seed=5)
    while wait_turn(page) and not move_units(page):
        click_any_action(page, CALM)
    unit = move_units(page)[0]
    click_unit(page, unit)
    spot = point_in_envelope(page, unit)
    assert spot
    page.mouse.click(*spot)
    ghost = page.locator("#layer-ghost .ghost .base").bounding_box()
    assert ghost
    gx, gy = ghost["x"] + ghost["width"] / 2, ghost["y"] + ghost["height"] / 2
    # drag from the ghost to a point straight to its right: facing 90 (east)
    page.mouse.move(gx, gy)
    page.mouse.down()
    page.mouse.move(gx + 30, gy + 30, steps=3)
    page.mouse.move(gx + 80, gy, steps=3)
    page.mouse.up()
    # the panel says the heading as the log will: anticlockwise from east (issue 16 item 1)
    assert page.text_content("#facing-value") == "0°"
    assert "rotate(90)" in (page.get_attribute("#layer-ghost .ghost .pointer", "transform") or "")
    page.keyboard.press("ArrowRight")  # 15 degrees on
    assert page.text_content("#facing-value") == "345°"  # 0-359, as the log says it
    act(page, lambda: page.click("#move-here"))
    moved = page.get_attribute(f'#layer-units [data-unit="{unit}"]', "data-facing")
    assert float(moved or "nan") == pytest.approx(105, abs=0.5)


def test_a_wrong_link_shows_one_line(page: Any, server: Any) -> None:
    create_game(page, server.url, "acta", "furball", ACTA_SEATS, seed=5)
    game, _ = game_and_token(page)
    for path in ("/game/no-such-game", f"/game/{game}?token=not-the-token"):
        status, reply = api(server.url, "GET", "/api/games/" + path.removeprefix("/game/"))
        assert status in (403, 404)
        page.goto(server.url + path)
        page.wait_for_selector("#error:not([hidden])")
        assert page.text_content("#error") == reply["error"]
        assert page.locator("#layer-units .unit").count() == 0


def test_an_upload_in_a_flow_list_gets_its_seats_from_the_server(page: Any, server: Any) -> None:
    """Issue 16 item 6: a spelling the page's old reader misread (a flow list, quotes)."""
    text = (
        "name: flow\nruleset: sfa\nmap: {width: 16, height: 12}\n"
        "sides: [{name: 'Blue Team', craft: [{id: B1, type: rebel-fighter, at: [3, 4]}]},"
        ' {name: "Re\\u0064", craft: [{id: R1, type: alien-disk-fighter, at: [12, 4]}]}]\n'
    )
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ruleset", "sfa")
    upload(page, text)
    page.wait_for_selector('#seat-rows select[data-side="Red"]')
    sides = page.eval_on_selector_all("#seat-rows select", "ss => ss.map(s => s.dataset.side)")
    assert sides == ["Blue Team", "Red"]


def test_create_is_in_view_with_the_rule_options_folded(page: Any, server: Any) -> None:
    """Issue 16 items 6 and 9: acta's 22 options sit under "Rule options"; the computer
    is offered by difficulty."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#ruleset", "acta")
    create = page.locator("#create").bounding_box()
    assert create is not None and create["y"] + create["height"] <= 800
    assert page.locator('[data-option="dogfight_tie"]').is_hidden()
    assert "Rule options (22" in page.text_content("#rule-options-summary")
    page.click("#rule-options-summary")
    assert page.locator('[data-option="dogfight_tie"]').is_visible()
    labels = page.eval_on_selector_all(
        "#seat-rows select:first-of-type option", "os => os.map(o => o.textContent)"
    )
    assert "Person" in labels
    assert "Computer: Easy (random)" in labels and "Computer: Normal (heuristic)" in labels


def test_my_games_lists_the_seats_this_browser_holds(page: Any, server: Any) -> None:
    """Issue 16 item 6: a player comes back to a game from the lobby."""
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("() => localStorage.clear()")
    create_game(page, server.url, "acta", "furball", ACTA_SEATS, seed=12)
    game, token = game_and_token(page)
    assert page.title().startswith("● Your turn")
    page.goto(server.url + "/")
    page.wait_for_selector(f'#my-games-list li[data-game="{game}"][data-status="your turn"]')
    link = page.get_attribute(f'#my-games-list li[data-game="{game}"] a.resume', "href")
    assert link == f"/game/{game}?token={token}"
    page.click(f'#my-games-list li[data-game="{game}"] button.forget')
    assert page.locator(f'#my-games-list li[data-game="{game}"]').count() == 0
    assert page.locator("#my-games").is_hidden()


def test_a_background_page_is_told_when_its_turn_comes(browser: Any, server: Any) -> None:
    """Issue 16 item 6: a notification while the page is in the background."""
    context = browser.new_context()
    context.add_init_script(
        """Object.defineProperty(document, 'hidden', { get: () => true });
        window.__notices = [];
        window.Notification = class { constructor(title, options) {
          window.__notices.push([title, options.body]); } };
        window.Notification.permission = 'granted';"""
    )
    page = context.new_page()
    try:
        sfa = {"Rebels": "human", "Aliens": "human"}
        create_game(page, server.url, "sfa", "fighter-duel", sfa, seed=3)
        notices = page.evaluate("() => window.__notices")
        assert notices == [["dogfight: your turn", "Fighter Duel"]]
    finally:
        context.close()
