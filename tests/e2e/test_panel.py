"""Browser tests of the side panel and the log (issue 16 items 2, 5, 7, 9): the
computer's actions shown one at a time at a chosen speed with the last action's lines
highlighted, the computer's "why?", units named in words, the Speed an sfa selection
gives, and the end-of-game panel."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .driver import CHROMIUM, click_any_action, create_game, wait_turn
from .test_page import api, game_and_token

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (CI installs Debian's chromium)"
)

ACTOR_ID = re.compile(r"\b[A-Z]+\d+#\d+\b")
"""An sfa actor key (`R1#0`): never shown to people."""

RECORD_HIGHLIGHTS = """() => {
  // every change of the highlighted action, with the lines shown then
  window.highlights = [];
  const log = document.getElementById('log');
  const note = () => {
    const lit = [...log.querySelectorAll('li.last-action')];
    const steps = [...new Set(lit.map(li => li.dataset.step))];
    const key = steps.join(',');
    const prev = window.highlights[window.highlights.length - 1];
    if (prev && prev.key === key) return;
    window.highlights.push({key, steps, by: lit.map(li => li.dataset.by),
      shown: log.children.length, playing: document.body.dataset.playing});
  };
  new MutationObserver(note).observe(log, {childList: true});
}"""


def seat_view(page: Any, server: Any) -> dict[str, Any]:
    game, token = game_and_token(page)
    status, view = api(server.url, "GET", f"/api/games/{game}?token={token}")
    assert status == 200, view
    return dict(view)


def test_the_computers_actions_show_one_at_a_time_with_the_last_highlighted(
    page: Any, server: Any
) -> None:
    create_game(page, server.url, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"}, 7)
    page.select_option("#play-speed", "fast")
    page.evaluate(RECORD_HIGHLIGHTS)
    played = False
    for _ in range(30):
        assert wait_turn(page)
        click_any_action(page)
        page.wait_for_function("() => document.body.dataset.playing !== 'true'")
        runs = page.evaluate("() => window.highlights")
        klingon = [h for h in runs if h["playing"] == "true" and set(h["by"]) == {"Klingon"}]
        if len({h["key"] for h in klingon}) >= 2:
            played = True
            break
    assert played, "the computer never took two actions in a row"
    # each highlight while playing is one action of the computer's, shown in order, the
    # lines shown growing with each
    steps = [int(h["steps"][0]) for h in klingon]
    assert all(len(h["steps"]) == 1 for h in klingon)
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    shown = [h["shown"] for h in klingon]
    assert shown == sorted(shown) and shown[0] < shown[-1]
    # once played (the computer may still be answering the last action taken: its
    # turn is waited for), the whole log is there, its last action highlighted and in view
    assert wait_turn(page)
    page.wait_for_function("() => document.body.dataset.playing !== 'true'")
    view = seat_view(page, server)
    last = max(e["step"] for e in view["log"] if e["step"] is not None)
    assert page.locator("#log li").count() == len(view["log"])
    highlighted = page.locator("#log li.last-action")
    assert highlighted.count() == sum(1 for e in view["log"] if e["step"] == last)
    assert highlighted.last.is_visible()
    at_end = page.evaluate(
        "() => { const l = document.getElementById('log');"
        " return l.scrollHeight - l.scrollTop - l.clientHeight < 40; }"
    )
    assert at_end
    # the speed is kept for the next page
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.input_value("#play-speed") == "fast"
    assert page.page_errors == []


def test_the_why_toggle_shows_the_candidates_the_computer_weighed(page: Any, server: Any) -> None:
    create_game(page, server.url, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"}, 7)
    assert page.locator("#log button.why").count() == 0
    page.check("#why-toggle")
    button = page.locator('#log li[data-by="Klingon"] button.why').first
    button.wait_for()
    # only the computer's decisions have a why
    assert page.locator('#log li[data-by="Empire"] button.why').count() == 0
    step = int(button.get_attribute("data-step") or "-1")
    button.click()
    panel = page.locator("#why-panel")
    panel.wait_for(state="visible")
    page.wait_for_function(
        "(step) => document.getElementById('why-panel').dataset.step === String(step)", arg=step
    )
    assert "Klingon (heuristic)" in (page.text_content("#why-title") or "")
    game, token = game_and_token(page)
    status, answer = api(server.url, "GET", f"/api/games/{game}/why?step={step}&token={token}")
    assert status == 200, answer
    rows = page.locator("#why-rows tr")
    assert rows.count() == len(answer["candidates"]) >= 1
    assert page.locator("#why-rows tr.chosen").count() == 1
    assert answer["candidates"][0]["label"] in (rows.first.text_content() or "")
    assert answer["candidates"][0]["reason"] in (rows.first.text_content() or "")
    # the toggle is kept for the next page
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.is_checked("#why-toggle")
    assert page.locator('#log li[data-by="Klingon"] button.why').count() >= 1
    assert page.page_errors == []


def test_the_why_of_a_hidden_selection_waits_for_the_end_and_sfa_names_units_in_words(
    page: Any, server: Any
) -> None:
    create_game(
        page, server.url, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "heuristic"}, 7
    )
    page.select_option("#play-speed", "instant")
    page.check("#why-toggle")
    assert wait_turn(page)
    # the secret form shows the Speed each selection gives, as the server computed it
    view = seat_view(page, server)
    own = [a for a in view["actions"] if a.get("choice")]
    actor = own[0]["choice"]["actor"]
    form = page.locator(f'#actions form.selection-form[data-actor="{actor}"]')
    what, dice = form.locator("select.choice-what"), form.locator("select.choice-speed")
    gives = form.locator("output.choice-speed-value")
    # one selection for each thing the actor may do, and the one trading most dice
    mine = [a for a in own if a["choice"]["actor"] == actor]
    picked = list({a["choice"]["what"]: a for a in mine}.values())
    picked.append(max(mine, key=lambda a: a["choice"]["speed_dice"]))
    assert len({a["choice"]["speed"] for a in picked}) > 1
    for action in picked:
        what.select_option(label=action["choice"]["what"])
        if dice.is_enabled():  # one choice of dice: nothing to choose
            dice.select_option(str(action["choice"]["speed_dice"]))
        assert dice.input_value() == str(action["choice"]["speed_dice"])
        assert gives.get_attribute("data-speed") == str(action["choice"]["speed"])
        assert gives.text_content() == f"gives Speed {action['choice']['speed']}"
    # play until the Aliens have chosen in secret
    for _ in range(10):
        if page.locator('#log li[data-by="Aliens"] button.why').count():
            break
        assert wait_turn(page)
        click_any_action(page)
    button = page.locator('#log li[data-by="Aliens"] button.why').first
    button.click()
    panel = page.locator("#why-panel")
    panel.wait_for(state="visible")
    page.wait_for_function("() => document.getElementById('why-panel').dataset.refused === 'true'")
    assert "once the game is over" in (page.text_content("#why-summary") or "")
    assert not page.is_visible("#why-table")
    assert page.locator("#error").is_hidden()
    # unit names, never actor ids, in the log, the actions and the selection panel
    assert wait_turn(page)
    texts = page.locator("#log .text").all_text_contents()
    texts += page.locator("#actions").all_text_contents()
    assert texts and not [t for t in texts if ACTOR_ID.search(t)]
    assert any("Rebel Fighter" in t for t in page.locator("#log .text").all_text_contents())
    assert page.page_errors == []


def test_the_end_of_game_panel_shows_each_sides_figures_and_links(page: Any, server: Any) -> None:
    status, created = api(
        server.url,
        "POST",
        "/api/games",
        {
            "ruleset": "sfa",
            "scenario": "fighter-duel",
            "seats": {"Rebels": "heuristic", "Aliens": "heuristic"},
            "seed": 5,
        },
    )
    assert status == 201, created
    game = created["game"]
    page.goto(server.url + created["spectator"])
    page.wait_for_selector("body[data-over=true]", timeout=60_000)
    summary = page.locator("#summary")
    summary.wait_for(state="visible")
    status, view = api(server.url, "GET", f"/api/games/{game}")
    assert status == 200 and view["over"]
    rows = page.locator("#summary-rows tr")
    assert rows.count() == len(view["sides"]) == 2
    for row in view["summary"]["sides"]:
        cells = page.locator(f'#summary-rows tr[data-side="{row["side"]}"] td').all_text_contents()
        score = "–" if row["score"] is None else f"{row['score']:.2f}"
        assert cells[:4] == [
            score,
            f"{row['survivors']} of {row['fielded']}",
            str(row["lost"]),
            str(row["kills"]),
        ]
    turns = view["summary"]["turns"]
    assert f"{turns} turn" in (page.text_content("#summary-turns") or "")
    assert page.text_content("#summary-seed") == f"Seed {view['seed']}."
    download = page.get_attribute("#summary-download", "href") or ""
    assert download.endswith(f"/api/games/{game}/file")
    review = page.get_attribute("#summary-review-link", "href") or ""
    assert review.endswith("step=0")
    page.click("#summary-review-link")
    page.wait_for_selector("#review:not([hidden])")
    page.wait_for_function("() => document.getElementById('review-step').value === '0'")
    page.goto(server.url + created["spectator"])
    page.wait_for_selector("body[data-ready=true]")
    with page.expect_download() as got:
        page.click("#summary-download")
    assert got.value.suggested_filename.endswith(".json")
    assert page.page_errors == []
