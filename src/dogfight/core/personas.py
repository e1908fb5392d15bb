"""Personas of the computer players: data files that change a heuristic's weights.

A ruleset's heuristic keeps its weights in a frozen dataclass of numbers whose defaults
are the plain player's. A persona (`heuristic:NAME`) is a YAML file,
data/<ruleset>/personas/NAME.yaml, naming the weights it changes, each with a comment
saying why; the weights it leaves out keep their defaults. One loader checks every
ruleset's files alike: an unknown weight, a value that is not a finite number, or one
outside its bounds is a `DataError` naming the file and the field.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Generic, TypeVar

from dogfight.core.data import package_data, read_yaml
from dogfight.core.errors import DataError

W = TypeVar("W")
"""A ruleset's weights: a frozen dataclass whose fields are all numbers."""


@dataclass(frozen=True)
class PersonaBook(Generic[W]):
    """A ruleset's weights class, its shipped personas and the bounds of each weight."""

    ruleset: str
    weights: type[W]
    names: tuple[str, ...]
    """The personas shipped in data/<ruleset>/personas/ (`heuristic:NAME`)."""
    bounds: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    """Weights with bounds of their own (counts, inches, shares)."""
    default_bounds: tuple[float, float] = (0.0, 100.0)
    """The bounds of every other weight."""

    @cached_property
    def _loaded(self) -> dict[str, W]:
        return {}

    def path(self, name: str) -> Path:
        """The data file of a shipped persona."""
        return package_data(self.ruleset, "personas", f"{name}.yaml")

    def parse(self, raw: Any, where: str) -> W:
        """Checked weights from a persona file's contents (`where` names the file)."""
        if raw is None:
            return self.weights()
        if not isinstance(raw, dict):
            raise DataError(f"{where}: a persona file is a mapping of weight names to numbers")
        known = {f.name for f in dataclasses.fields(self.weights)}  # type: ignore[arg-type]
        changes: dict[str, float] = {}
        for key, value in raw.items():
            if key not in known:
                raise DataError(
                    f"{where}: field '{key}': not a weight (known: {', '.join(sorted(known))})"
                )
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise DataError(f"{where}: field '{key}': {value!r} is not a number")
            number = float(value)
            low, high = self.bounds.get(key, self.default_bounds)
            if not math.isfinite(number) or not low <= number <= high:
                span = f"from {low:g} to {high:g}" if math.isfinite(high) else f"of {low:g} or more"
                raise DataError(f"{where}: field '{key}': {value!r} is not a finite number {span}")
            changes[key] = number
        return self.weights(**changes)

    def load(self, path: Path | str) -> W:
        """The weights of a persona file."""
        return self.parse(read_yaml(path), str(path))

    def persona(self, name: str) -> W:
        """A shipped persona's weights, read once."""
        if name not in self.names:
            raise DataError(f"no {self.ruleset} persona '{name}' (known: {', '.join(self.names)})")
        if name not in self._loaded:
            self._loaded[name] = self.load(self.path(name))
        return self._loaded[name]
