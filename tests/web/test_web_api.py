"""API tests of the web server: every route, good and bad input (docs/web-api.md).

Every refusal must be a JSON `{"error": ...}` of one line with the contract's status,
and must leave the game (live and stored) as it was.
"""

from __future__ import annotations

import re
import sqlite3
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient
from httpx import Response

from dogfight.core.gamefile import load_game, replay_matches
from dogfight.core.registry import find_ruleset
from dogfight.web import sessions
from dogfight.web.app import MAX_BODY, create_app
from dogfight.web.errors import status_of
from dogfight.web.store import StoreError

from .helpers import JSON_BODY, act, client_for, new_game, small_scenario, view

DUEL_SIDES = ("Rebels", "Aliens")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"


@pytest.fixture
def client(db: Path) -> TestClient:
    return client_for(db)


def refused(reply: Response, status: int, *words: str) -> str:
    """Check a refusal: the status, one line of JSON error naming each of `words`."""
    assert reply.status_code == status, reply.text
    body = reply.json()
    assert list(body) == ["error"]
    message: str = body["error"]
    assert message and "\n" not in message and "Traceback" not in message
    for word in words:
        assert word.lower() in message.lower(), message
    return message


def stored_actions(db: Path, game: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT action FROM actions WHERE game = ? ORDER BY seq", (game,))
        return [r[0] for r in rows]


def game_count(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        count: int = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        return count


def two_humans(client: TestClient) -> tuple[str, dict[str, str]]:
    created = new_game(client, "sfa", "fighter-duel", dict.fromkeys(DUEL_SIDES, "human"))
    return created["game"], {s: created["seats"][s]["token"] for s in DUEL_SIDES}


# ---- the lobby -------------------------------------------------------------------------


def test_rulesets_list_scenarios_with_their_sides_and_options_with_defaults(
    client: TestClient,
) -> None:
    reply = client.get("/api/rulesets")
    assert reply.status_code == 200
    rulesets = {r["name"]: r for r in reply.json()}
    assert set(rulesets) == {"acta", "evo", "sfa"}
    duel = next(s for s in rulesets["sfa"]["scenarios"] if s["name"] == "fighter-duel")
    assert duel["sides"] == list(DUEL_SIDES)
    declared = {o.name: o for o in find_ruleset("acta").options}
    listed = {o["name"]: o for o in rulesets["acta"]["options"]}
    assert set(listed) == set(declared)
    for name, option in declared.items():
        assert listed[name]["default"] == option.default
        assert listed[name]["type"] == type(option.default).__name__
        assert listed[name]["choices"] == (list(option.choices) or None)


def test_create_gives_each_human_seat_a_secret_link_and_the_computer_none(
    client: TestClient, db: Path
) -> None:
    created = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"})
    game = created["game"]
    rebels, aliens = created["seats"]["Rebels"], created["seats"]["Aliens"]
    assert rebels["kind"] == "human" and len(rebels["token"]) >= 20
    assert rebels["link"] == f"/game/{game}?token={rebels['token']}"
    assert aliens == {"kind": "random", "token": None, "link": None}
    assert created["spectator"] == f"/game/{game}"
    # The database keeps a hash of the token, never the token itself.
    with sqlite3.connect(db) as conn:
        tokens = conn.execute("SELECT tokens FROM games WHERE id = ?", (game,)).fetchone()[0]
    assert rebels["token"] not in tokens
    mine = view(client, game, rebels["token"])
    assert mine["seat"] == "Rebels" and mine["your_turn"] and mine["actions"]
    assert mine["seats"] == {"Rebels": "human", "Aliens": "random"}


def test_create_with_options_and_an_uploaded_scenario(client: TestClient) -> None:
    text = small_scenario("evo/skirmish", name="tiny", turn_limit=1)
    reply = client.post(
        "/api/games",
        json={
            "ruleset": "evo",
            "scenario_text": text,
            "seats": {"Earth Alliance": "random", "Narn Regime": "random"},
            "seed": 3,
            "options": {"fire_zone": "8", "dodge_saves": False},
        },
    )
    assert reply.status_code == 201, reply.text
    game = reply.json()["game"]
    shown = view(client, game)
    assert shown["scenario"]["name"] == "tiny"
    assert shown["over"] and shown["turn"] <= 2  # computer v computer plays out at once
    saved = msgspec.json.decode(client.get(f"/api/games/{game}/file").content)
    assert saved["rules"] == {"fire_zone": "8", "dodge_saves": False}
    assert saved["scenario"]["turn_limit"] == 1


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        (b"{not json", 400, ["malformed JSON"]),
        (b"", 400, ["empty"]),
        (b"[1, 2]", 400, ["Expected `object`"]),
        (
            b'{"ruleset": "sfa", "scenario": "fighter-duel", "seats": {}, "seed": "x"}',
            400,
            ["seed"],
        ),
        (
            b'{"ruleset": "sfa", "scenario": "fighter-duel", "seats": {}, "seed": 1e30}',
            400,
            ["seed"],
        ),
        (
            b'{"ruleset": "sfa", "scenario": "fighter-duel", "seats": {}, '
            b'"seed": 99999999999999999999}',
            400,
            ["seed"],
        ),
        (b'{"ruleset": "nope", "scenario": "x", "seats": {}}', 404, ["nope"]),
        (b'{"ruleset": "sfa", "scenario": "nope", "seats": {}}', 404, ["nope"]),
        (b'{"ruleset": "sfa", "seats": {}}', 400, ["scenario"]),
        (
            b'{"ruleset": "sfa", "scenario": "fighter-duel", "scenario_text": "x", "seats": {}}',
            400,
            ["exactly one"],
        ),
        (
            b'{"ruleset": "sfa", "scenario": "fighter-duel", "seats": {"Rebels": "human"}}',
            400,
            ["Aliens"],
        ),
        (
            b'{"ruleset": "sfa", "scenario": "fighter-duel", '
            b'"seats": {"Rebels": "human", "Aliens": "human", "Ghosts": "human"}}',
            400,
            ["Ghosts"],
        ),
        (
            b'{"ruleset": "sfa", "scenario": "fighter-duel", '
            b'"seats": {"Rebels": "human", "Aliens": "genius"}}',
            400,
            ["genius", "Aliens"],
        ),
        (
            b'{"ruleset": "sfa", "scenario": "fighter-duel", '
            b'"seats": {"Rebels": "human", "Aliens": "human"}, "options": {"warp": 1}}',
            400,
            ["warp"],
        ),
        (
            b'{"ruleset": "sfa", "scenario": "fighter-duel", "seats": {}, "colour": "red"}',
            400,
            ["colour"],
        ),
        (b'{"ruleset": "sfa", "scenario_text": "a: [1", "seats": {}}', 422, ["uploaded scenario"]),
        (
            b'{"ruleset": "sfa", "scenario_text": "name: x\\nruleset: evo\\n", "seats": {}}',
            422,
            ["ruleset", "evo"],
        ),
        (
            b'{"ruleset": "sfa", "scenario_text": "name: x\\nruleset: sfa\\nsides: 3\\n", '
            b'"seats": {}}',
            422,
            ["uploaded scenario", "sides"],
        ),
        (
            b'{"ruleset": "sfa", "scenario_text": "name: x\\nruleset: sfa\\n'
            b'unit_files: [/etc/passwd]\\n", "seats": {}}',
            422,
            ["unit_files"],
        ),
    ],
)
def test_create_refuses_bad_input_with_a_clear_line(
    client: TestClient, db: Path, body: bytes, status: int, words: list[str]
) -> None:
    reply = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    refused(reply, status, *words)
    assert game_count(db) == 0


