"""The computer's "why?": the candidates a computer seat weighed at one of its decisions,
with their scores and reasons in words (GET /api/games/{id}/why?step=N).

The decision is asked again rather than remembered, so it does not matter where or
when the computer played: the game is rebuilt at step N, and a fresh player of the
seat's kind is handed that seat with the generator the server gave it there
(`computer_rng`). By the weighing protocol its first candidate is what it chooses
with that generator; a player that remembers earlier decisions may weigh a little
differently when asked afresh, and the answer says whether it chose the same.

What it may show: the candidates are the deciding seat's own view, so while the game
runs they are shown only when that seat knew nothing the asker does not (its
observation and its log equal the asker's, before and after the decision: no secret
selection, no hidden craft). Once the game is over everything is public.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any

import msgspec

from dogfight.core.game import Game
from dogfight.core.gamefile import replay
from dogfight.core.seat import Seat
from dogfight.sim.explain import decision_data, decision_lines, explain_decision
from dogfight.sim.players import new_player
from dogfight.web.cache import Live
from dogfight.web.computer import computer_rng
from dogfight.web.errors import BadRequest, Busy, Conflict, Forbidden
from dogfight.web.review import review_game
from dogfight.web.seats import HUMAN

KEPT = 256
"""Answers kept (the page asks once per decision, but every viewer asks, and a search
player weighs for as long as it thought): the least recently asked go first."""

_kept: OrderedDict[tuple[str, int, str], dict[str, Any]] = OrderedDict()
_kept_lock = threading.Lock()

AT_ONCE = 2
"""Decisions asked again at the same time, at most. Asking one again costs what the
computer spent on it (seconds for a search player), and anyone who can see a game may
ask for every step of it: past this many, a request that is not answered from what is
kept is told the server is busy (503, retry) rather than taking the threads that every
other request needs."""

_weighing = threading.BoundedSemaphore(AT_ONCE)


def _position_key(game_id: str, step: int, actions: list[Any]) -> tuple[str, int, str]:
    """Names the decision: the game, the step, and the actions up to and including the
    one taken there (an undo that changes them makes another decision)."""
    digest = hashlib.sha256(msgspec.json.encode([msgspec.to_builtins(a) for a in actions]))
    return game_id, step, digest.hexdigest()


def _seen(game: Game, side: str | None) -> bytes:
    """Everything `side` (None: a spectator) is shown of `game`, as comparable bytes."""
    events = [msgspec.to_builtins(e) for e in game.events_for(side)]
    return msgspec.json.encode([game.observation(side), events])


def _public_to(game: Game, decider: str, asker: str | None) -> bool:
    """True if the decider is shown nothing of `game` that the asker is not."""
    return asker == decider or _seen(game, decider) == _seen(game, asker)


def _game_at(live: Live, step: int) -> tuple[Game, Any, bool, list[Any]]:
    """The game before its action `step` (a copy), that action, whether the game is
    over, and the actions up to and including it. The caller holds no lock; this takes
    it only to read."""
    with live.lock:
        game, record = live.game, live.record
        total = len(game.actions)
        if not 0 <= step < total:
            raise BadRequest(
                f"field 'step': {step} is not a decision taken in this game "
                f"(0 to {total - 1}; the game is at {total})"
            )
        over = game.is_over()
        taken = game.actions[step]
        actions = list(game.actions[: step + 1])
        if over:
            return review_game(live, step), taken, True, actions
        scenario, seed, rules = game.scenario, record.seed, record.rules
    before = replay(Game(scenario, seed=seed, rules=rules), actions[:-1])
    return before, taken, False, actions


def explain_step(live: Live, asker: str | None, step: int) -> dict[str, Any]:
    """The computer's decision at `step` (the game's action `step`, from 0) in words,
    for the seat `asker` (None: a spectator); refused if it would reveal what the
    asker may not know, or if a person took that action."""
    record = live.record
    before, taken, over, actions = _game_at(live, step)
    side = before.current_player()
    kind = record.seats.get(side or "")
    if side is None or kind is None or kind == HUMAN:
        raise Conflict(
            f"game {record.id}: step {step} was {side or 'nobody'}'s decision, taken by a "
            "person: only the computer's decisions have a why"
        )
    if not over:
        after = before.clone()
        after.apply(taken)
        if not (_public_to(before, side, asker) and _public_to(after, side, asker)):
            raise Forbidden(
                f"game {record.id}: {side}'s decision at step {step} rests on what only "
                f"{side} knows (a secret selection or a hidden craft); its why is shown "
                "once the game is over"
            )
    key = _position_key(f"{record.id}:{record.seed}", step, actions)
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    if not _weighing.acquire(blocking=False):
        raise Busy(
            f"game {record.id}: the server is already asking {AT_ONCE} computer decisions "
            "again; retry in a moment"
        )
    try:
        legal = before.legal_actions()
        player = new_player(kind, record.ruleset)
        action, decision = explain_decision(
            before, player, kind, Seat(before, side), legal, computer_rng(record.seed, step)
        )
    finally:
        _weighing.release()
    answer = {
        "game": record.id,
        "step": step,
        **decision_data(decision),
        "same": msgspec.to_builtins(action) == msgspec.to_builtins(taken),
        "lines": [line.strip() for line in decision_lines(decision)],
    }
    with _kept_lock:
        _kept[key] = answer
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return answer
