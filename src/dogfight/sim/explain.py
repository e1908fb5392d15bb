"""Why the computer players chose what they chose: a battle played with every decision
recorded with the candidates its player weighed (`battle --explain`).

A player that can show its candidates (`WeighingPlayer`) is asked to `weigh` instead of
`decide`; by that protocol the first candidate is what `decide` would have chosen with
the same generator, so the battle is the one played without explanations. A player
that cannot show them decides as usual and its decisions say so.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from dogfight.core.events import Event
from dogfight.core.game import Game
from dogfight.core.play import Player, Weighed, WeighingPlayer, play
from dogfight.core.seat import Seat
from dogfight.sim.players import DEFAULT_KIND, new_player, player_rng, side_names


@dataclass(frozen=True)
class Option:
    """One candidate of a decision, described for people."""

    label: str
    """The action in the words of the ruleset's board (or its fields, without a board)."""
    score: float
    reason: str


@dataclass
class Decision:
    """One computer decision: who decided, what, among which candidates."""

    number: int
    """The action's place in the game, from 1."""
    side: str
    kind: str
    chosen: str
    """The label of the action taken."""
    legal: int
    """How many legal actions there were."""
    options: list[Option] | None
    """The candidates weighed, best first (None: the player cannot show them)."""
    events: list[Event] = field(default_factory=list)
    """What the action caused."""


def action_label(game: Game, action: Any) -> str:
    """`action` in words for the game's position now: the board's label when the ruleset
    has a board that can describe it, else the action's fields."""
    board = game.ruleset.board()
    if board is not None:
        try:
            label = board.describe(game, action).get("label")
        except Exception:  # a candidate the board cannot draw is still shown, plainly
            label = None
        if label:
            return str(label)
    data = msgspec.to_builtins(action)
    if not isinstance(data, dict):
        return str(data)
    kind = data.get("action", type(action).__name__)
    rest = ", ".join(f"{k} {v}" for k, v in data.items() if k != "action" and v not in ("", None))
    return f"{kind}: {rest}" if rest else str(kind)


def explain_decision(
    game: Game, player: Player, kind: str, seat: Seat, legal: list[Any], rng: random.Random
) -> tuple[Any, Decision]:
    """Ask `player` for its decision at `seat` (with `rng`, as it would decide) and put
    it into words: the action it takes and the decision with its candidates. `game` is
    read only to put the candidates into words, as the log does; the player is handed
    the seat and nothing more (the web's "why?" asks here too)."""
    weighed: list[Weighed] | None = None
    if isinstance(player, WeighingPlayer):
        weighed = player.weigh(seat, legal, rng)
        action = weighed[0].action
    else:
        action = player.decide(seat, legal, rng)
    options = None
    if weighed is not None:
        options = [Option(action_label(game, w.action), w.score, w.reason) for w in weighed]
    decision = Decision(
        number=len(game.actions) + 1,
        side=seat.side,
        kind=kind,
        chosen=action_label(game, action),
        legal=len(legal),
        options=options,
    )
    return action, decision


class _Recorder:
    """Stands between the play loop and one side's player, writing down each decision."""

    def __init__(self, game: Game, player: Player, kind: str, record: list[Decision]) -> None:
        self.game, self.player, self.kind, self.record = game, player, kind, record

    def decide(self, seat: Seat, legal: list[Any], rng: random.Random) -> Any:
        action, decision = explain_decision(self.game, self.player, self.kind, seat, legal, rng)
        self.record.append(decision)
        return action


def play_explained(
    game: Game, players: Mapping[str, str] | None = None, *, default: str = DEFAULT_KIND
) -> list[Decision]:
    """Play a new game to the end as `play_game` does (the same battle), returning every
    decision with its candidates and the events it caused."""
    kinds = {side: (players or {}).get(side, default) for side in side_names(game)}
    record: list[Decision] = []
    actors = {
        side: _Recorder(game, new_player(kind, game.ruleset), kind, record)
        for side, kind in kinds.items()
    }

    def caused(events: list[Event]) -> None:
        record[-1].events.extend(events)

    play(game, actors, player_rng(game.seed), on_events=caused)
    return record


SHOWN = 5
"""Candidates listed per decision; the rest are counted."""


def decision_lines(decision: Decision, shown: int = SHOWN) -> list[str]:
    """A decision in words: who chose what, then its candidates best first."""
    who = f"{decision.side} ({decision.kind})"
    if decision.legal == 1:
        return [f"  why: {who} had one legal action: {decision.chosen}"]
    if decision.options is None:
        return [
            f"  why: {who} chose {decision.chosen} among {decision.legal} legal actions; "
            f"a {decision.kind} player cannot show the candidates it weighed"
        ]
    lines = [
        f"  why: {who} weighed {len(decision.options)} of {decision.legal} legal actions "
        f"and chose {decision.chosen}:"
    ]
    for place, option in enumerate(decision.options[:shown], start=1):
        lines.append(f"    {place}. {option.label}: {option.score:+.3g} ({option.reason})")
    hidden = len(decision.options) - shown
    if hidden > 0:
        lines.append(f"    ... and {hidden} more")
    return lines


def decision_data(decision: Decision) -> dict[str, Any]:
    """A decision as plain data (`battle --json --explain`)."""
    return {
        "number": decision.number,
        "side": decision.side,
        "kind": decision.kind,
        "chosen": decision.chosen,
        "legal": decision.legal,
        "candidates": None
        if decision.options is None
        else [{"label": o.label, "score": o.score, "reason": o.reason} for o in decision.options],
    }
