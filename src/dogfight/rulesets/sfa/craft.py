"""SFA spacecraft: the stat block, weapons, advanced technologies, pilots and the catalog.

A craft's stat block (seed 003, the template at the start and Appendix 4) is Scale,
Handling, Soak, Move, Power and Structure, plus weapons, advanced technologies and
accessories. Soak is kept split into armour and energy shields, because Armor-Piercing
and Disruptor weapons each cut only one part (rules-notes C.7.4: the *craft* Soak stat
here is not the defender's *total* Soak, which also counts the pilot).

Loading is lenient about the seed's ranges: a Handling of +7 or a Soak of 6 loads (a
homebrew design) and the construction checker (`construction.check_design`) reports it.
Only values that cannot mean anything (negative Structure, an unknown weapon kind or
technology, a turret flag that contradicts the arc) are `DataError`s naming the file,
the craft and the field.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any, Literal

import msgspec

from dogfight.core.data import convert, lookup, package_data, read_yaml
from dogfight.core.errors import DataError, UnknownName

# ---- scale ------------------------------------------------------------------------------

STREET_FIGHTER = 0
"""Scale level of a person on foot (a Street Fighter character)."""
STARFIGHTER = 1
"""Scale level of small, agile craft: fighters, shuttles."""
STARSHIP = 2
"""Scale level of big ships; Starship + N is level 2 + N."""

_SCALE = re.compile(r"^\s*(?P<name>[a-z\- ]+?)\s*(?:\+\s*(?P<plus>\d+))?\s*$")
_SCALE_NAMES = {
    "street fighter": STREET_FIGHTER,
    "streetfighter": STREET_FIGHTER,
    "street-fighter": STREET_FIGHTER,
    "starfighter": STARFIGHTER,
    "star fighter": STARFIGHTER,
    "fighter": STARFIGHTER,
    "starship": STARSHIP,
    "star ship": STARSHIP,
    "ship": STARSHIP,
}


def parse_scale(value: str | int) -> int:
    """A scale level from 'Starfighter', 'Fighter', 'Starship', 'Starship + 1' or an int.

    Levels: 0 Street Fighter < 1 Starfighter < 2 Starship < 3 Starship+1 < ...
    (rules-notes C.7.16). Raises `ValueError` with the accepted forms.
    """
    if isinstance(value, bool):
        raise ValueError(f"a scale is a name or a level number, not {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"a scale level is 0 or more, not {value}")
        return value
    match = _SCALE.match(value.lower())
    level = _SCALE_NAMES.get(match.group("name")) if match else None
    if match is None or level is None:
        raise ValueError(
            f"unknown scale {value!r}; use Street Fighter, Starfighter (or Fighter), "
            "Starship, or Starship + N"
        )
    plus = match.group("plus")
    if plus is not None:
        if level != STARSHIP:
            raise ValueError(f"only Starship takes '+ N' (got {value!r})")
        level += int(plus)
    return level


def scale_label(level: int) -> str:
    """The scale's name: 'Street Fighter', 'Starfighter', 'Starship', 'Starship + 1'..."""
    if level <= STREET_FIGHTER:
        return "Street Fighter"
    if level == STARFIGHTER:
        return "Starfighter"
    if level == STARSHIP:
        return "Starship"
    return f"Starship + {level - STARSHIP}"


def upscale_factor(level: int) -> int:
    """5 for each step above Starship (Starship + 1 is 5, + 2 is 25), else 1.

    The seed multiplies crew, cargo, passenger and hangar figures by this.
    """
    factor = 1
    for _ in range(level - STARSHIP):
        factor *= 5
    return factor


# ---- weapons ----------------------------------------------------------------------------


