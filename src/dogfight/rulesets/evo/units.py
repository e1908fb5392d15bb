"""EVO unit types (flights of fighters) and the catalog read from data files.

The seed's stat line is Agility and Target (with an optional stealth Target,
written "4-6"); Save and Kill come from the parent game, Dodge X+ and facing
armour from the notes' proposals (clauses EVO-STAT-*).
"""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from dogfight.core.data import load_typed_file, lookup, package_data
from dogfight.core.errors import DataError
from dogfight.core.limits import Count, Inches, Points, Score

ARCS = ("FaF", "EaF", "FaA")
"""Weapon arcs of the seed: fixed forward, extended forward, fixed aft (EVO-ARC-1).
A weapon with no arc fires all round."""

FACINGS = ("front", "port", "starboard", "aft")
MODEL_BASE_RADIUS = 0.5

KNOWN_TRAITS = ("Dodge", "Command")
KNOWN_WEAPON_TRAITS = ("Lock-on", "AP", "Heavy", "Torpedo")
_TRAIT = re.compile(r"^\s*([A-Za-z][A-Za-z\- ]*?)\s*(\d+)?\s*\+?\s*$")


class Trait(msgspec.Struct, frozen=True, array_like=True):
    """A parsed trait: canonical name and its number, if any."""

    name: str
    value: int | None = None

    def label(self) -> str:
        """How the trait is written: 'Dodge 5+', 'AP 1', 'Lock-on'."""
        if self.value is None:
            return self.name
        return f"{self.name} {self.value}+" if self.name == "Dodge" else f"{self.name} {self.value}"


def parse_trait(text: str, known: tuple[str, ...]) -> Trait:
    """Parse 'Dodge 5+', 'AP 1', 'Lock-on', 'Heavy' (case-insensitive names)."""
    match = _TRAIT.match(text)
    if not match:
        raise ValueError(f"cannot read trait {text!r}")
    name = match.group(1).strip()
    canonical = {k.lower(): k for k in known}.get(name.lower().replace(" ", "-"))
    if canonical is None:
        canonical = {k.lower(): k for k in known}.get(name.lower())
    if canonical is None:
        raise ValueError(f"unknown trait {text.strip()!r}; known: {', '.join(known)}")
    number = match.group(2)
    needs_number = canonical in ("Dodge", "AP")
    if needs_number and number is None:
        raise ValueError(f"trait {canonical} needs a number (got {text.strip()!r})")
    if not needs_number and number is not None:
        raise ValueError(f"trait {canonical} takes no number (got {text.strip()!r})")
    value = int(number) if number is not None else None
    if canonical == "Dodge" and value is not None and not 2 <= value <= 6:
        raise ValueError(f"Dodge needs 2+ to 6+ (got {text.strip()!r})")
    return Trait(canonical, value)


class WeaponSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A weapon line in a data file: range, damage dice and their kind, arc, traits."""

    name: str
    range: Inches
    dice: Count
    die: int = 6
    """6 or 10: d10s can reach Target and Kill scores above 6 (EVO-DMG-1)."""
    arc: str | None = None
    traits: list[str] = msgspec.field(default_factory=list)
    shots: int = 0
    """Launches per battle for the flight (0: no limit); only Torpedo weapons use it
    (EVO-TOR-1)."""


MAX_SHOTS = 20
"""The most launches a torpedo weapon may carry (a sanity bound on data)."""


class UnitSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A flight type as written in a data file (see docs/data.md)."""

    id: str
    name: str
    power: str
    agility: Inches
    target: int | str
    """The Target score; "4-6" gives a stealth Target of 6 as well (EVO-STL-1)."""
    save: Score
    kill: Score
    models: Count = 3
    """Models in a standard flight."""
    origin: str = "original"
    source: str = ""
    description: str = ""
    points: Points = 0
    """Points per model, for matching forces."""
    traits: list[str] = msgspec.field(default_factory=list)
    armour: dict[str, Score] = msgspec.field(default_factory=dict)
    """Save by facing where it differs, e.g. {aft: 6} (EVO-ARM-1)."""
    weapons: list[WeaponSpec] = msgspec.field(default_factory=list)
    base_radius: Inches = MODEL_BASE_RADIUS


class Weapon(msgspec.Struct, frozen=True, kw_only=True):
    """A validated weapon."""

    name: str
    range: float
    dice: int
    die: int
    arc: str | None
    traits: tuple[Trait, ...]
    shots: int = 0
    """Launches per battle (0: no limit), for Torpedo weapons (EVO-TOR-1)."""

    def trait(self, name: str) -> int | None:
        """The trait's number, 0 if present without one, None if absent."""
        for t in self.traits:
            if t.name == name:
                return t.value if t.value is not None else 0
        return None


class UnitType(msgspec.Struct, frozen=True, kw_only=True):
    """A validated flight type."""

    id: str
    name: str
    power: str
    agility: float
    target: int
    stealth_target: int | None
    save: int
    kill: int
    models: int
    origin: str
    source: str
    description: str
    points: int
    traits: tuple[Trait, ...]
    armour: dict[str, int]
    weapons: tuple[Weapon, ...]
    base_radius: float

    def trait(self, name: str) -> int | None:
        """The trait's number, 0 if present without one, None if absent."""
        for t in self.traits:
            if t.name == name:
                return t.value if t.value is not None else 0
        return None


