"""Converting Trinity vehicles to SFA craft (seed 003, Appendix 2).

The input is a small YAML file of our own design holding a vehicle's Trinity
statistics (see docs/sfa-construction.md, "Trinity conversion"):

    name: Example Hybrid Fighter
    vt: Hybrid Fighter          # vehicle type -> scale
    vs: 4                       # vacuum speed -> Move
    handling: 2
    soak: 3 [Defense Add 5]     # or soak: 3 with defense_add: 5
    construction_points: 45     # optional -> Resources
    weapons:
    - {name: Pulse Laser, accuracy: 3, damage: 7, scale: 5}

What the seed converts: the vehicle type gives the scale (hybrid fighters and
transports are starfighters; hybrid shuttles, frigates and freighters are starships),
the "Defense Add" beside Soak hints at it too (5 starfighter, 10 starship); Vacuum Speed
is Move; Handling and Soak carry over. A weapon's Accuracy plus Damage is its attack
modifier and its Speed modifier is +0; a weapon listed [5] is starfighter scale, [10] or
more starship scale; Smart Missiles are one scale above Starship and Fusion Warheads
four. Cost is 1 Resource point per 30 construction points for a starfighter, per 15 for
a starship. Everything else (Tech, CS, TS, Mass, Tolerance) has no SFA equivalent and is
kept in the craft's notes. Trinity gives no Structure or Power: they default to 10 and 0.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import msgspec
import yaml

from dogfight.core.data import convert, read_yaml
from dogfight.core.errors import DataError
from dogfight.rulesets.sfa.craft import (
    STARFIGHTER,
    STARSHIP,
    WEAPON_KINDS,
    Craft,
    CraftSpec,
    build_craft,
    scale_label,
)

VEHICLE_TYPES = {
    "hybrid_fighter": STARFIGHTER,
    "hybrid_transport": STARFIGHTER,
    "hybrid_shuttle": STARSHIP,
    "frigate": STARSHIP,
    "freighter": STARSHIP,
}
"""Trinity vehicle type (VT) -> SFA scale level (seed 003, Appendix 2)."""

DEFENSE_ADD = {5: STARFIGHTER, 10: STARSHIP}
"""Soak [Defense Add N] -> the scale it marks."""

SMART_MISSILE_SCALE = STARSHIP + 1
FUSION_WARHEAD_SCALE = STARSHIP + 4

RESOURCE_DIVISOR = {STARFIGHTER: 30, STARSHIP: 15}
"""Construction points per Resource point, by scale."""

DEFAULT_STRUCTURE = 10
DEFAULT_POWER = 0

WEAPON_TYPES = (
    "laser",
    "railgun",
    "mass_driver",
    "missile",
    "torpedo",
    "rocket",
    "smart_missile",
    "fusion_warhead",
)
"""What a Trinity weapon is, for choosing the SFA kind that gives its range and price."""


class TrinityWeapon(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Trinity weapon line."""

    name: str
    accuracy: int
    damage: int
    scale: int | str = 5
    """The bracketed number of Trinity's listing: 5, 10, 15... ('[10]' works too)."""
    type: str | None = None
    """One of WEAPON_TYPES; left out, it is guessed from the name."""
    count: int = 1
    turret: bool = False
    fire_linked: bool = False


