"""Named rule options: every proposal and ambiguity is a switch with a documented default."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from dogfight.core.errors import OptionError
from dogfight.core.limits import INT_MAX
from dogfight.core.names import suggest

OptionValue = bool | int | float | str


class Option(msgspec.Struct, frozen=True, kw_only=True):
    """One rule option.

    `choices` limits a string option to a set of values; `clause` is the rule
    clause the option decides; `doc` says what each value does.
    """

    name: str
    default: OptionValue
    doc: str
    clause: str = ""
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    """The smallest value a number option takes (None: no lower bound but 64 bits)."""
    maximum: float | None = None
    """The largest value a number option takes (None: no upper bound but 64 bits)."""

    def parse(self, raw: object, where: str = "") -> OptionValue:
        """Convert a value from a scenario file or `--rule K=V` to this option's type."""
        place = f"{where}: " if where else ""
        kind = type(self.default)
        if isinstance(raw, str):
            text = raw.strip()
            if kind is bool:
                lowered = text.lower()
                if lowered in ("true", "yes", "on", "1"):
                    return True
                if lowered in ("false", "no", "off", "0"):
                    return False
                raise OptionError(f"{place}option '{self.name}' takes true or false, not {raw!r}")
            value: OptionValue = text
            if kind is int:
                try:
                    value = int(text)
                except ValueError:
                    raise OptionError(
                        f"{place}option '{self.name}' takes a whole number, not {raw!r}"
                    ) from None
            elif kind is float:
                try:
                    value = float(text)
                except ValueError:
                    raise OptionError(
                        f"{place}option '{self.name}' takes a number, not {raw!r}"
                    ) from None
        elif isinstance(raw, bool):
            if kind is not bool:
                raise OptionError(f"{place}option '{self.name}' does not take true/false")
            value = raw
        elif isinstance(raw, int | float):
            if kind is bool or kind is str:
                raise OptionError(f"{place}option '{self.name}' does not take a number")
            if isinstance(raw, int) and abs(raw) > INT_MAX:
                raise OptionError(f"{place}option '{self.name}': the number is beyond 64 bits")
            if kind is int and not float(raw).is_integer():
                raise OptionError(f"{place}option '{self.name}' takes a whole number")
            value = int(raw) if kind is int else float(raw)
        else:
            raise OptionError(f"{place}option '{self.name}' cannot take {raw!r}")
        if self.choices and value not in self.choices:
            raise OptionError(
                f"{place}option '{self.name}' must be one of {', '.join(self.choices)}, "
                f"not {value!r}"
            )
        if isinstance(value, int | float) and not isinstance(value, bool):
            self._check_range(value, place)
        return value

    def _check_range(self, value: float, place: str) -> None:
        """Numbers must be finite, fit 64 bits and lie within the declared bounds."""
        if isinstance(value, float) and not math.isfinite(value):
            raise OptionError(f"{place}option '{self.name}' takes a finite number, not {value}")
        if isinstance(value, int) and abs(value) > INT_MAX:
            raise OptionError(f"{place}option '{self.name}': {value} is beyond 64 bits")
        low, high = self.minimum, self.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            raise OptionError(
                f"{place}option '{self.name}' must be {self.range_text()}, not {value}"
            )

    def range_text(self) -> str:
        """The allowed range in words ('0 to 100', 'at least 0'), or ''."""

        def show(x: float) -> str:
            return str(int(x)) if float(x).is_integer() else str(x)

        if self.minimum is not None and self.maximum is not None:
            return f"{show(self.minimum)} to {show(self.maximum)}"
        if self.minimum is not None:
            return f"at least {show(self.minimum)}"
        if self.maximum is not None:
            return f"at most {show(self.maximum)}"
        return ""


def resolve_options(
    declared: Sequence[Option], *layers: tuple[Mapping[str, object], str]
) -> dict[str, OptionValue]:
    """The full option set: defaults, overridden by each (values, where) layer in turn.

    Unknown names are refused with the list of known ones.
    """
    by_name = {o.name: o for o in declared}
    values: dict[str, OptionValue] = {o.name: o.default for o in declared}
    for mapping, where in layers:
        for key, raw in mapping.items():
            option = by_name.get(key)
            if option is None:
                known = ", ".join(sorted(by_name)) or "(none)"
                place = f"{where}: " if where else ""
                hint = suggest(key, list(by_name))
                raise OptionError(
                    f"{place}unknown rule option '{key}'{hint}; known options: {known}"
                )
            values[key] = option.parse(raw, where)
    return values


def parse_rule_args(args: Sequence[str]) -> dict[str, str]:
    """Parse `--rule key=value` arguments into a mapping."""
    out: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"--rule takes KEY=VALUE, not {arg!r}")
        out[key.strip()] = value.strip()
    return out


def options_as_dict(values: Mapping[str, Any]) -> dict[str, Any]:
    """A plain, sorted copy for JSON output and game files."""
    return {k: values[k] for k in sorted(values)}