def test_oversized_uploads_are_refused(client: TestClient, db: Path) -> None:
    big = b'{"ruleset": "sfa", "scenario_text": "' + b"x" * MAX_BODY + b'", "seats": {}}'
    refused(client.post("/api/games", content=big), 413, "256 KiB")
    refused(client.post("/api/games/open", content=big), 413, "256 KiB")

    # A body sent in chunks (no Content-Length) is counted as it arrives.
    def chunks() -> Any:
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"x" * 1024

    refused(client.post("/api/games/open", content=chunks()), 413, "256 KiB")
    assert game_count(db) == 0


# ---- playing ---------------------------------------------------------------------------


def test_actions_by_index_and_by_data_advance_the_game(client: TestClient, db: Path) -> None:
    game, tokens = two_humans(client)
    before = view(client, game, tokens["Rebels"])
    after = act(client, game, tokens["Rebels"], 1, before["version"])
    assert after["version"] == before["version"] + 1
    sent = msgspec.json.encode(before["actions"][1]["action"]).decode()
    assert stored_actions(db, game) == [sent]
    data = after["actions"][0]["action"]
    reply = client.post(
        f"/api/games/{game}/actions", json={"token": tokens["Rebels"], "action": data}
    )
    assert reply.status_code == 200, reply.text
    assert reply.json()["version"] == before["version"] + 2
    assert len(stored_actions(db, game)) == 2


