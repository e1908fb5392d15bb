"""Personas of the acta heuristic: the weights that set how boldly it plays.

A persona is a YAML file in data/acta/personas/ (`heuristic:aggressive` reads
aggressive.yaml) naming some of the fields of `Weights`; the fields it leaves out keep
the plain heuristic's values. Every weight is checked: an unknown field, a value that is
not a finite number, or one out of its range is a `DataError` naming the file and field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from functools import cache
from pathlib import Path
from typing import Any

from dogfight.core.data import package_data, read_yaml
from dogfight.core.errors import DataError

PERSONAS = ("aggressive", "cautious")
"""The personas shipped with the ruleset (`heuristic:NAME`)."""
LIMIT = 10.0
"""The largest weight a persona may set: beyond it one term swamps every other."""


@dataclass(frozen=True, slots=True)
class Weights:
    """The heuristic's tunable weights; the defaults are the plain heuristic's."""

    greed: float = 1.0
    """Multiplies the worth of enemy losses it counts (more: it takes more risks to win)."""
    caution: float = 1.0
    """Multiplies the worth of its own losses it counts (more: it avoids even trades)."""
    approach: float = 0.6
    """Worth lost per 10" between a fighter out of contact and the nearest enemy."""
    lurk: float = 0.5
    """Chance it counts that an enemy fighter still to move comes for a fighter in reach."""
    escort: float = 1.5
    """Worth of a fighter escorting a threatened carrier, before its share of the threat."""
    fire_risk: float = 1.0
    """Weight of the fire a fighter's spot exposes it to, against the fire it deals."""
    ship_exposure: float = 0.5
    """Weight of the enemy ships' fire a ship's end pose exposes it to."""


DEFAULT = Weights()
"""The plain heuristic's weights."""


def persona_path(name: str) -> Path:
    """The data file of a shipped persona."""
    return package_data("acta", "personas", f"{name}.yaml")


def weights_from(raw: Any, where: str) -> Weights:
    """Checked weights from a persona file's contents (`where` names the file)."""
    if raw is None:
        return DEFAULT
    if not isinstance(raw, dict):
        raise DataError(f"{where}: a persona is a mapping of weight names to numbers")
    known = {f.name for f in fields(Weights)}
    values: dict[str, float] = {}
    for key, value in raw.items():
        if key not in known:
            raise DataError(
                f"{where}: field '{key}': not a weight (known: {', '.join(sorted(known))})"
            )
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise DataError(f"{where}: field '{key}': {value!r} is not a number")
        number = float(value)
        if not math.isfinite(number):
            raise DataError(f"{where}: field '{key}': {value!r} is not a finite number")
        if not 0.0 <= number <= LIMIT:
            raise DataError(f"{where}: field '{key}': {number:g} is outside 0 to {LIMIT:g}")
        values[key] = number
    return replace(DEFAULT, **values)


def load_weights(path: Path | str) -> Weights:
    """The weights of a persona file."""
    return weights_from(read_yaml(path), str(path))


@cache
def persona(name: str) -> Weights:
    """A shipped persona's weights, read once."""
    if name not in PERSONAS:
        raise DataError(f"no acta persona '{name}' (known: {', '.join(PERSONAS)})")
    return load_weights(persona_path(name))
