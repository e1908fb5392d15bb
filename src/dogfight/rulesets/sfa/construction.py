"""Checking a craft against SFA's construction rules (seed 003, "Constructing a Spacecraft").

The seed builds a craft like a Street Fighter character, in five steps: concept;
attributes (Handling, Soak and Move prioritised 2/1/0 from zero); weapons from a weapon
point budget; advanced technologies from a Power Point budget; then freebie points,
accessories and crew. Where the seed gives no price, the costs are the PROPOSAL of
rules-notes C.7.11 (freebies per dot: Handling 5, Soak 5, Move 5, Power 1, Structure 2
above a base of 10). `docs/sfa-construction.md` explains every step and number.

`check_design` never refuses a craft: it lists each budget (allowed, spent) and every
rule the design breaks. The Storyteller's choices (budgets, and the readings of two
places where the seed's construction text is ambiguous) are a `DesignRules`. A design
with no breach is `conforming`; warnings and notes (a doubtful value, a guideline the
seed only says "generally") do not change that.
"""

from __future__ import annotations

import difflib
import re
from fractions import Fraction
from itertools import permutations
from typing import Any, Literal

import msgspec
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dogfight.rulesets.sfa.craft import (
    FIRE_LINK_COST,
    STARFIGHTER,
    STARSHIP,
    TURRET_COST,
    Craft,
    Weapon,
    describe,
    scale_label,
    technology_kind,
    technology_label,
    upscale_factor,
    weapon_label,
)

# ---- the numbers of the construction rules --------------------------------------------

PRIORITY_DOTS = (2, 1, 0)
"""Dots for the first, second and third of Handling, Soak and Move (step two)."""
ATTRIBUTES = ("handling", "soak", "move")

BASE_FREEBIES = 15
BASE_STRUCTURE = 10
"""Structure every design starts with (the seed's "standard")."""
FREEBIE_COST = {"handling": 5, "soak": 5, "move": 5, "power": 1, "structure": 2}
"""Freebies per dot (PROPOSAL, rules-notes C.7.11; the seed gives none)."""
STRUCTURE_REFUND = 2
"""Freebies gained for each point of Structure below 10 (seed)."""
HANDLING_REFUND = 5
"""Freebies gained for each point of Handling below 0 (seed)."""
WEAPON_EXCHANGE = 2
"""Freebies for each weapon point left unspent (seed)."""
ACCESSORY_FREEBIE_COST = 1
"""Freebies for each accessory beyond the free allowance (seed: "each accessory costs 1")."""
SMALLER_SCALE_DIVISOR = 5
"""A component one scale smaller costs a fifth (seed, "Out-of-Scale Designs")."""

RANGES = {
    "handling": (-5, 5),
    "soak": (0, 5),
    "move": (0, 5),
    "power": (0, 10),
    "structure": (1, 20),
}
"""The stat block's ranges (the first template; rules-notes C.7.10 lets Soak, Move and
Power be 0, as the example craft are)."""

CREW_PER_STRUCTURE = 10
"""Starships "generally" carry at most 10 crew per point of Structure (seed)."""


def weapon_points(scale: int) -> int:
    """Weapon point budget: 5 for a starfighter, 15 for a starship (and larger)."""
    return 15 if scale >= STARSHIP else 5


def power_points(scale: int) -> int:
    """Default Power Point budget: 5 for a starfighter, 10 for a starship (and larger)."""
    return 10 if scale >= STARSHIP else 5


def accessory_points(scale: int) -> int:
    """Free accessory points: 10 for a starfighter, 20 for a starship (and larger)."""
    return 20 if scale >= STARSHIP else 10


# ---- the Storyteller's choices -------------------------------------------------------------

FireLinkPricing = Literal["group", "weapon"]
"""How the table's "Fire-Linked +1" is charged: once for each linked group (the seed's
wording, "allows two or more weapons to be fired at the same time") or for each weapon."""
OutOfScalePricing = Literal["arithmetic", "example"]
"""How a smaller-scale weapon is priced: "arithmetic" divides its whole price (turret and
fire-link included) by 5 per step down, in exact fractions; "example" follows the seed's
worked example (two turreted starfighter Medium Lasers "for 1 Weapon Point" on a
starship), which only comes out if the table price alone is divided and the result
rounded down to whole points."""

