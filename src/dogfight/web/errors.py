"""Errors the web API answers with: each carries its HTTP status and one line for people."""

from __future__ import annotations

from dogfight.core.errors import DataError, DogfightError, IllegalAction, OptionError, UnknownName
from dogfight.core.play import RunawayGame
from dogfight.web.store import StoreBusy, StoreError


class WebError(DogfightError):
    """A refused request; `status` is the HTTP status of the answer."""

    status = 400


class BadRequest(WebError):
    """Malformed JSON, a missing or mistyped field, a value out of range."""

    status = 400


class Forbidden(WebError):
    """A token that opens no seat, or a download that would show hidden information."""

    status = 403


class NotFound(WebError):
    """No such game, ruleset, scenario or clause."""

    status = 404


class Conflict(WebError):
    """Not now: not your turn, an illegal action, a stale version, nothing to undo."""

    status = 409


class TooLarge(WebError):
    """An upload over the size limit."""

    status = 413


class Busy(WebError):
    """The server is doing as much of this kind of work as it takes at once: retry."""

    status = 503


class Invalid(WebError):
    """A scenario or game file that fails validation (the CLI's message)."""

    status = 422


def status_of(exc: DogfightError) -> int:
    """The HTTP status for an engine error, as the API contract (docs/web-api.md) sets."""
    if isinstance(exc, WebError):
        return exc.status
    if isinstance(exc, StoreBusy):
        return 503  # another process holds the database: the client may retry
    if isinstance(exc, (RunawayGame, StoreError)):
        return 500  # a rules bug or a database that cannot be written: not the request's fault
    if isinstance(exc, IllegalAction):
        return 409
    if isinstance(exc, UnknownName):
        return 404
    if isinstance(exc, OptionError):
        return 400
    if isinstance(exc, DataError):
        return 422
    return 400