def refusals(tokens: dict[str, str], actor: str) -> list[tuple[str, Any, int, list[str]]]:
    rebels, aliens = tokens["Rebels"], tokens["Aliens"]
    return [
        ("actions", {"token": "forged", "index": 0}, 403, ["token"]),
        ("actions", {"index": 0}, 403, ["spectator"]),
        ("actions", {"token": aliens, "index": 0}, 409, ["not your turn", "Rebels"]),
        ("actions", {"token": rebels, "index": 99}, 400, ["index", "99"]),
        ("actions", {"token": rebels, "index": 0, "version": 5}, 409, ["stale"]),
        ("actions", {"token": rebels}, 400, ["exactly one"]),
        ("actions", {"token": rebels, "index": 0, "action": {}}, 400, ["exactly one"]),
        ("actions", {"token": rebels, "index": "first"}, 400, ["index"]),
        ("actions", {"token": rebels, "action": {"action": "warp"}}, 400, ["action"]),
        (
            "actions",
            {"token": rebels, "action": {"action": "select", "actor": actor, "kind": "dance"}},
            409,
            ["dance"],
        ),
        (
            "actions",
            {"token": rebels, "action": {"action": "select", "actor": "A1#0", "kind": "none"}},
            409,
            [],
        ),
        ("undo", {"token": rebels}, 409, ["against the computer"]),
        ("undo", {"token": "forged"}, 403, ["token"]),
        ("move", {"token": rebels, "unit": "R1"}, 400, ["x"]),
        ("move", {"token": aliens, "unit": "A1", "x": 1, "y": 1, "facing": 0}, 409, ["turn"]),
    ]


def test_refused_requests_change_nothing(client: TestClient, db: Path) -> None:
    game, tokens = two_humans(client)
    act(client, game, tokens["Rebels"], 0, 0)
    seat_before = view(client, game, tokens["Rebels"])
    other_before = view(client, game, tokens["Aliens"])
    stored_before = stored_actions(db, game)
    actor = seat_before["actions"][0]["action"]["actor"]
    for route, body, status, words in refusals(tokens, actor):
        reply = client.post(f"/api/games/{game}/{route}", json=body)
        refused(reply, status, *words)
    for raw in (b"{oops", b"", b'"text"'):
        refused(client.post(f"/api/games/{game}/actions", content=raw), 400)
    assert view(client, game, tokens["Rebels"]) == seat_before
    assert view(client, game, tokens["Aliens"]) == other_before
    assert stored_actions(db, game) == stored_before


def test_unknown_game_wrong_token_and_bad_query(client: TestClient) -> None:
    game, _ = two_humans(client)
    refused(client.get("/api/games/nosuchgame"), 404, "nosuchgame")
    refused(client.post("/api/games/nosuchgame/actions", json={"index": 0}), 404, "nosuchgame")
    refused(client.post("/api/games/nosuchgame/undo", json={}), 404, "nosuchgame")
    refused(client.get("/api/games/nosuchgame/file"), 404, "nosuchgame")
    refused(client.get(f"/api/games/{game}", params={"token": "forged"}), 403, "token")
    refused(client.get(f"/api/games/{game}", params={"step": "two"}), 400, "step")
    refused(client.get(f"/api/games/{game}", params={"step": 0}), 409, "finished")
    refused(client.get("/api/nothing/here"), 404, "/api/nothing/here")
    refused(client.delete(f"/api/games/{game}"), 405, "DELETE")


