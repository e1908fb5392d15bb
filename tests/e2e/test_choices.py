"""Browser tests of two choices the page must offer as the server lists them: an evo
flight's end facing, which the move sets (so the page offers no facing control), and an
sfa secret selection, one form per actor whose parts combine only into listed actions."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .driver import (
    CALM,
    CHROMIUM,
    act,
    click_any_action,
    click_unit,
    create_game,
    move_units,
    point_in_envelope,
    wait_turn,
)
from .test_page import api, game_and_token

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (CI installs Debian's chromium)"
)


def seat_view(page: Any, server: Any) -> dict[str, Any]:
    """The page's seat view, straight from the API."""
    game, token = game_and_token(page)
    status, view = api(server.url, "GET", f"/api/games/{game}?token={token}")
    assert status == 200, view
    return dict(view)


def angle_gap(a: float, b: float) -> float:
    gap = abs(a - b) % 360.0
    return min(gap, 360.0 - gap)


def shown_facing(page: Any) -> float:
    """The facing the move panel shows, as a board facing (clockwise from up): the panel
    words it as the log does, a table heading anticlockwise from east (issue 16 item 1)."""
    found = re.search(r"facing (-?\d+)°", page.text_content("#move-where") or "")
    assert found, page.text_content("#move-where")
    return (90.0 - float(found.group(1))) % 360.0


def test_an_evo_move_offers_no_facing_and_shows_the_one_it_sets(page: Any, server: Any) -> None:
    create_game(
        page, server.url, "evo", "skirmish", {"Earth Alliance": "human", "Narn Regime": "random"}, 3
    )
    while wait_turn(page) and not move_units(page):
        click_any_action(page, CALM)
    flight = move_units(page)[0]
    assert seat_view(page, server)["envelopes"][flight]["facing"] == "set_by_move"
    click_unit(page, flight)
    spot = point_in_envelope(page, flight)
    assert spot
    page.mouse.click(*spot)
    page.wait_for_selector("#move-panel:not([hidden])")
    # no end-facing control: the slider's row is hidden, the hint says why
    assert page.locator("#facing-row").is_hidden()
    assert "sets its end facing" in (page.text_content("#move-hint") or "")
    pointer = "#layer-ghost .ghost .pointer"
    turned = page.get_attribute(pointer, "transform")
    facing = shown_facing(page)
    # neither the arrow keys nor dragging the ghost turn it
    page.keyboard.press("ArrowRight")
    ghost = page.locator("#layer-ghost .ghost .base").bounding_box()
    assert ghost
    gx, gy = ghost["x"] + ghost["width"] / 2, ghost["y"] + ghost["height"] / 2
    page.mouse.move(gx, gy)
    page.mouse.down()
    page.mouse.move(gx + 60, gy + 40, steps=3)
    page.mouse.up()
    assert page.get_attribute(pointer, "transform") == turned
    assert shown_facing(page) == facing
    leader = page.get_attribute("#layer-ghost .ghost", "data-unit")
    act(page, lambda: page.click("#move-here"))
    # the facing shown is the one the course change gave the leading model (a base
    # nudged off another may end a little askew, hence the tolerance)
    moved = page.get_attribute(f'#layer-units [data-unit="{leader}"]', "data-facing")
    assert angle_gap(float(moved or "nan"), facing) <= 2.0


def test_an_sfa_selection_is_one_form_per_actor_sending_a_listed_action(
    page: Any, server: Any
) -> None:
    create_game(page, server.url, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"}, 7)
    assert wait_turn(page)
    view = seat_view(page, server)
    selects = [a for a in view["actions"] if a["kind"] == "Select"]
    assert selects and all(a["group"] == "secret" for a in selects)
    actors = sorted({a["choice"]["actor"] for a in selects})
    forms = page.locator("#actions form.selection-form")
    assert sorted(forms.evaluate_all("fs => fs.map(f => f.dataset.actor)")) == actors
    assert page.locator('#actions [data-group="speed"]').count() == 0
    for i in range(forms.count()):
        assert forms.nth(i).locator('button[type="submit"]').count() == 1

    actor = actors[0]
    own = [a for a in selects if a["choice"]["actor"] == actor]
    form = page.locator(f'#actions form.selection-form[data-actor="{actor}"]')
    what, speed = form.locator("select.choice-what"), form.locator("select.choice-speed")
    whats = list(dict.fromkeys(a["choice"]["what"] for a in own))
    assert what.locator("option").all_text_contents() == whats
    # every action's speed dice are offered with it, and only those
    for name in whats:
        what.select_option(label=name)
        offered = speed.locator("option").evaluate_all("os => os.map(o => Number(o.value))")
        assert offered == sorted(
            a["choice"]["speed_dice"] for a in own if a["choice"]["what"] == name
        )
    traded = max(own, key=lambda a: a["choice"]["speed_dice"])
    assert traded["choice"]["speed_dice"] > 0
    what.select_option(label=traded["choice"]["what"])
    speed.select_option(str(traded["choice"]["speed_dice"]))
    # redrawing the page (choosing the craft on the board) keeps what was chosen
    click_unit(page, actor.split("#")[0])
    page.wait_for_selector("#selection:not([hidden])")
    assert what.input_value() == traded["choice"]["what"]
    assert speed.input_value() == str(traded["choice"]["speed_dice"])
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/actions")) as sent:
        act(page, form.locator('button[type="submit"]').click)
    body = sent.value.post_data_json
    assert body["index"] == traded["index"] and body["version"] == view["version"]
    status = page.locator(f'#units button.unit-button[data-unit="{actor.split("#")[0]}"]')
    assert f"+{traded['choice']['speed_dice']} Speed" in (status.text_content() or "")
    assert page.page_errors == []
