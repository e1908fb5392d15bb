"""What a seat is shown of a live game: the game as it stands, a finished game stepped
back to any action for review, or a running game at one of its past steps (the board
stepping through the computer's actions, web/steps.py)."""

from __future__ import annotations

from typing import Any

from dogfight.core.game import Game
from dogfight.core.gamefile import replay
from dogfight.web.cache import Live
from dogfight.web.errors import BadRequest, Conflict
from dogfight.web.views import build_view

SNAPSHOT_EVERY = 16
"""Review keeps a copy of the game every this many actions, so a step costs few replays."""


def check_step(live: Live, step: int) -> None:
    """Refuse (400) a step outside 0..the actions taken."""
    total = len(live.game.actions)
    if not 0 <= step <= total:
        raise BadRequest(f"field 'step': {step} is not between 0 and {total}")


def review_game(live: Live, step: int) -> Game:
    """The finished game after its first `step` actions (see `game_at`)."""
    with live.lock:
        if not live.game.is_over():
            raise Conflict(f"game {live.record.id}: review (step) is for finished games")
        return game_at(live, step)


def game_at(live: Live, step: int) -> Game:
    """The game after its first `step` actions, finished or not: replayed from the
    nearest copy kept below it (one every SNAPSHOT_EVERY actions, and the positions
    lately asked for), so stepping costs a few replays. The copies are dropped when
    actions are taken back (`Live.forget_after`)."""
    with live.lock:
        game = live.game
        check_step(live, step)
        near = max((k for k in live.positions if k <= step), default=None)
        if near is not None and near > (step // SNAPSHOT_EVERY) * SNAPSHOT_EVERY:
            found = replay(live.positions[near].clone(), game.actions[near:step], start=near)
            live.keep_position(step, found)
            return found
        base_at = (step // SNAPSHOT_EVERY) * SNAPSHOT_EVERY
        base = live.snapshots.get(base_at)
        if base is None:
            below = max((k for k in live.snapshots if k < base_at), default=None)
            if below is None:
                record = live.record
                base = Game(game.scenario, seed=record.seed, rules=record.rules)
                below = 0
            else:
                base = live.snapshots[below].clone()

            def keeping_copies(replaying: Game, action: Any) -> None:
                replaying.apply(action)
                done = len(replaying.actions)
                if done % SNAPSHOT_EVERY == 0:
                    live.snapshots[done] = replaying.clone()

            replay(base, game.actions[below:base_at], apply=keeping_copies, start=below)
            live.snapshots[base_at] = base
        found = replay(base.clone(), game.actions[base_at:step], start=base_at)
        live.keep_position(step, found)
        return found


def view_of(live: Live, seat: str | None, step: int | None) -> dict[str, Any]:
    """Build a seat's view of a live game, at a review step if one is given (the
    caller holds the game's lock, so game and history are of the same moment)."""
    game = live.game
    if step is not None:
        game = review_game(live, step)
    keep, _ = live.undo_point(seat) if step is None else (None, "")
    return seat_view(live, game, seat, step, can_undo=keep is not None)


def step_view(live: Live, seat: str | None, step: int) -> dict[str, Any]:
    """The view `seat` was shown, live, of the game after its first `step` actions (a
    running game too): the same function on the game replayed to that step, so it
    holds what that seat could see then and nothing else. It is marked with its
    `step`, so it offers no actions and no undo. The caller holds the game's lock."""
    return seat_view(live, game_at(live, step), seat, step, can_undo=False)


def seat_view(
    live: Live, game: Game, seat: str | None, step: int | None, *, can_undo: bool
) -> dict[str, Any]:
    """`build_view` of `game` (the live game, or it at `step`) for `seat`, with the
    live game's seats and history."""
    return build_view(
        game,
        game_id=live.record.id,
        seat=seat,
        seats=live.record.seats,
        step=step,
        can_undo=can_undo,
        unit_sides=live.history.unit_sides,
        steps=live.history.steps[: len(game.actions)],
        start_events=live.history.start_events,
    )