def test_views_only_offer_actions_to_the_seat_whose_turn_it_is(client: TestClient) -> None:
    game, tokens = two_humans(client)
    mine, theirs, public = (
        view(client, game, tokens["Rebels"]),
        view(client, game, tokens["Aliens"]),
        view(client, game),
    )
    assert mine["your_turn"] and mine["actions"] and mine["current"] == "Rebels"
    assert not theirs["your_turn"] and theirs["actions"] == [] and theirs["envelopes"] == {}
    assert public["seat"] is None and public["actions"] == [] and not public["can_undo"]
    for index, action in enumerate(mine["actions"]):
        assert action["index"] == index
        assert action["action"]["action"] in {"select", "interrupt", "pass", "move", "resolve"}
        for key in ("kind", "group", "label", "unit", "target", "dest", "odds"):
            assert key in action
    for row in mine["log"]:
        assert set(row) == {"seq", "clause", "text", "dice", "side", "hit", "step", "by"}


def test_log_rows_carry_dice_clause_side_and_hits(client: TestClient) -> None:
    created = new_game(client, "acta", "furball", {"Empire": "random", "Klingon": "random"})
    log = view(client, created["game"])["log"]
    assert [row["seq"] for row in log] == list(range(len(log)))
    assert any(row["dice"].startswith("d6: ") for row in log)
    assert all(row["clause"].startswith(("ACTA-", "CORE-")) for row in log)
    assert {row["side"] for row in log} >= {"Empire", "Klingon"}
    hits = [row for row in log if row["hit"]]
    assert hits and len(hits) < len(log)
    destroyed = [row for row in log if "is destroyed" in row["text"]]
    assert destroyed and all(row["hit"] for row in destroyed)


def test_move_composes_the_action_of_an_offered_destination(client: TestClient) -> None:
    created = new_game(client, "acta", "furball", {"Empire": "human", "Klingon": "random"})
    game, token = created["game"], created["seats"]["Empire"]["token"]
    for _ in range(40):
        shown = view(client, game, token)
        moves = [a for a in shown["actions"] if a["dest"] and a["unit"]]
        if moves:
            break
        act(client, game, token, 0, shown["version"])
    else:
        pytest.skip("no move with a destination came up")
    move = moves[0]
    body = {"token": token, "unit": move["unit"], **move["dest"]}
    reply = client.post(f"/api/games/{game}/move", json=body)
    assert reply.status_code == 200, reply.text
    assert reply.json()["version"] > shown["version"]
    far = {**body, "x": -500.0, "y": -500.0}
    before = view(client, game, token)
    if before["your_turn"]:
        refused(client.post(f"/api/games/{game}/move", json=far), 409)
        assert view(client, game, token) == before


# ---- files -----------------------------------------------------------------------------


def test_game_file_download_rules_and_replay(client: TestClient, tmp_path: Path) -> None:
    game, tokens = two_humans(client)
    refused(client.get(f"/api/games/{game}/file"), 403, "over")
    refused(client.get(f"/api/games/{game}/file", params={"token": tokens["Rebels"]}), 403)
    created = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"})
    token = created["seats"]["Rebels"]["token"]
    act(client, created["game"], token, 1, 0)
    reply = client.get(f"/api/games/{created['game']}/file", params={"token": token})
    assert reply.status_code == 200
    assert "attachment" in reply.headers["content-disposition"]
    path = tmp_path / "download.json"
    path.write_bytes(reply.content)
    loaded, gamefile = load_game(path)  # exactly what `dogfight replay` reads
    assert replay_matches(loaded, gamefile)
    assert len(loaded.actions) == view(client, created["game"], token)["version"]
    assert gamefile.players == {"Rebels": "human", "Aliens": "random"}


