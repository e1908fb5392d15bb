"""Street Fighters in an SFA battle: people at Street Fighter scale (SFA-SF-*).

A Street Fighter is written as an SF:TSG character sheet (rules-notes C.2): Strength,
Dexterity, Stamina, Wits, the Athletics Technique, Health, Willpower, technique dots and
the attack maneuvers the fighter knows. On the map it takes part exactly like a craft,
so the engine turns the sheet into a `Craft` design at scale 0 whose `fighter` field
holds the sheet and whose `weapons` are its maneuvers:

- a maneuver's Speed modifier is the weapon's `speed`, so Speed = Dexterity + the
  modifier (the person's Piloting is 0);
- its `attack` is the technique's dots + the maneuver's Damage modifier, so the damage
  pool is Strength + `attack` - the target's Soak (SFA-SF-5);
- its Move modifier is the weapon's `move` (SFA-SF-3).

Files live in `data/sfa/fighters/` (one sheet per file, the id matching the file name);
a scenario can define its own under `custom_fighters:`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import msgspec

from dogfight.core.data import load_typed_file, lookup, package_data
from dogfight.core.errors import DataError
from dogfight.core.limits import Count, Rating
from dogfight.rulesets.sfa.craft import (
    MANEUVER_KIND,
    ORIGINS,
    STREET_FIGHTER,
    Craft,
    Fighter,
    Pilot,
    Weapon,
)

DEFAULT_HEALTH = 10
"""Every SF:TSG character starts with 10 Health (rules-notes C.2)."""


class ManeuverSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One attack maneuver on a sheet: the technique it uses (a technique's name on the
    sheet, or a number of dice) and its Speed, Damage and Move modifiers."""

    name: str
    technique: str | int = "punch"
    speed: int = 0
    damage: int = 0
    move: int = 0
    range: int = 1
    """Hexes at Street Fighter scale: 1 for a punch or kick, more for a Blast."""
    notes: str = ""


BASIC_MANEUVERS: tuple[ManeuverSpec, ...] = (
    ManeuverSpec(name="Jab", technique="punch", speed=2, damage=-1, move=0),
    ManeuverSpec(name="Strong", technique="punch", speed=0, damage=1, move=-1),
    ManeuverSpec(name="Fierce", technique="punch", speed=-1, damage=3, move=-1),
    ManeuverSpec(name="Short", technique="kick", speed=1, damage=0, move=0),
    ManeuverSpec(name="Forward", technique="kick", speed=0, damage=2, move=-1),
    ManeuverSpec(name="Roundhouse", technique="kick", speed=-1, damage=4, move=-1),
)
"""The SF:TSG basic punches and kicks a sheet gets when it lists none. Jab's numbers are
sourced (rules-notes C.3); the others are recalled, not checked against the book
(PROPOSAL, SFA-SF-4): a sheet that lists its own maneuvers replaces them all."""

TECHNIQUES = ("punch", "kick", "block", "grab", "athletics", "focus")
"""SF:TSG's Techniques (rules-notes C.2); a sheet may name others."""


class FighterSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Street Fighter as written in a data file or a scenario's `custom_fighters`."""

    id: str
    name: str
    strength: Rating = 2
    dexterity: Rating = 2
    stamina: Rating = 2
    wits: Rating = 2
    athletics: Rating = 2
    health: Count = DEFAULT_HEALTH
    willpower: Rating = 5
    techniques: dict[str, Rating] = msgspec.field(default_factory=dict)
    """Technique dots by name; Athletics is given on its own line."""
    maneuvers: list[ManeuverSpec] = msgspec.field(default_factory=list)
    """Attack maneuvers; left out, the basic punches and kicks (BASIC_MANEUVERS)."""
    concept: str = ""
    origin: str = "original"
    source: str = ""
    notes: str = ""


