"""The computer's "why?" over the web (GET /api/games/{id}/why?step=N): the candidates a
computer seat weighed, rebuilt from the game, and never what the asker may not know."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from dogfight.web import why as why_module
from dogfight.web.errors import Forbidden
from dogfight.web.why import explain_step

from .helpers import client_for, new_game, view


def why(client: Any, game: str, step: int, token: str | None = None) -> Any:
    params: dict[str, Any] = {"step": step}
    if token:
        params["token"] = token
    return client.get(f"/api/games/{game}/why", params=params)


def play_until_the_computer_moved(client: Any, game: str, token: str) -> dict[str, Any]:
    """The person takes its first action until the computer has decided at least twice."""
    shown = view(client, game, token)
    live = client.app.state.hub.get(game)
    for _ in range(40):
        computer = [s for s in live.history.steps if s.side != shown["seat"]]
        if len(computer) >= 2:
            break
        reply = client.post(
            f"/api/games/{game}/actions",
            json={"token": token, "index": 0, "version": shown["version"]},
        )
        assert reply.status_code == 200, reply.text
        shown = reply.json()
    return shown


def test_why_shows_the_candidates_the_computer_weighed_and_the_one_it_took(
    tmp_path: Path,
) -> None:
    client = client_for(tmp_path / "games.sqlite")
    created = new_game(client, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"})
    game, token = created["game"], created["seats"]["Empire"]["token"]
    shown = play_until_the_computer_moved(client, game, token)
    live = client.app.state.hub.get(game)  # type: ignore[attr-defined]
    steps = live.history.steps
    computer = [i for i, s in enumerate(steps) if s.side == "Klingon"]
    assert len(computer) >= 2
    for step in computer:
        reply = why(client, game, step, token)
        assert reply.status_code == 200, reply.text
        answer = reply.json()
        assert answer["side"] == "Klingon" and answer["kind"] == "heuristic"
        assert answer["step"] == step and answer["number"] == step + 1
        # asked again, the player weighs as it did: its first candidate is what it took
        assert answer["same"] is True
        assert answer["candidates"], answer
        assert answer["chosen"] == answer["candidates"][0]["label"]
        assert answer["legal"] >= len(answer["candidates"]) >= 1
        assert answer["lines"][0].startswith("why: Klingon (heuristic)")
        # the chosen label is the log's words for the action, as the page shows it
        labels = {c["label"] for c in answer["candidates"]}
        assert all(isinstance(c["score"], float) and c["reason"] for c in answer["candidates"])
        assert answer["chosen"] in labels
    # acta hides nothing: a spectator may ask too, and is told the same
    assert why(client, game, computer[0]).json() == why(client, game, computer[0], token).json()
    # a person's decision has no why; a step not taken yet, or no step, is refused
    person = next(i for i, s in enumerate(steps) if s.side == "Empire")
    refused = why(client, game, person, token)
    assert refused.status_code == 409 and "person" in refused.json()["error"]
    assert why(client, game, shown["version"], token).status_code == 400
    assert why(client, game, -1, token).status_code == 400
    assert client.get(f"/api/games/{game}/why").status_code == 400
    assert why(client, "nosuchgame", 0).status_code == 404
    assert why(client, game, computer[0], "not-a-token").status_code == 403


def test_why_of_a_finished_game_is_for_anyone_and_matches_every_decision(
    tmp_path: Path,
) -> None:
    client = client_for(tmp_path / "games.sqlite")
    seats = {"Rebels": "heuristic", "Aliens": "heuristic"}
    created = new_game(client, "sfa", "fighter-duel", seats)
    game = created["game"]
    shown = view(client, game)
    assert shown["over"]
    for step in range(0, min(shown["version"], 24)):
        answer = why(client, game, step).json()
        assert answer["same"] is True, (step, answer)
        assert answer["chosen"] == answer["candidates"][0]["label"]


def test_why_never_shows_a_hidden_sides_secret_selection_while_the_game_runs(
    tmp_path: Path,
) -> None:
    client = client_for(tmp_path / "games.sqlite")
    created = new_game(client, "sfa", "fighter-duel", {"Rebels": "human", "Aliens": "heuristic"})
    game, rebels = created["game"], created["seats"]["Rebels"]["token"]
    play_until_the_computer_moved(client, game, rebels)
    live = client.app.state.hub.get(game)  # type: ignore[attr-defined]
    assert not live.game.is_over()
    aliens = [i for i, s in enumerate(live.history.steps) if s.side == "Aliens"]
    assert aliens
    secret = aliens[0]
    taken = msgspec.to_builtins(live.game.actions[secret])
    assert taken["action"] == "select"  # a secret selection, not yet revealed to Rebels
    # the decider itself may know (its answer is then kept): the others are still refused
    assert explain_step(live, "Aliens", secret)["same"] is True
    for holder in (rebels, None):
        reply = why(client, game, secret, holder)
        assert reply.status_code == 403, reply.text
        assert set(reply.json()) == {"error"}  # no candidate, no label, no score
        assert "once the game is over" in reply.json()["error"]
    try:
        explain_step(live, "Rebels", secret)
    except Forbidden:
        pass
    else:
        raise AssertionError("the secret selection was explained to the other seat")


def test_an_answer_is_kept_so_a_second_question_does_not_think_again(
    tmp_path: Path, monkeypatch: Any
) -> None:
    client = client_for(tmp_path / "games.sqlite")
    created = new_game(client, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"})
    game, token = created["game"], created["seats"]["Empire"]["token"]
    play_until_the_computer_moved(client, game, token)
    live = client.app.state.hub.get(game)  # type: ignore[attr-defined]
    step = next(i for i, s in enumerate(live.history.steps) if s.side == "Klingon")
    made: list[str] = []
    real = why_module.new_player

    def counting(kind: str, ruleset: Any) -> Any:
        made.append(kind)
        return real(kind, ruleset)

    monkeypatch.setattr(why_module, "new_player", counting)
    first = why(client, game, step, token).json()
    second = why(client, game, step).json()
    assert first == second and made == ["heuristic"]


def test_too_many_whys_at_once_are_told_to_retry_and_kept_answers_still_come(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Asking a decision again costs what the computer spent on it: past `AT_ONCE` at the
    same time the server answers 503 at once (it does not queue them on the threads
    every request needs); an answer already kept is served all the same."""
    client = client_for(tmp_path / "games.sqlite")
    created = new_game(client, "acta", "furball", {"Empire": "human", "Klingon": "heuristic"})
    game, token = created["game"], created["seats"]["Empire"]["token"]
    play_until_the_computer_moved(client, game, token)
    live = client.app.state.hub.get(game)  # type: ignore[attr-defined]
    steps = [i for i, s in enumerate(live.history.steps) if s.side == "Klingon"]
    kept = why(client, game, steps[0], token)
    assert kept.status_code == 200
    # Others are asking as many decisions as the server weighs at once...
    held = [why_module._weighing.acquire(blocking=False) for _ in range(why_module.AT_ONCE)]
    assert all(held)
    try:
        busy = why(client, game, steps[1], token)
        assert busy.status_code == 503, busy.text
        assert "retry" in busy.json()["error"] and game in busy.json()["error"]
        assert why(client, game, steps[0], token).json() == kept.json()
    finally:
        for _ in held:
            why_module._weighing.release()
    # ...and once they are done, the same question is answered.
    assert why(client, game, steps[1], token).status_code == 200