@pytest.mark.parametrize("name", ['a"b', "x\r\nSet-Cookie: a=b", "é😀/../x"])
def test_game_file_name_is_a_safe_header_whatever_the_scenario_is_called(
    client: TestClient, name: str
) -> None:
    text = small_scenario("evo/skirmish", name=name, turn_limit=1)
    seats = {"Earth Alliance": "random", "Narn Regime": "random"}
    created = client.post(
        "/api/games", json={"ruleset": "evo", "scenario_text": text, "seats": seats}
    )
    assert created.status_code == 201, created.text
    game = created.json()["game"]
    reply = client.get(f"/api/games/{game}/file")
    assert reply.status_code == 200, reply.text
    disposition = reply.headers["content-disposition"]
    assert re.fullmatch(r'attachment; filename="[A-Za-z0-9._-]+"', disposition), disposition
    assert disposition.endswith(f'-{game}.json"')
    assert msgspec.json.decode(reply.content)["scenario"]["name"] == name


def finished_file(client: TestClient) -> bytes:
    seats = {"Earth Alliance": "random", "Narn Regime": "heuristic"}
    created = new_game(client, "evo", "skirmish", seats)
    reply = client.get(f"/api/games/{created['game']}/file")
    assert reply.status_code == 200, reply.text
    return reply.content


def test_open_a_game_file_for_review(client: TestClient) -> None:
    data = finished_file(client)
    reply = client.post("/api/games/open", content=data)
    assert reply.status_code == 201, reply.text
    opened = reply.json()
    assert {s["kind"] for s in opened["seats"].values()} == {"human"}
    final = view(client, opened["game"])
    assert final["over"] and final["version"] == len(msgspec.json.decode(data)["actions"])
    start = view(client, opened["game"], step=0)
    assert start["step"] == 0 and start["version"] == 0 and not start["over"]
    middle = view(client, opened["game"], step=final["version"] // 2)
    assert middle["version"] == final["version"] // 2 and len(middle["log"]) < len(final["log"])
    assert view(client, opened["game"], step=final["version"])["log"] == final["log"]
    refused(
        client.get(f"/api/games/{opened['game']}", params={"step": final["version"] + 1}),
        400,
        "step",
    )


def test_open_an_unfinished_file_with_seats(client: TestClient) -> None:
    created = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "random"})
    token = created["seats"]["Rebels"]["token"]
    act(client, created["game"], token, 0, 0)
    data = client.get(f"/api/games/{created['game']}/file", params={"token": token}).content
    reply = client.post("/api/games/open", params={"seats": "Aliens:random"}, content=data)
    assert reply.status_code == 201, reply.text
    opened = reply.json()
    assert opened["seats"]["Aliens"]["kind"] == "random"
    shown = view(client, opened["game"], opened["seats"]["Rebels"]["token"])
    original = view(client, created["game"], token)
    assert shown["version"] == original["version"] and shown["log"] == original["log"]


def test_open_refuses_bad_files_as_the_cli_does(client: TestClient, db: Path) -> None:
    data = msgspec.json.decode(finished_file(client))
    count = game_count(db)
    refused(client.post("/api/games/open", content=b"{broken"), 422, "not a dogfight game file")
    refused(client.post("/api/games/open", content=b""), 400, "empty")
    wrong = {**data, "format": "chess"}
    refused(client.post("/api/games/open", content=msgspec.json.encode(wrong)), 422, "format")
    bad_action = {**data, "actions": [{"action": "warp"}, *data["actions"][1:]]}
    refused(
        client.post("/api/games/open", content=msgspec.json.encode(bad_action)),
        422,
        "actions[0]",
    )
    reaching = {**data, "scenario": {**data["scenario"], "unit_files": ["/etc/passwd"]}}
    refused(
        client.post("/api/games/open", content=msgspec.json.encode(reaching)), 422, "unit_files"
    )
    tampered = {**data, "log_digest": "0" * 64}
    refused(client.post("/api/games/open", content=msgspec.json.encode(tampered)), 422, "event log")
    good = msgspec.json.encode(data)
    refused(client.post("/api/games/open", params={"seats": "Narn Regime"}, content=good), 400)
    refused(
        client.post("/api/games/open", params={"seats": "Minbari:random"}, content=good),
        400,
        "Minbari",
    )
    assert game_count(db) == count


# ---- rules text and pages --------------------------------------------------------------


