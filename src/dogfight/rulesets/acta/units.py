"""ACTA unit types (fighters and ships) and the catalog read from data files."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

import msgspec

from dogfight.core.data import load_typed_file, lookup, package_data
from dogfight.core.errors import DataError
from dogfight.core.limits import Count, Inches, Points, Rating, Score
from dogfight.rulesets.acta.traits import Trait, TraitError, has_trait, parse_traits, trait_value

ARCS = ("F", "A", "P", "S", "FH", "AH", "PH", "SH", "T")
"""Arc codes of ACTA:SF: quadrants, halves and turret (clause ACTA-ARC-1)."""

FIGHTER_BASE_RADIUS = 0.5
SHIP_BASE_RADIUS = 1.0


class WeaponSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A weapon line as written in a data file."""

    name: str
    range: Inches
    ad: Count
    arc: str | None = None
    """None when the seed gives no arc: the `missing_arc` option decides (default T)."""
    traits: list[str] = msgspec.field(default_factory=list)
    dogfight_drones: bool = False
    """The seed's (*): may be swapped for dogfight drones (+2 Dogfight) at the start."""


class UnitSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A unit type as written in a data file (see docs/data.md)."""

    id: str
    name: str
    kind: Literal["fighter", "ship"]
    fleet: str
    speed: Inches
    turn: str | int
    """'SM' (super-manoeuvrable) or the inches straight before each 45-degree turn."""
    damage: Count
    designation: str = ""
    origin: Literal["seed", "original"] = "original"
    """'seed' for the seed's sample craft; 'original' for our own designs."""
    source: str = ""
    description: str = ""
    isd: int | None = None
    """In-service date (year); a scenario set earlier refuses the unit."""
    points: Points | None = None
    dogfight: Score = 0
    crippled: Count = 0
    """Damage at or below which a ship is crippled."""
    shields: Count = 0
    hull: Score = 0
    """B5 resolution: the to-hit number (0: use the option default)."""
    crew: Count = 0
    crew_quality: Rating = 4
    craft: Count = 0
    """Craft score: how many fighters the ship can carry."""
    traits: list[str] = msgspec.field(default_factory=list)
    weapons: list[WeaponSpec] = msgspec.field(default_factory=list)
    base_radius: Inches = 0.0
    """0: the default for the kind (fighter 0.5", ship 1")."""


class Weapon(msgspec.Struct, frozen=True, kw_only=True):
    """A weapon with parsed traits."""

    name: str
    range: float
    ad: int
    arc: str | None
    traits: tuple[Trait, ...]
    dogfight_drones: bool = False

    def trait(self, name: str) -> int | None:
        """The number of a trait, 0 if present without one, None if absent."""
        return trait_value(self.traits, name)

    def has(self, name: str) -> bool:
        """True if the weapon has the trait."""
        return has_trait(self.traits, name)


class UnitType(msgspec.Struct, frozen=True, kw_only=True):
    """A validated unit type, ready for play."""

    id: str
    name: str
    kind: str
    fleet: str
    speed: float
    turn: int | None
    """None for super-manoeuvrable (SM)."""
    damage: int
    designation: str
    origin: str
    source: str
    description: str
    isd: int | None
    points: int | None
    dogfight: int
    crippled: int
    shields: int
    hull: int
    crew: int
    crew_quality: int
    craft: int
    traits: tuple[Trait, ...]
    weapons: tuple[Weapon, ...]
    base_radius: float

    @property
    def is_fighter(self) -> bool:
        """True for fighters (single bases with the Fighter trait)."""
        return self.kind == "fighter"

    def trait(self, name: str) -> int | None:
        """The number of a trait, 0 if present without one, None if absent."""
        return trait_value(self.traits, name)

    def has(self, name: str) -> bool:
        """True if the unit has the trait."""
        return has_trait(self.traits, name)


