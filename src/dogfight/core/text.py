"""Plain-text forms of values, shared by the CLI and by rulesets' own command reports."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from dogfight.core.options import Option, OptionValue


def plural_name(name: str) -> bool:
    """Whether a side's name is plural ('Raiders', 'Rebels'): its last word ends in an
    's' that is not part of 'ss', 'us' or 'is' ('Empire', 'Narn Regime', 'Nexus',
    'Empress' are one)."""
    words = name.split()
    last = words[-1].lower() if words else ""
    return len(last) > 1 and last.endswith("s") and not last.endswith(("ss", "us", "is"))


def agrees(subject: str, verb: str) -> str:
    """`subject` and a present-tense `verb` that agrees with it: 'Empire wins',
    'Raiders win' (`plural_name`); `verb` is the plural form ('win', 'destroy')."""
    return f"{subject} {verb}" if plural_name(subject) else f"{subject} {verb}s"


_PLURAL_OF = {"has": "have", "is": "are", "was": "were"}


def said_of(subject: str, phrase: str) -> str:
    """`subject` and a verb phrase written for one ('has no units left'), its first
    verb made plural for a plural name: 'Aliens have no units left'."""
    first, _, rest = phrase.partition(" ")
    if plural_name(subject) and first in _PLURAL_OF:
        phrase = f"{_PLURAL_OF[first]} {rest}".rstrip()
    return f"{subject} {phrase}"


def percent(rate: float) -> str:
    """A rate as a percentage with one decimal."""
    return f"{100 * rate:.1f}%"


def fraction_text(p: Fraction) -> str:
    """An exact probability: '5/36', or '1' for a whole number."""
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def changed_options(
    declared: Sequence[Option], values: Mapping[str, OptionValue]
) -> dict[str, OptionValue]:
    """The options whose value is not the ruleset's default."""
    return {o.name: values[o.name] for o in declared if values.get(o.name, o.default) != o.default}


def option_text(options: Mapping[str, OptionValue]) -> str:
    """`key=value, ...`, or `defaults` when there are none."""
    return ", ".join(f"{k}={value_text(v)}" for k, v in options.items()) or "defaults"


def value_text(value: Any) -> str:
    """An option value as it is written on the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def cell_text(value: Any) -> str:
    """A table cell's text: yes/no, compact floats, lists joined by commas."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple):
        return ", ".join(cell_text(v) for v in value)
    return str(value)