MAX_BUDGET = 10_000
"""The largest budget a Storyteller may set (far above any design; keeps numbers sane)."""


class DesignRules(msgspec.Struct, frozen=True, kw_only=True):
    """What the Storyteller decides for a design check (SFA-CON-*).

    A budget left as None is the seed's figure for the craft's scale. The seed says the
    Power Point figure is only "generally" 5 or 10, and that "the Storyteller might also
    allow the higher-scale designs to purchase more": `upscale_budgets` multiplies every
    budget by 5 for each step above Starship, the factor the seed uses for crew and
    cargo at those scales (PROPOSAL: the seed names no factor for budgets).
    """

    weapon_points: int | None = None
    power_points: int | None = None
    accessory_points: int | None = None
    upscale_budgets: bool = False
    fire_link: FireLinkPricing = "group"
    out_of_scale: OutOfScalePricing = "arithmetic"

    def __post_init__(self) -> None:
        for name in ("weapon_points", "power_points", "accessory_points"):
            value = getattr(self, name)
            if value is not None and not 0 <= value <= MAX_BUDGET:
                raise ValueError(f"{name} must be 0 to {MAX_BUDGET}, not {value}")

    def budget(self, name: str, scale: int) -> int:
        """The allowance for `name` (weapon_points, power_points, accessory_points)."""
        given: int | None = getattr(self, name)
        if given is not None:
            return given
        seed = {
            "weapon_points": weapon_points,
            "power_points": power_points,
            "accessory_points": accessory_points,
        }[name](scale)
        return seed * upscale_factor(scale) if self.upscale_budgets else seed


SEED_RULES = DesignRules()
"""The seed's budgets and the plainest readings: fire-link +1 a group, exact fifths."""


# ---- accessories --------------------------------------------------------------------------

Size = Literal["starfighter", "starship"]