def test_rules_clause_text(client: TestClient) -> None:
    reply = client.get("/api/rules/acta/ACTA-GEN-2")
    assert reply.status_code == 200
    clause = reply.json()
    assert clause["clause"] == "ACTA-GEN-2" and clause["ruleset"] == "acta"
    assert clause["title"] == "General" and "measured" in clause["text"]
    tech = client.get("/api/rules/sfa/SFA-TEC-02").json()
    assert tech["title"] == "Artificial Intelligence" and "virtual" in tech["text"]
    refused(client.get("/api/rules/acta/ACTA-XYZ-99"), 404, "ACTA-XYZ-99")
    refused(client.get("/api/rules/chess/ACTA-GEN-1"), 404, "chess")
    refused(client.get("/api/rules/acta/not a clause"), 404, "clause id")


def test_pages_and_static_files(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<html>lobby</html>")
    (static / "game.html").write_text("<html>game</html>")
    (static / "app.js").write_text("console.log(1)")
    client = TestClient(create_app(tmp_path / "g.sqlite", static_dir=static), headers=JSON_BODY)
    assert client.get("/").text == "<html>lobby</html>"
    assert client.get("/game/abc?token=x").text == "<html>game</html>"
    assert client.get("/static/app.js").text == "console.log(1)"
    (static / "index.html").unlink()
    refused(client.get("/"), 404, "index.html")
    assert client.get("/static/missing.js").status_code == 404


def test_bad_options_are_named_as_the_body_field_not_a_cli_flag(client: TestClient) -> None:
    body = {
        "ruleset": "evo",
        "scenario": "skirmish",
        "seats": {"Earth Alliance": "human", "Narn Regime": "human"},
    }
    for options, words in [
        ({"dodge_saves": "maybe"}, ["dodge_saves", "maybe"]),
        ({"warp": 1}, ["warp", "known options"]),
    ]:
        reply = client.post("/api/games", json={**body, "options": options})
        message = refused(reply, 400, "field 'options'", *words)
        assert "--rule" not in message


def test_uploads_nested_too_deeply_are_refused_as_invalid(client: TestClient, db: Path) -> None:
    deep_yaml = "name: x\nruleset: sfa\nmap: " + "[" * 5000 + "]" * 5000 + "\n"
    reply = client.post(
        "/api/games", json={"ruleset": "sfa", "scenario_text": deep_yaml, "seats": {}}
    )
    refused(reply, 422, "uploaded scenario", "nested")
    for deep_json in (b"[" * 5000 + b"]" * 5000, b'{"a":' * 5000 + b"1" + b"}" * 5000):
        refused(client.post("/api/games/open", content=deep_json), 422, "game file", "nested")
    # A JSON body's free-form fields (options, an action as data) are bad input: 400.
    deep = b"[" * 5000 + b"]" * 5000
    options = b'{"ruleset": "sfa", "scenario": "fighter-duel", "seats": {}, "options": {"x": '
    refused(client.post("/api/games", content=options + deep + b"}}"), 400, "nested")
    game, tokens = two_humans(client)
    action = b'{"token": "' + tokens["Rebels"].encode() + b'", "action": ' + deep + b"}"
    refused(client.post(f"/api/games/{game}/actions", content=action), 400, "nested")
    assert game_count(db) == 1 and stored_actions(db, game) == []


def test_deep_bodies_are_refused_whatever_the_recursion_limit(client: TestClient) -> None:
    """A library may raise the interpreter's recursion limit (some test tools do): the
    decoder then reads a deep body, and the depth check still refuses it as nested."""
    deep = b"[" * 5000 + b"]" * 5000
    options = b'{"ruleset": "sfa", "scenario": "fighter-duel", "seats": {}, "options": {"x": '
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(200_000)
    try:
        reply = client.post("/api/games", content=options + deep + b"}}")
    finally:
        sys.setrecursionlimit(old)
    refused(reply, 400, "nested")


def test_a_rules_bug_in_the_computers_turns_is_a_server_error_not_bad_input(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A computer player stuck in a game that never ends is the engine's fault (500),
    not the request's (400)."""
    monkeypatch.setattr(sessions, "MAX_COMPUTER_ACTIONS", 3)
    seats = {"Earth Alliance": "random", "Narn Regime": "random"}
    body = {"ruleset": "evo", "scenario": "skirmish", "seats": seats}
    refused(client.post("/api/games", json=body), 500, "without ending")
    assert status_of(StoreError("games.sqlite: cannot write")) == 500