def build_fighter(spec: FighterSpec, where: str) -> Craft:
    """Check a sheet and make the Street Fighter's design; errors name the field."""

    def bad(field: str, message: str) -> DataError:
        return DataError(f"{where}: fighter '{spec.id}': field '{field}': {message}")

    for field in ("strength", "dexterity", "stamina", "wits", "athletics", "willpower"):
        value = getattr(spec, field)
        if not 0 <= value <= 10:
            raise bad(field, f"must be 0 to 10, not {value}")
    if not 1 <= spec.health <= 20:
        raise bad("health", f"must be 1 to 20 (SF:TSG's most), not {spec.health}")
    if spec.origin not in ORIGINS:
        raise bad("origin", f"must be one of {', '.join(ORIGINS)}, not {spec.origin!r}")
    techniques = {k.strip().lower(): v for k, v in spec.techniques.items()}
    techniques["athletics"] = spec.athletics
    for tech, dots in techniques.items():
        if not 0 <= dots <= 10:
            raise bad(f"techniques.{tech}", f"must be 0 to 10, not {dots}")
    weapons: list[Weapon] = []
    for i, m in enumerate(spec.maneuvers or BASIC_MANEUVERS):
        field = f"maneuvers[{i}]"
        if isinstance(m.technique, int):
            if m.technique < 0:
                raise bad(f"{field}.technique", "must not be negative")
            dice = m.technique
        else:
            key = m.technique.strip().lower()
            if key not in techniques and key not in TECHNIQUES:
                raise bad(
                    f"{field}.technique",
                    f"{m.technique!r} is not on the sheet; give its dots under techniques:",
                )
            dice = techniques.get(key, 0)
        if m.range < 1:
            raise bad(f"{field}.range", f"must be at least 1, not {m.range}")
        if not m.name or any(w.name == m.name for w in weapons):
            raise bad(f"{field}.name", f"needs a unique name, not {m.name!r}")
        weapons.append(
            Weapon(
                name=m.name,
                kind=MANEUVER_KIND.id,
                count=1,
                arc="all",
                fire_linked=False,
                scale=STREET_FIGHTER,
                speed=m.speed,
                attack=dice + m.damage,
                range=m.range,
                damage_checks=1,
                move=m.move,
                notes=m.notes,
            )
        )
    sheet = Fighter(
        strength=spec.strength,
        dexterity=spec.dexterity,
        stamina=spec.stamina,
        wits=spec.wits,
        athletics=spec.athletics,
        health=spec.health,
        willpower=spec.willpower,
        techniques=tuple(sorted(techniques.items())),
    )
    return Craft(
        id=spec.id,
        name=spec.name,
        scale=STREET_FIGHTER,
        concept=spec.concept or "Street Fighter",
        crew=1,
        handling=0,
        armor=spec.stamina,
        shields=0,
        soak_divided=True,
        move=spec.athletics,
        power=0,
        structure=spec.health,
        weapons=tuple(weapons),
        technologies=(),
        accessories=(),
        ai=None,
        origin=spec.origin,
        source=spec.source,
        notes=spec.notes,
        fighter=sheet,
    )


def fighter_pilot(design: Craft) -> Pilot:
    """The person as the engine's actor: Dexterity, Wits and Willpower from the sheet,
    no Piloting or Gunnery, so Speed is Dexterity + the maneuver's modifier (SFA-SF-2)."""
    sheet = design.fighter
    if sheet is None:
        raise ValueError(f"{design.id} is a craft, not a Street Fighter")
    return Pilot(
        name=design.name,
        dexterity=sheet.dexterity,
        wits=sheet.wits,
        piloting=0,
        gunnery=0,
        willpower=sheet.willpower,
    )


def load_fighter_file(path: Path | str) -> Craft:
    """Read one Street Fighter file; its id must match the file name."""
    return load_typed_file(Path(path), FighterSpec, build_fighter, "fighter")


def fighter_dir() -> Path:
    """Where the built-in Street Fighter sheets live."""
    return package_data("sfa", "fighters")


@cache
def fighter_catalog() -> dict[str, Craft]:
    """Every built-in Street Fighter by id."""
    return {p.stem: load_fighter_file(p) for p in sorted(fighter_dir().glob("*.yaml"))}


def find_fighter(name: str, extra: dict[str, Craft] | None = None) -> Craft:
    """A Street Fighter by id (a scenario's own first, then the built-in ones)."""
    return lookup(name, fighter_catalog(), extra, "sfa Street Fighter")