class WeaponKind(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the seed's weapon table (seed 003, "Constructing a Spacecraft")."""

    id: str
    label: str
    speed: int
    """Speed modifier of an attack with it."""
    attack: int
    """The table's "Damage": dice added to the attack pool (for a missile, see MISSILE)."""
    range: int
    """Range in hexes (a missile's is how far it flies before it self-destructs)."""
    cost: int
    """Weapon points for one, at the craft's own scale."""
    laser: bool = False
    """Enhanced Lasers and Remote Bits apply."""
    guided: bool = False
    """Flies as its own counter after launch (missiles and torpedoes)."""
    damage_checks: int = 1
    """Separate attack rolls per shot (a rocket salvo makes three)."""


WEAPON_KINDS: dict[str, WeaponKind] = {
    k.id: k
    for k in (
        WeaponKind(
            id="light_laser", label="Light Laser", speed=1, attack=5, range=5, cost=2, laser=True
        ),
        WeaponKind(
            id="medium_laser",
            label="Medium Laser",
            speed=0,
            attack=10,
            range=7,
            cost=4,
            laser=True,
        ),
        WeaponKind(
            id="heavy_laser",
            label="Heavy Laser",
            speed=-2,
            attack=15,
            range=10,
            cost=6,
            laser=True,
        ),
        WeaponKind(id="railgun", label="Railgun", speed=-1, attack=12, range=8, cost=5),
        WeaponKind(
            id="missile",
            label="Missile/Torpedo",
            speed=-1,
            attack=10,
            range=20,
            cost=4,
            guided=True,
        ),
        WeaponKind(
            id="rocket_salvo",
            label="Rocket Salvo",
            speed=1,
            attack=8,
            range=5,
            cost=3,
            damage_checks=3,
        ),
    )
}
"""The six weapon kinds by id. A missile's `attack` is its own pool of 10 (see MISSILE)."""

MANEUVER_KIND = WeaponKind(
    id="maneuver", label="Street Fighter maneuver", speed=0, attack=0, range=1, cost=0
)
"""The table line of a Street Fighter's attack maneuver: not a spacecraft weapon, and
never bought under the construction rules (SFA-SF-4)."""

TURRET_COST = 1
"""Extra weapon points for each turreted weapon (the table's "Turret +1")."""
ENHANCEMENT = 5
"""What Enhanced Lasers / Enhanced Missiles add to damage and range."""
FIRE_LINK_COST = 1
"""Extra weapon points for fire-linking: +1 for each linked group (seed table), or +1 a
weapon under the construction check's `fire_link="weapon"` reading."""


class MissileFacts(msgspec.Struct, frozen=True, kw_only=True):
    """What the seed says about a missile once it is launched, conflicts kept.

    The text gives an attack pool of 10; the weapon tables give "Damage 20". The
    combat table gives Soak 10 and Structure 2 (rules-notes C.7.9).
    """

    pool_text: int = 10
    """Attack pool per the Missiles/Torpedoes text."""
    pool_table: int = 20
    """The weapon tables' Damage column."""
    pool: int = 10
    """What we use (PROPOSAL, rules-notes C.7.9: follow the text)."""
    soak: int = 10
    """Total Soak of a missile when something shoots at it."""
    structure: int = 2
    move: int = 5
    """Hexes flown per turn, with no minimum move and no maneuver limits."""
    max_hexes: int = 20
    """It self-destructs after flying this far (the table's range 20)."""


MISSILE = MissileFacts()

ARCS = ("forward", "front", "all")
"""Where a weapon fires: `forward`, the straight hex line ahead; `front`, a 180° turret
(hexes within 90° of the facing); `all`, a 360° turret (rules-notes C.6)."""

_KIND_ALIASES = {
    "missile_torpedo": "missile",
    "missiles": "missile",
    "torpedo": "missile",
    "torpedoes": "missile",
    "rocket": "rocket_salvo",
    "rockets": "rocket_salvo",
    "light_lasers": "light_laser",
    "medium_lasers": "medium_laser",
    "heavy_lasers": "heavy_laser",
    "railguns": "railgun",
}


def _ident(text: str) -> str:
    """'Missile/Torpedo' -> 'missile_torpedo'; 'Pi-Tac Cannon' -> 'pi_tac_cannon'."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def weapon_kind(name: str) -> WeaponKind:
    """A weapon kind by id or by the seed's label ('Medium Laser', 'Rockets', 'Torpedo')."""
    key = _ident(name)
    key = _KIND_ALIASES.get(key, key)
    if key not in WEAPON_KINDS:
        raise ValueError(f"unknown weapon kind {name!r}; known: {', '.join(WEAPON_KINDS)}")
    return WEAPON_KINDS[key]


class WeaponSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A weapon line in a craft file: `count` weapons of one kind, mounted alike."""

    kind: str
    """One of WEAPON_KINDS (id or the seed's label)."""
    name: str = ""
    """Defaults to the kind's label."""
    count: int = 1
    turret: bool | None = None
    """True: a turret (the `all` arc unless `arc` says `front`); False: fixed forward."""
    arc: str | None = None
    """`forward`, `front` or `all`; left out, it follows `turret` (default forward)."""
    fire_linked: bool = False
    """The `count` weapons fire together as one action."""
    scale: str | int | None = None
    """The weapon's own scale, when it differs from the craft's (out-of-scale designs)."""
    speed: int | None = None
    """Overrides the table (converted or homebrew weapons; the checker reports it)."""
    attack: int | None = None
    """Overrides the table's Damage modifier (e.g. a Trinity weapon's Accuracy + Damage)."""
    range: int | None = None
    """Overrides the table's range."""
    notes: str = ""


class Weapon(msgspec.Struct, frozen=True, kw_only=True):
    """A validated weapon line, its numbers final for this craft.

    `attack` and `range` already include Enhanced Lasers or Enhanced Missiles (`bonus`
    says by how much); callers must not add them again.
    """

    name: str
    kind: str
    count: int
    arc: Literal["forward", "front", "all"]
    fire_linked: bool
    scale: int
    speed: int
    attack: int
    """Dice added to the attack pool; for a missile, the missile's own pool."""
    range: int
    damage_checks: int
    bonus: int = 0
    """How much of `attack` and `range` comes from Enhanced Lasers/Missiles."""
    custom: bool = False
    """Some number differs from the seed's table (an override in the file)."""
    notes: str = ""
    move: int = 0
    """A Street Fighter maneuver's Move modifier (SFA-SF-4); 0 for a craft's weapon."""

    @property
    def turret(self) -> bool:
        """Mounted in a turret (180° or 360°): needs a dedicated gunner."""
        return self.arc != "forward"

    @property
    def spec(self) -> WeaponKind:
        """The weapon table line (a Street Fighter's maneuver has one of its own)."""
        return WEAPON_KINDS.get(self.kind, MANEUVER_KIND)

    @property
    def laser(self) -> bool:
        """A laser (Enhanced Lasers, Remote Bits)."""
        return self.spec.laser

    @property
    def guided(self) -> bool:
        """A missile: launched, then flies as its own counter."""
        return self.spec.guided


# ---- advanced technologies --------------------------------------------------------------

PowerUse = Literal["use", "turn", "hex", "point"]


class TechnologyKind(msgspec.Struct, frozen=True, kw_only=True):
    """One advanced technology of the seed, in our words."""

    id: str
    label: str
    cost: int
    """Power Points to buy it (per level when `per_level`)."""
    per_level: bool = False
    """The seed's "each": bought in levels, each costing `cost`."""
    power: int | None = None
    """Power the craft spends to run it, per `power_per`; None: nothing."""
    power_per: PowerUse | None = None
    """`use`, `turn` (each turn it stays on), `hex` (Teleport), `point` (as much as wanted)."""
    speed: int | None = None
    """Speed modifier when it is the turn's action; None: not an action of its own."""
    abort: bool = False
    """Can be switched to as an Abort action."""
    rule: str = ""
    """What it does, in one line (our paraphrase of the seed's System text)."""


def _tech(id: str, label: str, cost: int, rule: str, **extra: Any) -> TechnologyKind:
    return TechnologyKind(id=id, label=label, cost=cost, rule=rule, **extra)


TECHNOLOGIES: dict[str, TechnologyKind] = {
    t.id: t
    for t in (
        _tech(
            "armor_piercing",
            "Armor-Piercing Weapons",
            2,
            "The craft's weapons ignore Enhanced Soak, and each level takes 1 off the "
            "armour part of the target's Soak.",
            per_level=True,
        ),
        _tech(
            "artificial_intelligence",
            "Artificial Intelligence",
            1,
            "A virtual pilot: 2 points per level shared among Dexterity, Piloting and "
            "Gunnery; it may man a weapon like a crew member.",
            per_level=True,
        ),
        _tech(
            "auto_turrets",
            "Auto-Turrets",
            2,
            "Computer-run turrets: the pilot may fire along any of the six straight hex "
            "lines, without a gunner.",
        ),
        _tech(
            "boosters",
            "Boosters",
            3,
            "5 extra hexes of Move in a straight line.",
            power=5,
            power_per="use",
            speed=3,
            abort=True,
        ),
        _tech(
            "cargo_hold",
            "Cargo Hold",
            1,
            "Cargo room: 5 m³ a level on a starfighter, 25 m³ on a starship.",
            per_level=True,
        ),
        _tech(
            "death_blossom",
            "Death Blossom",
            5,
            "10 automatic damage plus a 10-dice attack on everything within 5 hexes; needs "
            "a stationary charging turn first and costs the user its next 2 turns.",
            power=7,
            power_per="use",
            speed=-3,
        ),
        _tech(
            "disruptor",
            "Disruptor Weapons",
            2,
            "The craft's weapons ignore Force Fields, and each level takes 1 off the "
            "shield part of the target's Soak.",
            per_level=True,
        ),
        _tech(
            "duplicator",
            "Duplicator",
            5,
            "The craft copies the attributes and equipment of one enemy of its scale.",
            power=5,
            power_per="use",
            speed=0,
        ),
        _tech(
            "emp",
            "Electromagnetic Pulse (EMP)",
            4,
            "Every enemy craft within 10 hexes is stunned for a turn.",
            power=3,
            power_per="use",
            speed=-3,
        ),
        _tech(
            "enhanced_soak",
            "Enhanced Soak",
            3,
            "Counts one scale higher for Soak: the first 5 successes of each attack on it "
            "are ignored, unless the weapon is Armor-Piercing or Disruptor.",
        ),
        _tech(
            "enhanced_lasers",
            "Enhanced Lasers",
            3,
            "Every laser gets +5 damage and +5 range.",
        ),
        _tech(
            "enhanced_missiles",
            "Enhanced Missiles",
            3,
            "Every missile or torpedo gets +5 damage and +5 range.",
        ),
        _tech(
            "enhanced_sensors",
            "Enhanced Sensors",
            4,
            "The craft knows where every stealthed craft is.",
        ),
        _tech(
            "force_field",
            "Force Field",
            5,
            "Nothing but a Disruptor weapon can damage the craft; while it is up the craft "
            "may move but do nothing else.",
            power=1,
            power_per="turn",
            speed=1,
            abort=True,
        ),
        _tech(
            "hangar_bay",
            "Hangar Bay",
            1,
            "Berths with repair and supply: one small vehicle a level on a starfighter, one "
            "starfighter on a starship.",
            per_level=True,
        ),
        _tech(
            "holo_projector",
            "Holo-Projector",
            1,
            "A holographic decoy up to 5 hexes away; it vanishes when hit or pushed further.",
            speed=0,
        ),
        _tech(
            "hyper_ram",
            "Hyper-Ram",
            4,
            "The craft rams or collides without taking damage itself.",
            power=5,
            power_per="use",
            speed=0,
        ),
        _tech(
            "passengers",
            "Passengers",
            1,
            "Passenger room: 5 a level on a starfighter, 25 on a starship.",
            per_level=True,
        ),
        _tech(
            "pi_tac_cannon",
            "Pi-Tac Cannon",
            5,
            "10 automatic damage plus a 10-dice attack along the straight line ahead; needs "
            "a stationary charging turn first.",
            power=7,
            power_per="use",
            speed=-3,
        ),
        _tech(
            "plasma_field",
            "Plasma Field",
            3,
            "Anything passing within 2 hexes takes an 8-dice attack.",
            power=1,
            power_per="turn",
            speed=0,
            abort=True,
        ),
        _tech(
            "plasma_missile",
            "Plasma Missile",
            1,
            "A missile whose blast makes an 8-dice attack on every craft within 3 hexes.",
            per_level=True,
            speed=-3,
        ),
        _tech(
            "plasma_trail",
            "Plasma Trail",
            3,
            "For a turn, any other craft entering a hex this craft flew through takes an "
            "8-dice attack.",
            power=1,
            power_per="turn",
            speed=0,
        ),
        _tech(
            "remote_bits",
            "Remote Bits",
            2,
            "Lasers may also fire straight ahead from the hexes left and right of the craft: "
            "a field of fire 3 hexes wide.",
        ),
        _tech(
            "remote_laser",
            "Remote Laser",
            1,
            "A laser drone that flies like a missile (Move 5, range 20) and shoots ahead of "
            "itself for 6 damage at range 10.",
            speed=-1,
        ),
        _tech(
            "stealth",
            "Stealth",
            5,
            "The craft leaves the board and moves in secret; lasers and missiles cannot "
            "target it and it cannot fire. Cloaking takes an action.",
            power=1,
            power_per="turn",
            speed=-1,
        ),
        _tech(
            "targeting_computer",
            "Targeting Computer",
            2,
            "Each Power spent takes 1 off the target's Soak, but only Soak it got from maneuvers.",
            power=1,
            power_per="point",
        ),
        _tech(
            "teleport",
            "Teleport",
            5,
            "Instead of moving, the craft jumps a number of hexes.",
            power=1,
            power_per="hex",
            speed=1,
            abort=True,
        ),
        _tech(
            "temporal_displacement",
            "Temporal Displacement Device",
            5,
            "Re-roll the last roll, at any time and without an action.",
            power=5,
            power_per="use",
        ),
        _tech(
            "tractor_beam",
            "Tractor Beam",
            4,
            "Range 2: a hit grabs the target, which must beat a strength of 10 (plus Power "
            "spent, plus or minus scale) with Move dice each turn end to break free; the "
            "holder moves it up to 2 hexes a turn.",
            speed=0,
        ),
        _tech(
            "transformation",
            "Transformation",
            2,
            "Alternative configurations of the same point value; switching takes an action.",
            per_level=True,
            speed=-2,
        ),
    )
}
"""The seed's thirty advanced technologies by id."""

_TECH_ALIASES = {
    "ai": "artificial_intelligence",
    "armor_piercing_weapons": "armor_piercing",
    "armour_piercing": "armor_piercing",
    "disruptor_weapons": "disruptor",
    "electromagnetic_pulse": "emp",
    "electromagnetic_pulse_emp": "emp",
    "temporal_displacement_device": "temporal_displacement",
    "time_displacement_device": "temporal_displacement",
    "holoprojector": "holo_projector",
    "hyperram": "hyper_ram",
    "pitac_cannon": "pi_tac_cannon",
    "pi_tac": "pi_tac_cannon",
    "cargo_bay": "cargo_hold",
    "passenger_capacity": "passengers",
}


def technology_kind(name: str) -> TechnologyKind:
    """A technology by id or by the seed's heading ('Pi-Tac Cannon', 'EMP', 'AI')."""
    key = _ident(name)
    key = _TECH_ALIASES.get(key, key)
    if key not in TECHNOLOGIES:
        raise ValueError(f"unknown advanced technology {name!r}; known: {', '.join(TECHNOLOGIES)}")
    return TECHNOLOGIES[key]


class TechnologySpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An advanced technology in a craft file (a bare name means level 1)."""

    name: str
    level: int = 1
    """Levels bought; only "each" technologies may have more than 1."""
    points: int | None = None
    """The Power Points the source lists for it, when it lists any (the checker compares
    them with the table)."""
    written: str = ""
    """How the source names it, when that is not the seed's name."""
    notes: str = ""


class Technology(msgspec.Struct, frozen=True, kw_only=True):
    """A validated advanced technology on a craft."""

    id: str
    level: int
    points: int | None = None
    written: str = ""
    notes: str = ""

    @property
    def spec(self) -> TechnologyKind:
        """The technology table entry."""
        return TECHNOLOGIES[self.id]

    @property
    def cost(self) -> int:
        """Power Points by the table: cost x level for "each" technologies."""
        return self.spec.cost * self.level


# ---- accessories ------------------------------------------------------------------------

_ACCESSORY = re.compile(r"^\s*(?P<name>.*?)\s*(?:\(\s*(?P<count>\d+)\s*\))?\s*$")


class Accessory(msgspec.Struct, frozen=True, kw_only=True):
    """An accessory as a craft lists it: a name and how many ('FTL (2)' is 2)."""

    name: str
    count: int = 1

    def label(self) -> str:
        """'FTL (2)' or 'Sensors'."""
        return f"{self.name} ({self.count})" if self.count != 1 else self.name


def parse_accessory(text: str) -> Accessory:
    """'Crew Quarters (9)' -> Accessory('Crew Quarters', 9); names are kept as written."""
    match = _ACCESSORY.match(text)
    name = match.group("name") if match else ""
    if not name:
        raise ValueError(f"an accessory needs a name (got {text!r})")
    count = int(match.group("count")) if match and match.group("count") else 1
    if count < 1:
        raise ValueError(f"an accessory count is at least 1 (got {text!r})")
    return Accessory(name=name, count=count)


# ---- pilots -----------------------------------------------------------------------------


class Pilot(msgspec.Struct, frozen=True, kw_only=True):
    """The traits a pilot or gunner brings to a craft (SF:TSG ratings, rules-notes C.2)."""

    name: str = "Regular"
    dexterity: int = 3
    wits: int = 3
    """Breaks Speed ties (rules-notes C.3 proposal)."""
    piloting: int = 2
    gunnery: int = 1
    willpower: int = 5
    """Pays for aborts and bought successes; 0 for an AI, which can do neither."""
    ai: bool = False


ROOKIE = Pilot(name="Rookie", dexterity=2, wits=2, piloting=1, gunnery=0, willpower=3)
REGULAR = Pilot(name="Regular", dexterity=3, wits=3, piloting=2, gunnery=1, willpower=5)
VETERAN = Pilot(name="Veteran", dexterity=4, wits=3, piloting=3, gunnery=2, willpower=6)
ACE = Pilot(name="Ace", dexterity=5, wits=4, piloting=4, gunnery=3, willpower=8)

PILOT_TEMPLATES: dict[str, Pilot] = {
    "rookie": ROOKIE,
    "regular": REGULAR,
    "veteran": VETERAN,
    "ace": ACE,
}
"""The crew templates of rules-notes C.8 (a PROPOSAL); `regular` is the default."""

DEFAULT_PILOT = REGULAR


def pilot_template(name: str) -> Pilot:
    """A crew template by name: rookie, regular, veteran or ace."""
    try:
        return PILOT_TEMPLATES[name.strip().lower()]
    except KeyError:
        raise UnknownName(
            f"no pilot template {name!r}; known: {', '.join(PILOT_TEMPLATES)}"
        ) from None


class AiSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How a craft file shares its Artificial Intelligence points."""

    dexterity: int = 0
    piloting: int = 0
    gunnery: int = 0


def ai_split(points: int) -> tuple[int, int, int]:
    """The default share of AI points: as even as possible, Dexterity first, then Piloting."""
    base, extra = divmod(points, 3)
    return base + (extra > 0), base + (extra > 1), base


def ai_pilot(levels: int, split: AiSpec | None = None) -> Pilot:
    """The virtual pilot of Artificial Intelligence `levels`: 2 points a level.

    With no split given, the points are shared as `ai_split` does. An AI has no Wits
    and no Willpower: it cannot abort or buy successes (rules-notes C.8 proposal).
    """
    if split is None:
        dexterity, piloting, gunnery = ai_split(2 * levels)
    else:
        dexterity, piloting, gunnery = split.dexterity, split.piloting, split.gunnery
    return Pilot(
        name=f"AI {levels}",
        dexterity=dexterity,
        wits=0,
        piloting=piloting,
        gunnery=gunnery,
        willpower=0,
        ai=True,
    )


# ---- transformation forms -------------------------------------------------------------


class FormSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An alternative configuration for Transformation (SFA-TEC-30): the attributes it
    moves around. Left out, a value is the craft's own. Handling + armour + shields +
    Move must add up to the craft's own total (the seed: "the total point value of each
    design must equal the original")."""

    name: str
    handling: int | None = None
    armor: int | None = None
    shields: int | None = None
    move: int | None = None
    notes: str = ""


class Form(msgspec.Struct, frozen=True, kw_only=True):
    """A validated Transformation form."""

    name: str
    handling: int
    armor: int
    shields: int
    move: int


# ---- Street Fighters ----------------------------------------------------------------------


class Fighter(msgspec.Struct, frozen=True, kw_only=True):
    """A Street Fighter's SF:TSG traits (rules-notes C.2, C.3), the part of a person's
    sheet that the battle uses. Its attack maneuvers are the design's `weapons`."""

    strength: int
    dexterity: int
    stamina: int
    """Subtracts from damage pools against the fighter: its whole Soak (SFA-SF-5)."""
    wits: int
    athletics: int
    """Hexes of movement at Street Fighter scale (SFA-SF-3)."""
    health: int
    """Like a craft's Structure: knocked out at 0 (SFA-SF-6)."""
    willpower: int
    techniques: tuple[tuple[str, int], ...] = ()
    """Technique dots by name (punch, kick, block, grab, focus...)."""


# ---- craft ------------------------------------------------------------------------------

ORIGINS = ("seed", "original", "converted")
"""`seed`: a seed's example craft; `original`: our own design; `converted`: imported from
another game (Appendix 2)."""


class CraftSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A craft as written in a data file (see docs/sfa-construction.md).

    Give Soak either as `soak:` alone (all of it then counts as armour, and the checker
    notes that it was not divided) or as `armor:` and `shields:` (with `soak:` too, the
    three must agree).
    """

    id: str
    name: str
    scale: str | int
    handling: int
    move: int
    power: int
    structure: int
    soak: int | None = None
    armor: int | None = None
    shields: int | None = None
    crew: int = 1
    concept: str = ""
    weapons: list[WeaponSpec] = msgspec.field(default_factory=list)
    technologies: list[str | TechnologySpec] = msgspec.field(default_factory=list)
    accessories: list[str] = msgspec.field(default_factory=list)
    ai: AiSpec | None = None
    """How the Artificial Intelligence points are shared (default: `ai_split`)."""
    forms: list[FormSpec] = msgspec.field(default_factory=list)
    """Transformation's alternative forms (one per level of Transformation)."""
    origin: str = "original"
    source: str = ""
    notes: str = ""


class Craft(msgspec.Struct, frozen=True, kw_only=True):
    """A validated craft."""

    id: str
    name: str
    scale: int
    """Scale level: 1 Starfighter, 2 Starship, 2 + N Starship + N (see `scale_label`)."""
    concept: str
    crew: int
    handling: int
    armor: int
    shields: int
    soak_divided: bool
    """False when the file gave only a total Soak (then all of it is armour)."""
    move: int
    power: int
    structure: int
    weapons: tuple[Weapon, ...]
    technologies: tuple[Technology, ...]
    accessories: tuple[Accessory, ...]
    ai: AiSpec | None
    origin: str
    source: str
    notes: str
    forms: tuple[Form, ...] = ()
    """Transformation's alternative forms (SFA-TEC-30)."""
    fighter: Fighter | None = None
    """The SF:TSG sheet when this 'design' is a Street Fighter, a person at Street
    Fighter scale (SFA-SF-1; see `person.py`); None for a spacecraft."""

    @property
    def soak(self) -> int:
        """The craft's Soak stat: armour + shields (not the defender's total Soak)."""
        return self.armor + self.shields

    @property
    def scale_label(self) -> str:
        """'Starfighter', 'Starship', 'Starship + 1'..."""
        return scale_label(self.scale)

    def technology(self, tech_id: str) -> Technology | None:
        """The craft's entry for a technology, or None."""
        for tech in self.technologies:
            if tech.id == tech_id:
                return tech
        return None

    def level(self, tech_id: str) -> int:
        """The craft's level in a technology (0 without it)."""
        tech = self.technology(tech_id)
        return tech.level if tech is not None else 0

    def has(self, tech_id: str) -> bool:
        """Whether the craft carries a technology."""
        return self.technology(tech_id) is not None

    def ai_pilot(self) -> Pilot | None:
        """The Artificial Intelligence's virtual pilot, or None without one."""
        levels = self.level("artificial_intelligence")
        return ai_pilot(levels, self.ai) if levels else None

    def turret_weapons(self) -> int:
        """How many turreted weapons it mounts (each wants a gunner without Auto-Turrets)."""
        return sum(w.count for w in self.weapons if w.turret)

    def gunners_needed(self) -> int:
        """Dedicated gunners the weapons need: one per turret, none with Auto-Turrets."""
        return 0 if self.has("auto_turrets") else self.turret_weapons()

    def capacity(self, tech_id: str) -> int:
        """What a Cargo Hold (m³), Passengers (people) or Hangar Bay (craft) holds.

        Starship-scale figures are five times the starfighter ones for cargo and
        passengers; every step above Starship multiplies by 5 again.
        """
        level = self.level(tech_id)
        per_level = {"cargo_hold": (5, 25), "passengers": (5, 25), "hangar_bay": (1, 1)}
        if tech_id not in per_level:
            raise ValueError(f"{tech_id} has no capacity")
        small, large = per_level[tech_id]
        if self.scale < STARSHIP:
            return level * small
        return level * large * upscale_factor(self.scale)


def _tech_spec(entry: str | TechnologySpec) -> TechnologySpec:
    return TechnologySpec(name=entry) if isinstance(entry, str) else entry


def build_craft(spec: CraftSpec, where: str) -> Craft:
    """Check a parsed spec's values and build the craft; errors name file, craft, field."""

    def bad(field: str, message: str) -> DataError:
        return DataError(f"{where}: craft '{spec.id}': field '{field}': {message}")

    try:
        scale = parse_scale(spec.scale)
    except ValueError as exc:
        raise bad("scale", str(exc)) from None
    if spec.origin not in ORIGINS:
        raise bad("origin", f"must be one of {', '.join(ORIGINS)}, not {spec.origin!r}")
    for field, value in (
        ("crew", spec.crew),
        ("move", spec.move),
        ("power", spec.power),
        ("soak", spec.soak),
        ("armor", spec.armor),
        ("shields", spec.shields),
    ):
        if value is not None and value < 0:
            raise bad(field, f"must not be negative, not {value}")
    if spec.structure < 1:
        raise bad("structure", f"must be at least 1, not {spec.structure}")
    armor, shields, divided = _soak_parts(spec, bad)
    techs = _technologies(spec, bad)
    levels = {t.id: t.level for t in techs}
    weapons = tuple(_weapon(spec, i, w, scale, levels, bad) for i, w in enumerate(spec.weapons))
    accessories = []
    for i, text in enumerate(spec.accessories):
        try:
            accessories.append(parse_accessory(text))
        except ValueError as exc:
            raise bad(f"accessories[{i}]", str(exc)) from None
    if spec.ai is not None:
        if "artificial_intelligence" not in levels:
            raise bad("ai", "the craft has no Artificial Intelligence to share out")
        for part in ("dexterity", "piloting", "gunnery"):
            if getattr(spec.ai, part) < 0:
                raise bad(f"ai.{part}", "must not be negative")
    forms = _forms(spec, armor, shields, levels, bad)
    return Craft(
        id=spec.id,
        name=spec.name,
        scale=scale,
        concept=spec.concept,
        crew=spec.crew,
        handling=spec.handling,
        armor=armor,
        shields=shields,
        soak_divided=divided,
        move=spec.move,
        power=spec.power,
        structure=spec.structure,
        weapons=weapons,
        technologies=techs,
        accessories=tuple(accessories),
        ai=spec.ai,
        origin=spec.origin,
        source=spec.source,
        notes=spec.notes,
        forms=forms,
    )


def _forms(
    spec: CraftSpec, armor: int, shields: int, levels: dict[str, int], bad: Any
) -> tuple[Form, ...]:
    """Transformation forms: one per level, each worth what the craft itself is."""
    if not spec.forms:
        return ()
    allowed = levels.get("transformation", 0)
    if not allowed:
        raise bad("forms", "only a craft with Transformation has alternative forms")
    if len(spec.forms) > allowed:
        raise bad("forms", f"{len(spec.forms)} forms but Transformation level {allowed}")
    total = spec.handling + armor + shields + spec.move
    out: list[Form] = []
    for i, f in enumerate(spec.forms):
        form = Form(
            name=f.name,
            handling=spec.handling if f.handling is None else f.handling,
            armor=armor if f.armor is None else f.armor,
            shields=shields if f.shields is None else f.shields,
            move=spec.move if f.move is None else f.move,
        )
        if not form.name or form.name == "base" or any(o.name == form.name for o in out):
            raise bad(f"forms[{i}].name", f"needs a unique name other than 'base', not {f.name!r}")
        if min(form.armor, form.shields, form.move) < 0:
            raise bad(f"forms[{i}]", "armor, shields and move must not be negative")
        points = form.handling + form.armor + form.shields + form.move
        if points != total:
            raise bad(
                f"forms[{i}]",
                f"handling + armor + shields + move is {points}; it must equal the "
                f"craft's own {total}",
            )
        out.append(form)
    return tuple(out)


def _soak_parts(spec: CraftSpec, bad: Any) -> tuple[int, int, bool]:
    if spec.armor is None and spec.shields is None:
        if spec.soak is None:
            raise bad("soak", "missing (give soak:, or armor: and shields:)")
        return spec.soak, 0, False
    armor, shields = spec.armor or 0, spec.shields or 0
    if spec.soak is not None and spec.soak != armor + shields:
        raise bad(
            "soak", f"is {spec.soak} but armor {armor} + shields {shields} = {armor + shields}"
        )
    return armor, shields, True


def _technologies(spec: CraftSpec, bad: Any) -> tuple[Technology, ...]:
    techs: list[Technology] = []
    for i, entry in enumerate(spec.technologies):
        tspec = _tech_spec(entry)
        try:
            kind = technology_kind(tspec.name)
        except ValueError as exc:
            raise bad(f"technologies[{i}].name", str(exc)) from None
        if any(t.id == kind.id for t in techs):
            raise bad(f"technologies[{i}].name", f"{kind.label} is listed twice")
        if tspec.level < 1:
            raise bad(f"technologies[{i}].level", f"must be at least 1, not {tspec.level}")
        if tspec.level > 1 and not kind.per_level:
            raise bad(
                f"technologies[{i}].level",
                f"{kind.label} is bought once, not in levels (got {tspec.level})",
            )
        if tspec.points is not None and tspec.points < 0:
            raise bad(f"technologies[{i}].points", "must not be negative")
        techs.append(
            Technology(
                id=kind.id,
                level=tspec.level,
                points=tspec.points,
                written=tspec.written,
                notes=tspec.notes,
            )
        )
    return tuple(techs)


def _weapon(
    spec: CraftSpec, i: int, w: WeaponSpec, craft_scale: int, levels: dict[str, int], bad: Any
) -> Weapon:
    field = f"weapons[{i}]"
    try:
        kind = weapon_kind(w.kind)
    except ValueError as exc:
        raise bad(f"{field}.kind", str(exc)) from None
    if w.count < 1:
        raise bad(f"{field}.count", f"must be at least 1, not {w.count}")
    arc = w.arc
    if arc is not None and arc not in ARCS:
        raise bad(f"{field}.arc", f"must be one of {', '.join(ARCS)}, not {arc!r}")
    if arc is None:
        arc = "all" if w.turret else "forward"
    elif w.turret is not None and w.turret != (arc != "forward"):
        raise bad(f"{field}.turret", f"turret: {str(w.turret).lower()} contradicts arc: {arc}")
    scale = craft_scale
    if w.scale is not None:
        try:
            scale = parse_scale(w.scale)
        except ValueError as exc:
            raise bad(f"{field}.scale", str(exc)) from None
    if w.range is not None and w.range < 1:
        raise bad(f"{field}.range", f"must be at least 1, not {w.range}")
    if w.attack is not None and w.attack < 0:
        raise bad(f"{field}.attack", f"must not be negative, not {w.attack}")
    enhancer = "enhanced_lasers" if kind.laser else "enhanced_missiles" if kind.guided else ""
    bonus = ENHANCEMENT if enhancer and levels.get(enhancer) else 0
    attack = w.attack if w.attack is not None else kind.attack
    rng = w.range if w.range is not None else kind.range
    return Weapon(
        name=w.name or kind.label,
        kind=kind.id,
        count=w.count,
        arc=arc,  # type: ignore[arg-type]  # checked against ARCS above
        fire_linked=w.fire_linked,
        scale=scale,
        speed=w.speed if w.speed is not None else kind.speed,
        attack=attack + bonus,
        range=rng + bonus,
        damage_checks=kind.damage_checks,
        bonus=bonus,
        custom=any(
            given is not None and given != table
            for given, table in (
                (w.speed, kind.speed),
                (w.attack, kind.attack),
                (w.range, kind.range),
            )
        ),
        notes=w.notes,
    )


def load_craft_file(path: Path | str) -> Craft:
    """Read one craft file; the craft's id must match the file name."""
    path = Path(path)
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise DataError(f"{path}: a craft file must be a mapping (id:, name:, scale: ...)")
    where = f"{path}: craft '{raw['id']}'" if isinstance(raw.get("id"), str) else str(path)
    spec = convert(raw, CraftSpec, where)
    if spec.id != path.stem:
        raise DataError(f"{path}: field 'id': '{spec.id}' must match the file name '{path.stem}'")
    return build_craft(spec, str(path))


def craft_dir() -> Path:
    """Where the built-in SFA craft files live."""
    return package_data("sfa", "craft")


@cache
def catalog() -> dict[str, Craft]:
    """Every built-in SFA craft by id."""
    return {p.stem: load_craft_file(p) for p in sorted(craft_dir().glob("*.yaml"))}


def find_craft(name: str, extra: dict[str, Craft] | None = None) -> Craft:
    """A craft by id (from `extra` first, then the built-in catalog)."""
    return lookup(name, catalog(), extra, "sfa craft")


def weapon_label(w: Weapon) -> str:
    """'2 x Light Laser, fire-linked' or 'Medium Laser (turret)', for tables."""
    text = f"{w.count} x {w.name}" if w.count != 1 else w.name
    if w.fire_linked:
        text += ", fire-linked"
    return text + {"forward": "", "front": " (180° turret)", "all": " (turret)"}[w.arc]


def technology_label(t: Technology) -> str:
    """'Artificial Intelligence 5' or 'Force Field'."""
    return f"{t.spec.label} {t.level}" if t.spec.per_level else t.spec.label


def describe(craft: Craft) -> dict[str, Any]:
    """Plain data for `dogfight show` and JSON output."""
    return {
        "id": craft.id,
        "name": craft.name,
        "scale": craft.scale_label,
        "scale_level": craft.scale,
        "concept": craft.concept,
        "crew": craft.crew,
        "handling": craft.handling,
        "soak": craft.soak,
        "armor": craft.armor,
        "shields": craft.shields,
        "move": craft.move,
        "power": craft.power,
        "structure": craft.structure,
        "weapons": [
            {
                "name": w.name,
                "kind": w.kind,
                "count": w.count,
                "arc": w.arc,
                "fire_linked": w.fire_linked,
                "scale": scale_label(w.scale),
                "speed": w.speed,
                "attack": w.attack,
                "range": w.range,
                "damage_checks": w.damage_checks,
            }
            for w in craft.weapons
        ],
        "technologies": [technology_label(t) for t in craft.technologies],
        "forms": [msgspec.structs.asdict(f) for f in craft.forms],
        "accessories": [a.label() for a in craft.accessories],
        "origin": craft.origin,
        "source": craft.source,
        "notes": craft.notes,
    }
