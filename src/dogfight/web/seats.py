"""Seats and their tokens: who plays each side of a web game, and how a browser proves
it holds a seat.

A person's seat is opened by a secret token, shown once when the game is made; the
store keeps only its SHA-256, so the database alone opens no seat.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping

from dogfight.ai import PLAYER_KINDS
from dogfight.sim.players import new_player
from dogfight.web.errors import BadRequest, Forbidden
from dogfight.web.store import GameRecord

HUMAN = "human"
SEAT_KINDS = (HUMAN, *PLAYER_KINDS)


def token_hash(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_tokens(seats: Mapping[str, str]) -> dict[str, str]:
    """A fresh secret token for each person's seat (side -> token)."""
    return {side: secrets.token_urlsafe(18) for side, kind in seats.items() if kind == HUMAN}


def seat_of(record: GameRecord, token: str | None) -> str | None:
    """The side a token opens (None without a token: a spectator); 403 for a bad one."""
    if token is None or token == "":
        return None
    digest = token_hash(token)
    for side, stored in record.tokens.items():
        if hmac.compare_digest(stored, digest):
            return side
    raise Forbidden(f"game {record.id}: the token opens no seat of this game")


def vs_computer(seats: Mapping[str, str], seat: str) -> bool:
    """True if every seat but `seat` is played by the computer."""
    return all(kind != HUMAN for side, kind in seats.items() if side != seat)


def check_seats(seats: Mapping[str, str], sides: list[str], ruleset: str) -> dict[str, str]:
    """Every side of the scenario with a seat kind, each checked (400 naming the side)."""
    for side in seats:
        if side not in sides:
            raise BadRequest(f"field 'seats': no side {side!r}; sides: {', '.join(sides)}")
    chosen: dict[str, str] = {}
    for side in sides:
        kind = seats.get(side)
        if kind is None:
            raise BadRequest(f"field 'seats': side {side!r} needs a seat ({', '.join(SEAT_KINDS)})")
        if kind not in SEAT_KINDS:
            raise BadRequest(
                f"field 'seats.{side}': {kind!r} is not one of {', '.join(SEAT_KINDS)}"
            )
        if kind != HUMAN:
            new_player(kind, ruleset)
        chosen[side] = kind
    return chosen


def parse_seats(text: str | None, sides: list[str]) -> dict[str, str]:
    """`SIDE:KIND,SIDE:KIND` (the open route's query) -> seats; sides not named are human."""
    seats = dict.fromkeys(sides, HUMAN)
    for part in (text or "").split(","):
        if not part.strip():
            continue
        # A kind may hold colons itself (heuristic:aggressive, search:200): split at
        # the colon that leaves a side of the scenario before it, else at the first.
        cuts = [i for i, ch in enumerate(part) if ch == ":"]
        if not cuts:
            raise BadRequest(f"query 'seats': {part!r} is not SIDE:KIND")
        cut = next((i for i in cuts if part[:i].strip() in sides), cuts[0])
        side, kind = part[:cut].strip(), part[cut + 1 :].strip()
        if not side:
            raise BadRequest(f"query 'seats': {part!r} is not SIDE:KIND")
        seats[side] = kind
    return seats
