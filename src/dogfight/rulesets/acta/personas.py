"""Personas of the acta heuristic: the weights that set how boldly it plays.

A persona is a YAML file in data/acta/personas/ (`heuristic:aggressive` reads
aggressive.yaml) naming some of the fields of `Weights`; the fields it leaves out keep
the plain heuristic's values. core/personas.py reads and checks it (every weight a
finite number from 0 to `LIMIT`).
"""

from __future__ import annotations

from dataclasses import dataclass

from dogfight.core.personas import PersonaBook

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


BOOK = PersonaBook("acta", Weights, PERSONAS, default_bounds=(0.0, LIMIT))
"""The acta personas, read and checked by the one loader of core/personas.py."""

persona_path = BOOK.path
weights_from = BOOK.parse
load_weights = BOOK.load
persona = BOOK.persona
