"""What a seat is shown of a live game: the game as it stands, or a finished game
stepped back to any action for review."""

from __future__ import annotations

from typing import Any

from dogfight.core.game import Game
from dogfight.core.gamefile import replay
from dogfight.web.cache import Live
from dogfight.web.errors import BadRequest, Conflict
from dogfight.web.views import build_view

SNAPSHOT_EVERY = 16
"""Review keeps a copy of the game every this many actions, so a step costs few replays."""


def review_game(live: Live, step: int) -> Game:
    """The finished game after its first `step` actions (copies kept every
    SNAPSHOT_EVERY actions, so stepping costs a few replays)."""
    with live.lock:
        game = live.game
        if not game.is_over():
            raise Conflict(f"game {live.record.id}: review (step) is for finished games")
        total = len(game.actions)
        if not 0 <= step <= total:
            raise BadRequest(f"field 'step': {step} is not between 0 and {total}")
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
        return replay(base.clone(), game.actions[base_at:step], start=base_at)


def view_of(live: Live, seat: str | None, step: int | None) -> dict[str, Any]:
    """Build a seat's view of a live game, at a review step if one is given (the
    caller holds the game's lock, so game and history are of the same moment)."""
    game = live.game
    if step is not None:
        game = review_game(live, step)
    keep, _ = live.undo_point(seat) if step is None else (None, "")
    return build_view(
        game,
        game_id=live.record.id,
        seat=seat,
        seats=live.record.seats,
        step=step,
        can_undo=keep is not None,
        unit_sides=live.history.unit_sides,
        steps=live.history.steps[: len(game.actions)],
        start_events=live.history.start_events,
    )