def build_unit(spec: UnitSpec, where: str) -> UnitType:
    """Check a parsed spec's values and build the unit type."""

    def bad(field: str, message: str) -> DataError:
        return DataError(f"{where}: unit '{spec.id}': field '{field}': {message}")

    if isinstance(spec.turn, str):
        if spec.turn.strip().upper() != "SM":
            raise bad("turn", f"must be SM or a number of inches, not {spec.turn!r}")
        turn: int | None = None
    else:
        if spec.turn < 0:
            raise bad("turn", "must not be negative")
        turn = spec.turn
    for field in ("speed", "damage", "shields", "craft", "crew", "crippled", "hull"):
        if getattr(spec, field) < 0:
            raise bad(field, "must not be negative")
    if spec.damage < 1:
        raise bad("damage", "must be at least 1")
    try:
        traits = parse_traits(spec.traits)
    except TraitError as exc:
        raise bad("traits", str(exc)) from None
    weapons = []
    seen: set[str] = set()
    for i, w in enumerate(spec.weapons):
        if w.name in seen:
            raise bad(
                f"weapons[{i}].name",
                f"two weapons are called {w.name!r}; give each weapon system its own name",
            )
        seen.add(w.name)
        if w.arc is not None and w.arc not in ARCS:
            raise bad(f"weapons[{i}].arc", f"must be one of {', '.join(ARCS)}, not {w.arc!r}")
        if w.range <= 0:
            raise bad(f"weapons[{i}].range", "must be positive")
        if w.ad < 1:
            raise bad(f"weapons[{i}].ad", "must be at least 1")
        try:
            wtraits = parse_traits(w.traits)
        except TraitError as exc:
            raise bad(f"weapons[{i}].traits", str(exc)) from None
        weapons.append(
            Weapon(
                name=w.name,
                range=w.range,
                ad=w.ad,
                arc=w.arc,
                traits=wtraits,
                dogfight_drones=w.dogfight_drones,
            )
        )
    radius = spec.base_radius or (
        FIGHTER_BASE_RADIUS if spec.kind == "fighter" else SHIP_BASE_RADIUS
    )
    if spec.kind == "fighter" and not has_trait(traits, "Fighter"):
        traits = (*traits, Trait("Fighter"))
    return UnitType(
        id=spec.id,
        name=spec.name,
        kind=spec.kind,
        fleet=spec.fleet,
        speed=spec.speed,
        turn=turn,
        damage=spec.damage,
        designation=spec.designation,
        origin=spec.origin,
        source=spec.source,
        description=spec.description,
        isd=spec.isd,
        points=spec.points,
        dogfight=spec.dogfight,
        crippled=spec.crippled,
        shields=spec.shields,
        hull=spec.hull,
        crew=spec.crew,
        crew_quality=spec.crew_quality,
        craft=spec.craft,
        traits=traits,
        weapons=tuple(weapons),
        base_radius=radius,
    )


def load_unit_file(path: Path) -> UnitType:
    """Read one unit file."""
    return load_typed_file(path, UnitSpec, build_unit, "unit")


def units_dir() -> Path:
    """Where the built-in ACTA unit files live."""
    return package_data("acta", "units")


@cache
def catalog() -> dict[str, UnitType]:
    """Every built-in ACTA unit type by id."""
    return {p.stem: load_unit_file(p) for p in sorted(units_dir().glob("*.yaml"))}


def find_unit(name: str, extra: dict[str, UnitType] | None = None) -> UnitType:
    """A unit type by id (the scenario's own first, then the built-in catalog)."""
    return lookup(name, catalog(), extra, "acta unit")


def describe(unit: UnitType) -> dict[str, Any]:
    """Plain data for `dogfight show`."""
    data = msgspec.to_builtins(unit)
    data["turn"] = "SM" if unit.turn is None else unit.turn
    data["traits"] = [t.label() for t in unit.traits]
    from dogfight.rulesets.acta.trait_use import trait_notes

    notes = trait_notes(unit)
    if notes:
        data["trait_notes"] = notes  # ACTA-TRT-11: traits that need particular options
    data["weapons"] = [
        {
            "name": w.name,
            "range": w.range,
            "arc": w.arc,
            "ad": w.ad,
            "traits": [t.label() for t in w.traits],
            "dogfight_drones": w.dogfight_drones,
        }
        for w in unit.weapons
    ]
    return dict(data)
