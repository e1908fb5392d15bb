"""EVO command: a squadron leader's flight (Command trait) gives a friendly flight a
bonus action, winning back an action lost to suppression or a dead leader (EVO-CMD-3).

Rules-notes B.4 proposes the trait (BF Evo's leaders "grant extra actions, allowing
well-led troops to overcome pinning"); B.8 lets the bonus cancel suppression.
"""

from __future__ import annotations

from dogfight.geometry import EPSILON
from dogfight.rulesets.evo.context import Ctx
from dogfight.rulesets.evo.state import EvoState, Flight

MAX_ACTIONS = 3
"""A flight given the bonus on top of its two actions makes at most three (EVO-CMD-3)."""


def has_command(state: EvoState, flight: Flight) -> bool:
    """True if the flight's type has the Command trait and its leader is on the table:
    the squadron leader carries the command, so a flight still to name a new leader
    gives none (EVO-CMD-3)."""
    if state.unit_type(flight).trait("Command") is None:
        return False
    return bool(flight.leader) and flight.leader in state.models and bool(flight.models)


def may_give(state: EvoState, side: str) -> list[Flight]:
    """The side's flights (id order) that may still give a bonus action this turn, to
    whoever is in range: the option is on, the flight has the Command trait and its
    leader, and has not given it yet (EVO-CMD-3)."""
    if not state.options.get("command_bonus", True):
        return []
    return [g for g in state.live_flights(side) if not g.gave_command and has_command(state, g)]


def commanders(state: EvoState, flight: Flight, givers: list[Flight] | None = None) -> list[Flight]:
    """Friendly Command flights that may give `flight` the bonus action now: the option
    is on, the giver has not given it yet this turn, and the giver's leader is within
    command range of one of the flight's models (a Command flight may give it to
    itself) (EVO-CMD-3). `givers`: `may_give` for the flight's side, when the caller
    asks about many flights of one position."""
    if givers is None:
        givers = may_give(state, flight.side)
    reach = float(state.options.get("command_range", 6.0))
    out = []
    for giver in givers:
        lead = state.models[giver.leader].pose.position
        if any(
            state.models[m].pose.position.distance(lead) <= reach + EPSILON
            for m in flight.models
            if m in state.models
        ):
            out.append(giver)
    return out


def give_command(ctx: Ctx, giver: Flight, flight: Flight, allowed: int) -> int:
    """The giver spends its turn's Command on `flight`: one action more this activation,
    at most three (EVO-CMD-3). Returns the new number of actions allowed."""
    giver.gave_command = True
    granted = min(MAX_ACTIONS, allowed + 1)
    ctx.emit(
        "EVO-CMD-3",
        f"{ctx.name(giver)} gives {ctx.name(flight)} a bonus action: "
        f"{granted} action(s) this activation",
        unit=flight.id,
        by=giver.id,
        allowed=granted,
    )
    return granted
