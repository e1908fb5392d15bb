"""Errors the engine raises for people to read: each says what and where."""

from __future__ import annotations


class DogfightError(Exception):
    """Base of every error meant for a user (the CLI prints it as one line)."""


class IllegalAction(DogfightError):
    """An action the rules do not allow now; the message says why."""


class DataError(DogfightError):
    """A unit, scenario or game file is malformed; the message names the file and field."""


class OptionError(DogfightError):
    """An unknown rule option or a value it cannot take."""


class UnknownName(DogfightError):
    """No ruleset, unit or scenario of that name."""
