"""Plain-text forms of values, shared by the CLI and by rulesets' own command reports."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from dogfight.core.options import Option, OptionValue


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
