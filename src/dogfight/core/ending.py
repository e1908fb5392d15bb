"""How games end, the same way in every ruleset: a side wiped out, or the turn limit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dogfight.core.context import RuleContext
from dogfight.core.ruleset import Outcome
from dogfight.core.text import said_of


def end_by_elimination(
    ctx: RuleContext[Any],
    beaten: Sequence[str],
    scores: dict[str, float],
    clause: str,
    *,
    why: str,
    why_both: str,
) -> bool:
    """End the game if any side is `beaten`: the other side wins, or it is a draw when
    both are. `why` is said of the beaten side ('has no units left'; 'have' for a plural
    name, `core.text.said_of`). Returns True if the game ended."""
    state = ctx.state
    if not beaten:
        return False
    if len(beaten) >= 2:
        state.outcome = Outcome(winner=None, reason=why_both, scores=scores)
    else:
        winner = next(s for s in state.sides if s != beaten[0])
        state.outcome = Outcome(winner=winner, reason=said_of(beaten[0], why), scores=scores)
    state.active = ""
    ctx.emit(clause, f"game over: {state.outcome.reason}", winner=state.outcome.winner)
    return True


def end_at_turn_limit(
    ctx: RuleContext[Any], scores: dict[str, float], clause: str, *, decided: bool, what: str
) -> None:
    """End the game at the turn limit: the higher score wins if `decided` (the ruleset's
    option), equal scores draw; `what` says what the winner did ('destroyed more')."""
    state = ctx.state
    a, b = state.sides
    winner: str | None = None
    if decided and scores[a] != scores[b]:
        winner = a if scores[a] > scores[b] else b
    reason = f"turn limit {state.turn_limit} reached; " + (
        f"{winner} {what}" if winner else "a draw"
    )
    state.outcome = Outcome(winner=winner, reason=reason, scores=scores)
    state.active = ""
    ctx.emit(clause, f"game over: {reason}", winner=winner, scores=scores)