def parse_target(value: int | str, bad: Any) -> tuple[int, int | None]:
    """'4' -> (4, None); '4-6' -> (4, 6)."""
    if isinstance(value, int):
        return value, None
    match = re.fullmatch(r"\s*(\d+)\s*\+?\s*(?:-\s*(\d+)\s*\+?)?\s*", value)
    if not match:
        raise bad("target", f"must be a number or two numbers like '4-6', not {value!r}")
    return int(match.group(1)), int(match.group(2)) if match.group(2) else None


def build_unit(spec: UnitSpec, where: str) -> UnitType:
    """Check a parsed spec's values and build the unit type."""

    def bad(field: str, message: str) -> DataError:
        return DataError(f"{where}: unit '{spec.id}': field '{field}': {message}")

    target, stealth = parse_target(spec.target, bad)
    for field, value, low, high in (
        ("target", target, 2, 10),
        ("save", spec.save, 2, 7),
        ("kill", spec.kill, 2, 11),
    ):
        if not low <= value <= high:
            raise bad(field, f"must be between {low} and {high}, not {value}")
    if spec.kill < target:
        # EVO-DMG-1/2: a Kill is an upgraded hit, so a Kill below the Target could never
        # be reached by a die that misses; the stat line contradicts itself.
        raise bad("kill", f"must not be below the Target ({target}), not {spec.kill} (EVO-DMG-1)")
    if stealth is not None and stealth < target:
        raise bad("target", "the stealth Target (after the dash) must not be below the Target")
    if not math.isfinite(spec.agility) or spec.agility < 0:
        raise bad("agility", f"must be a number not below 0, not {spec.agility}")
    if spec.models < 1:
        raise bad("models", "a flight has at least one model")
    try:
        traits = tuple(parse_trait(t, KNOWN_TRAITS) for t in spec.traits)
    except ValueError as exc:
        raise bad("traits", str(exc)) from None
    for facing, save in spec.armour.items():
        if facing not in FACINGS:
            raise bad(f"armour.{facing}", f"facing must be one of {', '.join(FACINGS)}")
        if not 2 <= save <= 7:
            raise bad(f"armour.{facing}", f"must be between 2 and 7, not {save}")
    weapons = []
    names: set[str] = set()
    for i, w in enumerate(spec.weapons):
        if w.name in names:
            raise bad(f"weapons[{i}].name", f"two weapons are called {w.name!r}")
        names.add(w.name)
        if w.arc is not None and w.arc not in ARCS:
            raise bad(f"weapons[{i}].arc", f"must be one of {', '.join(ARCS)} or left out")
        if not math.isfinite(w.range) or w.range <= 0:
            raise bad(f"weapons[{i}].range", f"must be a positive number, not {w.range}")
        if w.dice < 1:
            raise bad(f"weapons[{i}].dice", "must be at least 1")
        try:
            wtraits = tuple(parse_trait(t, KNOWN_WEAPON_TRAITS) for t in w.traits)
        except ValueError as exc:
            raise bad(f"weapons[{i}].traits", str(exc)) from None
        torpedo = any(t.name == "Torpedo" for t in wtraits)
        if torpedo and any(t.name == "Lock-on" for t in wtraits):
            raise bad(
                f"weapons[{i}].traits",
                "a Torpedo is launched by its own Ready action and takes no Lock-on (EVO-TOR-1)",
            )
        if not 0 <= w.shots <= MAX_SHOTS:
            raise bad(f"weapons[{i}].shots", f"must be between 0 and {MAX_SHOTS}, not {w.shots}")
        if w.shots and not torpedo:
            raise bad(f"weapons[{i}].shots", "only a Torpedo weapon has a number of launches")
        die = 10 if any(t.name == "Heavy" for t in wtraits) else w.die
        if die not in (6, 10):
            raise bad(f"weapons[{i}].die", f"must be 6 or 10, not {w.die}")
        weapons.append(
            Weapon(
                name=w.name,
                range=w.range,
                dice=w.dice,
                die=die,
                arc=w.arc,
                traits=wtraits,
                shots=w.shots,
            )
        )
    return UnitType(
        id=spec.id,
        name=spec.name,
        power=spec.power,
        agility=spec.agility,
        target=target,
        stealth_target=stealth,
        save=spec.save,
        kill=spec.kill,
        models=spec.models,
        origin=spec.origin,
        source=spec.source,
        description=spec.description,
        points=spec.points,
        traits=traits,
        armour=dict(spec.armour),
        weapons=tuple(weapons),
        base_radius=spec.base_radius,
    )


def load_unit_file(path: Path) -> UnitType:
    """Read one unit file."""
    return load_typed_file(path, UnitSpec, build_unit, "unit")


def units_dir() -> Path:
    """Where the built-in EVO unit files live."""
    return package_data("evo", "units")


@cache
def catalog() -> dict[str, UnitType]:
    """Every built-in EVO flight type by id."""
    return {p.stem: load_unit_file(p) for p in sorted(units_dir().glob("*.yaml"))}


def find_unit(name: str, extra: dict[str, UnitType] | None = None) -> UnitType:
    """A unit type by id (the scenario's own first, then the built-in catalog)."""
    return lookup(name, catalog(), extra, "evo unit")


def describe(unit: UnitType) -> dict[str, Any]:
    """Plain data for `dogfight show`."""
    data = msgspec.to_builtins(unit)
    data["traits"] = [t.label() for t in unit.traits]
    data["weapons"] = [
        {**msgspec.to_builtins(w), "traits": [t.label() for t in w.traits]} for w in unit.weapons
    ]
    return dict(data)
