"""The evo heuristic's weights, and the personas that change them.

Every weight is in points of enemy destroyed, or a share of them, so they compare. The
defaults are the plain `heuristic`; a persona (`heuristic:aggressive`,
`heuristic:cautious`) is a data file, data/evo/personas/NAME.yaml, naming the weights
it changes, each with a comment. A file is checked when it is loaded: an unknown
weight, a value that is not a finite number, or one out of its bounds is an error
naming the file and the field.
"""

from __future__ import annotations

from dataclasses import dataclass

from dogfight.core.personas import PersonaBook


@dataclass(frozen=True, slots=True)
class Weights:
    """What the evo heuristic weighs, and how much."""

    second_shot: float = 0.75
    """Worth of a second Shoot in the same activation, against the first (targets thin out)."""
    friendly_fire: float = 1.2
    """Weight of my own models killed by my fire, against enemy models."""
    leader_bonus: float = 0.25
    """Extra worth of a leader: losing it costs its flight an action (EVO-CMD-2)."""
    suppress_bonus: float = 0.25
    """Worth, in models, of suppressing a flight (one action fewer, EVO-SUP-1)."""
    react_risk: float = 0.6
    """Weight of the reactions a plan triggers (a reacting player usually takes them)."""
    threat: float = 0.3
    """Weight of the fire the enemy can bring on the flight before its next activation."""
    opportunity: float = 0.5
    """Weight of the shots the flight will have in its next activation."""
    approach: float = 0.08
    """Worth of closing on the enemy when no shot is in prospect yet (per model, per points)."""
    off_table: float = 1.5
    """Price, in models' worth, of a next drift that carries a model off the table."""
    edge: float = 0.25
    """Price, in models' worth, of heading for an edge (next turn must be spent turning)."""
    crowd: float = 0.06
    """Price, in models' worth, of ending near friendly flights (shared fire zones)."""
    aft_danger: float = 0.08
    """Price, in models' worth, per enemy sitting behind the flight within close range now."""
    six_bonus: float = 0.05
    """Worth, in models' worth, of ending behind an enemy within close range (EVO-SIX-1)."""
    six_setup: float = 0.5
    """Extra weight of next turn's shots from an enemy's six (the +1 a die, EVO-SIX-1)."""
    stealth_close: float = 0.09
    """Worth, in models' worth, of ending within close range of a stealthy enemy's next
    position, where its stealth Target no longer holds (EVO-STL-1)."""
    stealth_far_shot: float = 0.35
    """Share of a Shoot's worth kept when its target keeps its stealth Target and a
    manoeuvre this activation could bring it within 10" instead (EVO-STL-1)."""
    stealth_patience: float = 0.0
    """Above 0: a long shot at stealth waits for any manoeuvre still possible, not only
    for one that closes within 10" this activation (the stealthy side, shooting first
    at 18", punishes the patience: see docs/players.md)."""
    stealth_fear: float = 1.0
    """Extra weight, as a share of `threat`, of the fire a stealthy enemy can bring from
    beyond close range: fire the flight can only answer at its stealth Target
    (EVO-STL-1), so it stands off rather than trade shots at that range."""
    stack: float = 0.1
    """Share of the fire a flight is exposed to that it saves by spreading: the price of
    ending with all its pairs of models inside one fire zone (EVO-SHT-2), less for each
    pair the zone cannot catch together."""
    spread_gap: float = 4.5
    """Inches between a wing and its leader in a spread flight: beyond the zone from the
    other wing, within command range after the next drift (EVO-CMD-1)."""
    escort: float = 0.2
    """Worth, in models' worth, of ending within close range of a ward (a shuttle) the
    flight escorts."""
    ward_fear: float = 2.0
    """How much more a ward (see wards.py) weighs the enemy's fire than other flights."""
    ward_firepower: float = 0.5
    """A flight type below this firepower per point is a ward (wards.py)."""
    directions: float = 12
    """Directions tried for a manoeuvre, round the flight's facing (plus aimed ones)."""
    shortlist: float = 6
    """Plans re-scored with exact shot values and reactions."""
    command_rescue: float = 1.0
    """Worth of a Command bonus action that gives a penalised flight an action back."""
    torpedo_outlook: float = 0.3
    """Share of a torpedo's dice the outlook counts (a Ready to launch, few launches)."""
    torpedo_keep: float = 0.15
    """Worth, against the shot, of keeping a limited torpedo for a better chance later."""
    danger_order: float = 0.3
    """Weight of danger against shots when choosing which flight to activate."""


BOUNDS: dict[str, tuple[float, float]] = {
    "directions": (4, 48),
    "shortlist": (1, 24),
    "spread_gap": (0, 12),
    "stealth_far_shot": (0, 1),
    "stealth_patience": (0, 1),
}
"""Weights with bounds of their own (counts, inches, shares); every other weight is a
finite number from 0 to 100."""

PERSONAS = ("aggressive", "cautious")
"""The personas shipped in data/evo/personas/."""


BOOK = PersonaBook("evo", Weights, PERSONAS, bounds=BOUNDS)
"""The evo personas, read and checked by the one loader of core/personas.py."""

parse_weights = BOOK.parse
load_weights = BOOK.load
persona = BOOK.persona

__all__ = ["PERSONAS", "Weights", "load_weights", "parse_weights", "persona"]