class AccessoryKind(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of the seed's accessory list."""

    id: str
    label: str
    only: Size | None = None
    """The scale it is listed for, if one."""
    recommended: tuple[Size, ...] = ()
    """Scales for which the seed calls it highly recommended."""
    max_count: int | None = None


ACCESSORIES: dict[str, AccessoryKind] = {
    a.id: a
    for a in (
        AccessoryKind(id="airlocks", label="Airlocks", recommended=("starship",)),
        AccessoryKind(id="atmospheric_wings", label="Atmospheric Wings"),
        AccessoryKind(
            id="communications_systems",
            label="Communications Systems",
            recommended=("starfighter", "starship"),
        ),
        AccessoryKind(id="crew_station", label="Co-Pilot, or Crew Station", only="starfighter"),
        AccessoryKind(id="crew_quarters", label="Crew Quarters", only="starship"),
        AccessoryKind(id="docking_clamps", label="Docking Clamps"),
        AccessoryKind(id="ejection_pods", label="Ejection Pods", only="starfighter"),
        AccessoryKind(id="engine_access_panels", label="Engine Access Panels", only="starfighter"),
        AccessoryKind(id="engineering_deck", label="Engineering Deck", only="starship"),
        AccessoryKind(id="escape_pods", label="Escape Pods", only="starship"),
        AccessoryKind(id="eva_and_pressure_suits", label="EVA and Pressure Suits"),
        AccessoryKind(id="food_and_supplies", label="Food and Supplies", recommended=("starship",)),
        AccessoryKind(id="ftl_drive", label="FTL Drive", max_count=5),
        AccessoryKind(id="landing_gear", label="Landing Gear"),
        AccessoryKind(id="legs", label="Legs"),
        AccessoryKind(
            id="life_support", label="Life Support", recommended=("starfighter", "starship")
        ),
        AccessoryKind(id="manipulator_arms", label="Manipulator Arms"),
        AccessoryKind(id="medical_bay", label="Medical Bay", only="starship"),
        AccessoryKind(id="medical_panel", label="Medical Panel", only="starfighter"),
        AccessoryKind(id="recreation_console", label="Recreation Console", only="starfighter"),
        AccessoryKind(id="recreation_facilities", label="Recreation Facilities", only="starship"),
        AccessoryKind(id="science_computer", label="Science Computer", only="starfighter"),
        AccessoryKind(id="science_laboratories", label="Science Laboratories", only="starship"),
        AccessoryKind(id="search_lights", label="Search Lights"),
        AccessoryKind(id="sensors", label="Sensors", recommended=("starfighter", "starship")),
    )
}
"""The seed's accessory list by id; each costs 1 point a purchase."""

_ACCESSORY_ALIASES = {
    "communications": "communications_systems",
    "communication_systems": "communications_systems",
    "comms": "communications_systems",
    "ftl": "ftl_drive",
    "co_pilot": "crew_station",
    "copilot": "crew_station",
    "co_pilot_or_crew_station": "crew_station",
    "eva_suits": "eva_and_pressure_suits",
    "pressure_suits": "eva_and_pressure_suits",
    "leg": "legs",
}

_NEAREST = {
    "ejection_seat": "Ejection Pods",
    "science_station": "Science Computer",
    "recreation_deck": "Recreation Facilities",
    "cargo_bay": "the Cargo Hold technology",
    "cargo_hold": "the Cargo Hold technology",
}
"""Names the example craft use that are not on the list, with the nearest listed item."""


def _ident(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def accessory_kind(name: str) -> AccessoryKind | None:
    """The listed accessory a name means ('Airlock', 'FTL', 'additional Crew Quarters')."""
    key = _ident(re.sub(r"^\s*additional\s+", "", name, flags=re.IGNORECASE))
    key = _ACCESSORY_ALIASES.get(key, key)
    for candidate in (key, key + "s", key.removesuffix("s"), key.removesuffix("y") + "ies"):
        candidate = _ACCESSORY_ALIASES.get(candidate, candidate)
        if candidate in ACCESSORIES:
            return ACCESSORIES[candidate]
    return None


def _nearest_accessory(name: str) -> str | None:
    key = _ident(re.sub(r"^\s*additional\s+", "", name, flags=re.IGNORECASE))
    if key in _NEAREST:
        return _NEAREST[key]
    labels = {a.label.lower(): a.label for a in ACCESSORIES.values()}
    close = difflib.get_close_matches(name.lower(), list(labels), n=1, cutoff=0.6)
    return labels[close[0]] if close else None


# ---- the report ---------------------------------------------------------------------------

Severity = Literal["breach", "warning", "note"]


class Line(msgspec.Struct, frozen=True, kw_only=True):
    """One item of a budget: what was bought or gained, and for how much."""

    item: str
    amount: int | float


class Budget(msgspec.Struct, frozen=True, kw_only=True):
    """One pool of construction points: how many the design may spend and did."""

    name: str
    allowed: int | float
    spent: int | float
    lines: tuple[Line, ...] = ()
    """Where the allowance comes from (gains) and what it went on (costs)."""

    @property
    def left(self) -> int | float:
        """Unspent points (negative when over)."""
        return _number(Fraction(str(self.allowed)) - Fraction(str(self.spent)))

    @property
    def over(self) -> bool:
        """More spent than allowed."""
        return Fraction(str(self.spent)) > Fraction(str(self.allowed))


class Finding(msgspec.Struct, frozen=True, kw_only=True):
    """Something the checker has to say about a design.

    `breach`: a construction rule is broken (the design is not conforming).
    `warning`: the data disagree with the seed, or a "generally" guideline is exceeded.
    `note`: worth knowing, nothing wrong.
    """

    code: str
    severity: Severity
    step: str
    message: str


class DesignReport(msgspec.Struct, frozen=True, kw_only=True):
    """The construction check of one craft."""

    craft: Craft
    priorities: dict[str, int]
    """Dots from the 2/1/0 priorities given to Handling, Soak and Move (the cheapest
    assignment for this craft)."""
    budgets: tuple[Budget, ...]
    findings: tuple[Finding, ...]

    @property
    def conforming(self) -> bool:
        """No construction rule is broken."""
        return not any(f.severity == "breach" for f in self.findings)

    def budget(self, name: str) -> Budget:
        """A budget by name: weapons, power points, accessories, freebies."""
        for budget in self.budgets:
            if budget.name == name:
                return budget
        raise KeyError(name)

    def breaches(self) -> list[Finding]:
        """The findings that make the design non-conforming."""
        return [f for f in self.findings if f.severity == "breach"]

    def codes(self, severity: Severity | None = None) -> list[str]:
        """The findings' codes (of one severity, or all)."""
        return [f.code for f in self.findings if severity is None or f.severity == severity]

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        return {
            "craft": describe(self.craft),
            "conforming": self.conforming,
            "priorities": dict(self.priorities),
            "budgets": [
                {
                    "name": b.name,
                    "allowed": b.allowed,
                    "spent": b.spent,
                    "left": b.left,
                    "over": b.over,
                    "lines": [{"item": line.item, "amount": line.amount} for line in b.lines],
                }
                for b in self.budgets
            ],
            "findings": [msgspec.to_builtins(f) for f in self.findings],
        }


def _number(value: Fraction) -> int | float:
    """An int when whole, else a float (weapon points can be fifths)."""
    return int(value) if value.denominator == 1 else round(float(value), 4)


# ---- the check ----------------------------------------------------------------------------


class _Checker:
    """Collects findings while the steps run."""

    def __init__(self, craft: Craft) -> None:
        self.craft = craft
        self.findings: list[Finding] = []

    def add(self, code: str, severity: Severity, step: str, message: str) -> None:
        self.findings.append(Finding(code=code, severity=severity, step=step, message=message))


def check_design(craft: Craft, rules: DesignRules = SEED_RULES) -> DesignReport:
    """Check a craft step by step against the construction rules.

    `rules` holds the Storyteller's budgets and readings (default: the seed's figures,
    5/15 weapon points, 5/10 Power Points, 10/20 accessory points).
    """
    c = _Checker(craft)
    _step_concept(c, rules)
    priorities = _step_attributes(c)
    weapons, weapon_left = _step_weapons(c, rules)
    techs = _step_technologies(c, rules)
    accessories, extra_accessories = _step_accessories(c, rules)
    freebies = _step_freebies(c, priorities, weapon_left, extra_accessories)
    _step_crew(c)
    return DesignReport(
        craft=craft,
        priorities=priorities,
        budgets=(weapons, techs, accessories, freebies),
        findings=tuple(c.findings),
    )


def _step_concept(c: _Checker, rules: DesignRules) -> None:
    if not c.craft.concept.strip():
        c.add("concept.missing", "note", "1 concept", "no concept given")
    if c.craft.scale > STARSHIP:
        factor = upscale_factor(c.craft.scale)
        budgets = (
            f"budgets multiplied by {factor} too (upscale budgets)"
            if rules.upscale_budgets
            else "the Storyteller may also allow bigger budgets (not applied: see "
            "--upscale-budgets and the budget options)"
        )
        c.add(
            "scale.above_starship",
            "note",
            "out of scale",
            f"{scale_label(c.craft.scale)}: crew, cargo, passenger and hangar figures are "
            f"multiplied by {factor}; {budgets}",
        )
    elif c.craft.scale < STARFIGHTER:
        c.add(
            "scale.below_starfighter",
            "warning",
            "out of scale",
            "the construction rules are written for starfighters and starships",
        )


def _attribute_values(craft: Craft) -> dict[str, int]:
    return {"handling": craft.handling, "soak": craft.soak, "move": craft.move}


def _attribute_cost(values: dict[str, int], dots: dict[str, int]) -> int:
    """Freebies for Handling, Soak and Move above their priority dots, less the refund for
    Handling below 0."""
    cost = 0
    for name, value in values.items():
        cost += FREEBIE_COST[name] * max(0, value - dots[name])
    cost -= HANDLING_REFUND * max(0, -values["handling"])
    return cost


def best_priorities(craft: Craft) -> dict[str, int]:
    """The 2/1/0 assignment that leaves the fewest freebies to pay (ties: Handling, Soak,
    Move order first)."""
    values = _attribute_values(craft)
    best: dict[str, int] | None = None
    best_cost = 0
    for order in permutations(PRIORITY_DOTS):
        dots = dict(zip(ATTRIBUTES, order, strict=True))
        cost = _attribute_cost(values, dots)
        if best is None or cost < best_cost:
            best, best_cost = dots, cost
    assert best is not None
    return best


def _step_attributes(c: _Checker) -> dict[str, int]:
    craft = c.craft
    step = "2 attributes"
    for name, value in (
        ("handling", craft.handling),
        ("soak", craft.soak),
        ("move", craft.move),
        ("power", craft.power),
        ("structure", craft.structure),
    ):
        low, high = RANGES[name]
        if name == "structure" and craft.scale >= STARSHIP and value > high:
            c.add(
                "range.structure",
                "note",
                step,
                f"Structure {value} is above the template's {high}; allowed at "
                f"{scale_label(craft.scale)} scale",
            )
        elif not low <= value <= high:
            c.add(
                f"range.{name}",
                "breach",
                step,
                f"{name.capitalize()} {value} is outside the stat block's {low} to {high}",
            )
    if not craft.soak_divided:
        c.add(
            "soak.undivided",
            "note",
            step,
            f"Soak {craft.soak} is not divided into armour and shields; all of it counts as armour",
        )
    return best_priorities(craft)


def weapon_cost(weapon: Weapon, craft_scale: int, rules: DesignRules = SEED_RULES) -> Fraction:
    """Weapon points for one weapon line on a craft of `craft_scale` (SFA-CON-3).

    Each weapon costs its table price, +1 in a turret. Fire-linking costs +1 for the
    line's linked group (or +1 a weapon, `rules.fire_link`). A component of a smaller
    scale costs a fifth per step down (`rules.out_of_scale` says how); one of a larger
    scale is priced as if it were of the craft's scale (the seed wants an advanced
    technology for it, which it never defines).
    """
    steps_down = craft_scale - weapon.scale
    if steps_down > 0 and rules.out_of_scale == "example":
        whole = weapon.spec.cost * weapon.count // SMALLER_SCALE_DIVISOR**steps_down
        return Fraction(whole)
    each = weapon.spec.cost + (TURRET_COST if weapon.turret else 0)
    cost = Fraction(each * weapon.count)
    if weapon.fire_linked:
        cost += FIRE_LINK_COST * (weapon.count if rules.fire_link == "weapon" else 1)
    if steps_down > 0:
        cost /= SMALLER_SCALE_DIVISOR**steps_down
    return cost


def _out_of_scale_prices(
    weapon: Weapon, craft_scale: int, rules: DesignRules
) -> tuple[Fraction, Fraction]:
    """The two readings' prices of a smaller-scale weapon: arithmetic, example."""
    return (
        weapon_cost(weapon, craft_scale, msgspec.structs.replace(rules, out_of_scale="arithmetic")),
        weapon_cost(weapon, craft_scale, msgspec.structs.replace(rules, out_of_scale="example")),
    )


def _step_weapons(c: _Checker, rules: DesignRules) -> tuple[Budget, Fraction]:
    craft = c.craft
    step = "3 weapons"
    allowed = rules.budget("weapon_points", craft.scale)
    lines = []
    spent = Fraction(0)
    for w in craft.weapons:
        cost = weapon_cost(w, craft.scale, rules)
        spent += cost
        lines.append(Line(item=weapon_label(w), amount=_number(cost)))
        if w.scale > craft.scale:
            c.add(
                "weapon.larger_scale",
                "breach",
                step,
                f"{w.name} is {scale_label(w.scale)} scale on a {scale_label(craft.scale)}: "
                "the seed wants an advanced technology for it (e.g. Super-Lasers) that it "
                "never defines",
            )
        elif w.scale < craft.scale:
            c.add(
                "weapon.smaller_scale",
                "note",
                step,
                f"{w.name} is {scale_label(w.scale)} scale: it costs "
                f"1/{SMALLER_SCALE_DIVISOR ** (craft.scale - w.scale)} of the price",
            )
            arithmetic, example = _out_of_scale_prices(w, craft.scale, rules)
            if arithmetic != example:
                c.add(
                    "seed.out_of_scale_contradiction",
                    "note",
                    step,
                    f"the seed prices smaller-scale weapons two ways: {_number(arithmetic)} "
                    f"by dividing the price by 5, {_number(example)} by its worked example "
                    f'("2 Turreted Medium Lasers for 1 Weapon Point"); this check uses '
                    f"the {rules.out_of_scale} reading (--out-of-scale)",
                )
        if w.custom:
            c.add(
                "weapon.custom",
                "breach",
                step,
                f"{w.name} has numbers that are not the weapon table's (priced as a "
                f"{w.spec.label})",
            )
        if w.fire_linked and w.count < 2:
            c.add(
                "weapon.fire_link_single",
                "breach",
                step,
                f"{w.name} is fire-linked but alone: fire-linking joins two or more weapons",
            )
    left = Fraction(allowed) - spent
    if left < 0:
        c.add(
            "weapons.over",
            "breach",
            step,
            f"weapons cost {_number(spent)} weapon points; the budget is {allowed}",
        )
    budget = Budget(name="weapons", allowed=allowed, spent=_number(spent), lines=tuple(lines))
    return budget, max(left, Fraction(0))


def _step_technologies(c: _Checker, rules: DesignRules) -> Budget:
    craft = c.craft
    step = "4 advanced technologies"
    allowed = rules.budget("power_points", craft.scale)
    lines = []
    spent = 0
    for t in craft.technologies:
        kind = t.spec
        spent += t.cost
        lines.append(Line(item=technology_label(t), amount=t.cost))
        if t.written and _ident(t.written) != kind.id:
            named = _names_technology(t.written, kind.id)
            c.add(
                "technology.renamed" if named else "technology.undefined",
                "note" if named else "warning",
                step,
                f"listed as {t.written!r}, read as {kind.label}"
                + ("" if named else " (the seed does not define that name)"),
            )
        if t.points is not None and t.points != t.cost:
            c.add(
                "technology.cost_differs",
                "warning",
                step,
                f"{kind.label} is listed at {t.points} Power Points; the technology list "
                f"says {t.cost} (the check uses {t.cost})",
            )
        if kind.power is not None and kind.power_per == "use" and craft.power < kind.power:
            c.add(
                "technology.no_power",
                "breach",
                step,
                f"{kind.label} needs {kind.power} Power a use but the craft has Power "
                f"{craft.power}: it can never be used",
            )
        elif kind.power is not None and craft.power == 0:
            c.add(
                "technology.no_power",
                "breach",
                step,
                f"{kind.label} spends Power ({kind.power} a {kind.power_per}) but the craft "
                "has Power 0: it can never be used",
            )
    if (
        craft.power == 0
        and craft.technologies
        and not any(t.spec.power is not None for t in craft.technologies)
    ):
        c.add(
            "power.zero",
            "note",
            step,
            "Power 0 with advanced technology: allowed, since none of it spends Power "
            "(Power Points buy technology; Power runs it)",
        )
    _check_ai(c, step)
    if spent > allowed:
        c.add(
            "power_points.over",
            "breach",
            step,
            f"advanced technologies cost {spent} Power Points; the budget is {allowed}",
        )
    return Budget(name="power points", allowed=allowed, spent=spent, lines=tuple(lines))


def _names_technology(written: str, tech_id: str) -> bool:
    """Whether a source's name ends with a name of the technology ('15 vessel Hangar Bay')."""
    words = written.split()
    for start in range(len(words)):
        try:
            if technology_kind(" ".join(words[start:])).id == tech_id:
                return True
        except ValueError:
            continue
    return False


def _check_ai(c: _Checker, step: str) -> None:
    craft = c.craft
    levels = craft.level("artificial_intelligence")
    if not levels or craft.ai is None:
        return
    total = craft.ai.dexterity + craft.ai.piloting + craft.ai.gunnery
    if total != 2 * levels:
        c.add(
            "ai.points",
            "breach",
            step,
            f"the AI's Dexterity, Piloting and Gunnery add up to {total}; Artificial "
            f"Intelligence {levels} gives {2 * levels}",
        )


def _size(scale: int) -> Size:
    return "starship" if scale >= STARSHIP else "starfighter"


def _step_accessories(c: _Checker, rules: DesignRules) -> tuple[Budget, int]:
    craft = c.craft
    step = "5 accessories"
    size = _size(craft.scale)
    allowed = rules.budget("accessory_points", craft.scale)
    lines = []
    spent = 0
    seen: set[str] = set()
    for acc in craft.accessories:
        spent += acc.count
        lines.append(Line(item=acc.label(), amount=acc.count))
        kind = accessory_kind(acc.name)
        if kind is None:
            nearest = _nearest_accessory(acc.name)
            hint = f" (nearest: {nearest})" if nearest else ""
            c.add(
                "accessory.unknown",
                "breach",
                step,
                f"{acc.name!r} is not in the accessory list{hint}",
            )
            continue
        seen.add(kind.id)
        if kind.only is not None and kind.only != size:
            c.add(
                "accessory.wrong_scale",
                "breach",
                step,
                f"{kind.label} is a {kind.only} accessory, on a {scale_label(craft.scale)}",
            )
        if kind.max_count is not None and acc.count > kind.max_count:
            c.add(
                "accessory.too_many",
                "breach",
                step,
                f"{kind.label} may be bought at most {kind.max_count} times, not {acc.count}",
            )
    missing = [a.label for a in ACCESSORIES.values() if size in a.recommended and a.id not in seen]
    if missing:
        c.add(
            "accessory.recommended",
            "note",
            step,
            f"highly recommended for a {size} but missing: {', '.join(missing)}",
        )
    extra = max(0, spent - allowed)
    if extra:
        c.add(
            "accessories.extra",
            "note",
            step,
            f"{spent} accessory points, {extra} more than the free {allowed}: paid with freebies",
        )
    budget = Budget(name="accessories", allowed=allowed, spent=spent, lines=tuple(lines))
    return budget, extra


def _step_freebies(
    c: _Checker, dots: dict[str, int], weapon_left: Fraction, extra_accessories: int
) -> Budget:
    craft = c.craft
    gains = [Line(item="starting freebies", amount=BASE_FREEBIES)]
    below_structure = max(0, BASE_STRUCTURE - craft.structure)
    if below_structure:
        gains.append(
            Line(
                item=f"Structure {craft.structure}, {below_structure} below 10",
                amount=STRUCTURE_REFUND * below_structure,
            )
        )
    if craft.handling < 0:
        gains.append(
            Line(
                item=f"Handling {craft.handling}, below 0",
                amount=HANDLING_REFUND * -craft.handling,
            )
        )
    exchanged = int(weapon_left)  # only whole weapon points can be exchanged
    if exchanged:
        gains.append(
            Line(
                item=f"{exchanged} weapon points left unspent",
                amount=WEAPON_EXCHANGE * exchanged,
            )
        )
    allowed = sum(int(line.amount) for line in gains)
    values = _attribute_values(craft)
    costs = []
    for name in ATTRIBUTES:
        above = max(0, values[name] - dots[name])
        if above:
            costs.append(
                Line(
                    item=f"{name.capitalize()} +{above} above its priority dots",
                    amount=FREEBIE_COST[name] * above,
                )
            )
    if craft.power:
        costs.append(Line(item=f"Power {craft.power}", amount=FREEBIE_COST["power"] * craft.power))
    above_structure = max(0, craft.structure - BASE_STRUCTURE)
    if above_structure:
        costs.append(
            Line(
                item=f"Structure {craft.structure}, {above_structure} above 10",
                amount=FREEBIE_COST["structure"] * above_structure,
            )
        )
    if extra_accessories:
        costs.append(
            Line(
                item=f"{extra_accessories} extra accessory points",
                amount=ACCESSORY_FREEBIE_COST * extra_accessories,
            )
        )
    spent = sum(int(line.amount) for line in costs)
    if spent > allowed:
        c.add(
            "freebies.over",
            "breach",
            "5 freebies",
            f"the design needs {spent} freebies; it has {allowed}",
        )
    return Budget(
        name="freebies",
        allowed=allowed,
        spent=spent,
        lines=tuple(gains) + tuple(Line(item=ln.item, amount=-ln.amount) for ln in costs),
    )


def _step_crew(c: _Checker) -> None:
    craft = c.craft
    step = "5 crew"
    ai = craft.ai_pilot()
    forward = any(not w.turret for w in craft.weapons)
    pilot = 1 if craft.move > 0 or forward else 0
    gunners = craft.gunners_needed()
    hands = craft.crew + (1 if ai is not None else 0)
    needed = pilot + gunners
    if craft.crew == 0 and ai is None:
        c.add(
            "crew.none",
            "breach",
            step,
            "no crew and no Artificial Intelligence: nobody can fly it or fire its weapons",
        )
    elif hands < needed:
        who = []
        if pilot:
            who.append("a pilot")
        if gunners:
            who.append(f"{gunners} gunner{'s' if gunners != 1 else ''} for turrets")
        have = f"crew {craft.crew}" + (" plus an AI" if ai is not None else "")
        c.add(
            "crew.too_few",
            "breach",
            step,
            f"it needs {' and '.join(who)} ({needed}); it has {have}",
        )
    if craft.turret_weapons() and craft.has("auto_turrets"):
        c.add(
            "crew.auto_turrets",
            "note",
            step,
            "Auto-Turrets let the pilot fire the turrets without gunners, but only along "
            "the six straight hex lines (rules-notes C.7.13)",
        )
    if craft.scale >= STARSHIP:
        factor = upscale_factor(craft.scale)
        minimum = craft.structure * factor
        maximum = CREW_PER_STRUCTURE * craft.structure * factor
        if craft.crew < minimum:
            c.add(
                "crew.starship_minimum",
                "breach",
                step,
                f"a {scale_label(craft.scale)} needs a crew of at least Structure"
                f"{f' x {factor}' if factor > 1 else ''} = {minimum}; it has {craft.crew}",
            )
        elif craft.crew > maximum:
            c.add(
                "crew.starship_maximum",
                "warning",
                step,
                f"crew {craft.crew} is more than the {CREW_PER_STRUCTURE} per Structure"
                f"{f' x {factor}' if factor > 1 else ''} = {maximum} a starship generally "
                "carries",
            )


# ---- the stat card -----------------------------------------------------------------------

_STYLE = {"breach": "bold red", "warning": "yellow", "note": "dim"}


def card(report: DesignReport) -> RenderableType:
    """A rich stat card: the stat block, weapons, technologies, budgets and findings."""
    craft = report.craft
    stats = Table.grid(padding=(0, 2))
    for _ in range(6):
        stats.add_column()
    soak = f"{craft.soak}"
    if craft.soak_divided:
        soak += f" (armour {craft.armor}, shields {craft.shields})"
    handling = _signed(craft.handling)
    stats.add_row("Scale", craft.scale_label, "Crew", str(craft.crew), "Handling", handling)
    stats.add_row("Soak", soak, "Move", str(craft.move), "Power", str(craft.power))
    stats.add_row("Structure", str(craft.structure), "Origin", craft.origin, "", "")
    parts: list[RenderableType] = []
    if craft.concept:
        parts.append(Text(craft.concept, style="italic"))
    parts.append(stats)
    if craft.weapons:
        weapons = Table(title="Weapons", title_justify="left", box=None, padding=(0, 1))
        for column in ("weapon", "speed", "attack", "range", "arc", "points"):
            weapons.add_column(column)
        for w, line in zip(craft.weapons, report.budget("weapons").lines, strict=True):
            weapons.add_row(
                Text(weapon_label(w)),
                _signed(w.speed),
                f"+{w.attack}" if not w.guided else f"pool {w.attack}",
                str(w.range),
                w.arc,
                _fmt(line.amount),
            )
        parts.append(weapons)
    if craft.technologies:
        techs = ", ".join(technology_label(t) for t in craft.technologies)
        parts.append(Text(f"Advanced technology: {techs}"))
    if craft.accessories:
        parts.append(Text("Accessories: " + ", ".join(a.label() for a in craft.accessories)))
    budgets = Table(title="Budgets", title_justify="left", box=None, padding=(0, 1))
    for column in ("budget", "allowed", "spent", "left"):
        budgets.add_column(column)
    for b in report.budgets:
        style = "bold red" if b.over and b.name != "accessories" else ""
        budgets.add_row(b.name, _fmt(b.allowed), _fmt(b.spent), Text(_fmt(b.left), style=style))
    dots = ", ".join(f"{k.capitalize()} {v}" for k, v in report.priorities.items())
    parts.append(Text(f"Priority dots (2/1/0): {dots}"))
    parts.append(budgets)
    if report.findings:
        findings = Table(title="Findings", title_justify="left", box=None, padding=(0, 1))
        findings.add_column("")
        findings.add_column("step")
        findings.add_column("finding")
        for f in report.findings:
            findings.add_row(Text(f.severity, style=_STYLE[f.severity]), f.step, Text(f.message))
        parts.append(findings)
    verdict = (
        Text("conforms to the construction rules", style="green")
        if report.conforming
        else Text(f"does not conform: {len(report.breaches())} breach(es)", style="bold red")
    )
    parts.append(verdict)
    return Panel(Group(*parts), title=Text(f"{craft.name} ({craft.id})"), title_align="left")


def _signed(value: int) -> str:
    return f"{value:+d}"


def _fmt(value: int | float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