class TrinityVehicle(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Trinity vehicle as written in a conversion file."""

    name: str
    id: str | None = None
    """Defaults to the file name."""
    vt: str | None = None
    tech: str | None = None
    cs: int | float | str | None = None
    ts: int | float | str | None = None
    vs: int
    handling: int
    mass: int | float | str | None = None
    tolerance: int | float | str | None = None
    soak: int | str
    """A number, or 'N [Defense Add 5]'."""
    defense_add: int | None = None
    construction_points: int | None = None
    crew: int = 1
    structure: int | None = None
    """Not a Trinity statistic: default 10."""
    power: int | None = None
    """Not a Trinity statistic: default 0."""
    concept: str = ""
    weapons: list[TrinityWeapon] = msgspec.field(default_factory=list)
    notes: str = ""


class Conversion(msgspec.Struct, frozen=True, kw_only=True):
    """A converted craft, the craft-file data it came from, and what was assumed."""

    craft: Craft
    data: dict[str, Any]
    """A craft file's content (write it with `craft_yaml`)."""
    notes: tuple[str, ...]
    """Each assumption or loss, in order."""
    resources: int | None
    """Resource points the craft costs, when construction points were given."""


_SOAK = re.compile(r"^\s*(\d+)\s*(?:\[\s*defense\s+add\s+(\d+)\s*\])?\s*$", re.IGNORECASE)
_BRACKET = re.compile(r"^\s*\[?\s*(\d+)\s*\]?\s*$")


def _ident(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def convert_trinity(raw: Any, where: str, default_id: str = "trinity-craft") -> Conversion:
    """Convert parsed Trinity data; errors name `where` and the field."""
    if not isinstance(raw, dict):
        raise DataError(f"{where}: a Trinity file must be a mapping (name:, vt:, vs: ...)")
    vehicle = convert(raw, TrinityVehicle, where)

    def bad(field: str, message: str) -> DataError:
        return DataError(f"{where}: field '{field}': {message}")

    notes: list[str] = []
    soak, defense_add = _soak(vehicle, bad)
    scale = _scale(vehicle, defense_add, bad, notes)
    weapons = [_weapon(w, i, bad, notes) for i, w in enumerate(vehicle.weapons)]
    structure = vehicle.structure
    if structure is None:
        structure = DEFAULT_STRUCTURE
        notes.append(f"Trinity gives no Structure: {DEFAULT_STRUCTURE}, the seed's standard")
    power = vehicle.power
    if power is None:
        power = DEFAULT_POWER
        notes.append(f"Trinity gives no Power: {DEFAULT_POWER}")
    kept = [
        f"{label} {value}"
        for label, value in (
            ("Tech", vehicle.tech),
            ("CS", vehicle.cs),
            ("TS", vehicle.ts),
            ("Mass", vehicle.mass),
            ("Tolerance", vehicle.tolerance),
        )
        if value is not None
    ]
    if kept:
        notes.append(f"no SFA equivalent, kept as notes: {', '.join(kept)}")
    resources = None
    if vehicle.construction_points is not None:
        if vehicle.construction_points < 0:
            raise bad("construction_points", "must not be negative")
        divisor = RESOURCE_DIVISOR[min(max(scale, STARFIGHTER), STARSHIP)]
        resources = math.ceil(vehicle.construction_points / divisor)
        notes.append(
            f"cost: {vehicle.construction_points} construction points / {divisor} = "
            f"{resources} Resource points (rounded up)"
        )
    craft_id = vehicle.id or default_id
    data: dict[str, Any] = {
        "id": craft_id,
        "name": vehicle.name,
        "origin": "converted",
        "source": f"Trinity conversion (seed 003, Appendix 2) of {where}",
        "scale": scale_label(scale),
        "concept": vehicle.concept,
        "crew": vehicle.crew,
        "handling": vehicle.handling,
        "soak": soak,
        "move": vehicle.vs,
        "power": power,
        "structure": structure,
        "weapons": weapons,
        "notes": " ".join(filter(None, [vehicle.notes, *(f"{n}." for n in notes)])),
    }
    spec = convert(data, CraftSpec, where)
    craft = build_craft(spec, where)
    return Conversion(craft=craft, data=data, notes=tuple(notes), resources=resources)


def _soak(vehicle: TrinityVehicle, bad: Any) -> tuple[int, int | None]:
    defense_add = vehicle.defense_add
    if isinstance(vehicle.soak, int):
        soak = vehicle.soak
    else:
        match = _SOAK.match(vehicle.soak)
        if not match:
            raise bad("soak", f"write a number or 'N [Defense Add 5]', not {vehicle.soak!r}")
        soak = int(match.group(1))
        if match.group(2) is not None:
            written = int(match.group(2))
            if defense_add is not None and defense_add != written:
                raise bad("defense_add", f"is {defense_add} but soak says Defense Add {written}")
            defense_add = written
    if soak < 0:
        raise bad("soak", f"must not be negative, not {soak}")
    if defense_add is not None and defense_add not in DEFENSE_ADD:
        raise bad("defense_add", f"must be 5 (starfighter) or 10 (starship), not {defense_add}")
    return soak, defense_add


def _scale(vehicle: TrinityVehicle, defense_add: int | None, bad: Any, notes: list[str]) -> int:
    hinted = DEFENSE_ADD.get(defense_add) if defense_add is not None else None
    if vehicle.vt is None:
        if hinted is None:
            raise bad("vt", "missing (give the vehicle type, or a Defense Add with the Soak)")
        notes.append(f"scale from Defense Add {defense_add}: {scale_label(hinted)}")
        return hinted
    key = _ident(vehicle.vt)
    if key not in VEHICLE_TYPES:
        known = ", ".join(k.replace("_", " ").title() for k in VEHICLE_TYPES)
        raise bad("vt", f"unknown vehicle type {vehicle.vt!r}; known: {known}")
    scale = VEHICLE_TYPES[key]
    if hinted is not None and hinted != scale:
        notes.append(
            f"the vehicle type says {scale_label(scale)} but Defense Add {defense_add} says "
            f"{scale_label(hinted)}; the vehicle type wins"
        )
    return scale


def _weapon_type(w: TrinityWeapon, field: str, bad: Any) -> str:
    if w.type is not None:
        key = _ident(w.type)
        if key not in WEAPON_TYPES:
            raise bad(f"{field}.type", f"must be one of {', '.join(WEAPON_TYPES)}, not {w.type!r}")
        return key
    name = _ident(w.name)
    for words, kind in (
        ("smart_missile", "smart_missile"),
        ("fusion", "fusion_warhead"),
        ("torpedo", "torpedo"),
        ("missile", "missile"),
        ("rocket", "rocket"),
        ("mass_driver", "mass_driver"),
        ("railgun", "railgun"),
        ("rail_gun", "railgun"),
        ("laser", "laser"),
    ):
        if words in name:
            return kind
    raise bad(
        f"{field}.type",
        f"cannot tell what {w.name!r} is; give type: one of {', '.join(WEAPON_TYPES)}",
    )


def _weapon(w: TrinityWeapon, i: int, bad: Any, notes: list[str]) -> dict[str, Any]:
    field = f"weapons[{i}]"
    wtype = _weapon_type(w, field, bad)
    attack = w.accuracy + w.damage
    if attack < 0:
        raise bad(field, f"Accuracy + Damage is {attack}; it must not be negative")
    if wtype == "smart_missile":
        scale = SMART_MISSILE_SCALE
    elif wtype == "fusion_warhead":
        scale = FUSION_WARHEAD_SCALE
    else:
        bracket = w.scale if isinstance(w.scale, int) else None
        if isinstance(w.scale, str):
            match = _BRACKET.match(w.scale)
            bracket = int(match.group(1)) if match else None
        if bracket is None or bracket < 5:
            raise bad(f"{field}.scale", f"write 5, 10 or more (or '[10]'), not {w.scale!r}")
        scale = STARFIGHTER if bracket < 10 else STARSHIP
    if wtype == "laser":
        kind = min(
            ("light_laser", "medium_laser", "heavy_laser"),
            key=lambda k: (abs(WEAPON_KINDS[k].attack - attack), WEAPON_KINDS[k].attack),
        )
    else:
        kind = {
            "railgun": "railgun",
            "mass_driver": "railgun",
            "missile": "missile",
            "torpedo": "missile",
            "smart_missile": "missile",
            "fusion_warhead": "missile",
            "rocket": "rocket_salvo",
        }[wtype]
    notes.append(
        f"{w.name}: Accuracy {w.accuracy} + Damage {w.damage} = attack +{attack}, Speed +0, "
        f"{scale_label(scale)} scale, range and price of a {WEAPON_KINDS[kind].label}"
    )
    weapon: dict[str, Any] = {
        "kind": kind,
        "name": w.name,
        "count": w.count,
        "turret": w.turret,
        "fire_linked": w.fire_linked,
        "scale": scale_label(scale),
        "speed": 0,
        "attack": attack,
    }
    return weapon


def load_trinity_file(path: Path | str) -> Conversion:
    """Read and convert one Trinity vehicle file (the craft id defaults to the file name)."""
    path = Path(path)
    return convert_trinity(read_yaml(path), str(path), default_id=path.stem)


def craft_yaml(conversion: Conversion) -> str:
    """The converted craft as the text of an SFA craft file."""
    header = "# Converted from Trinity by dogfight (seed 003, Appendix 2).\n"
    body = yaml.safe_dump(conversion.data, sort_keys=False, allow_unicode=True, width=88)
    return header + body
