"""Which unit traits do something under the rule options in force (ACTA-TRT-11).

Some traits come from the B5 resolution and do nothing under ACTA:SF. A game
keeps only the traits its options use (so the ships of each resolution carry
only what it uses), `dogfight show` says which need which options, and
`dogfight validate` warns about any that a scenario's units carry in vain.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from dogfight.core.options import OptionValue
from dogfight.rulesets.acta.traits import Trait
from dogfight.rulesets.acta.units import UnitType

CARRIER = "Carrier"

NEEDS: dict[str, str] = {
    "Interceptors": "resolution=b5 or defensive_fire_mode=interceptor",
    "Anti-Fighter": "resolution=b5",
}
"""Ship traits used only under some options, and which (ACTA-TRT-11)."""


def idle_reason(trait: Trait, is_fighter: bool, options: Mapping[str, OptionValue]) -> str:
    """Why the trait does nothing on such a unit under these options ('' if it is used)."""
    b5 = options.get("resolution", "sf") == "b5"
    name = trait.name
    if is_fighter:
        if name in ("Interceptors", "Anti-Fighter", "Command", CARRIER):
            return f"{name} is a ship trait; fighters never use it"
        return ""
    if name == "Interceptors" and not (
        b5 or options.get("defensive_fire_mode", "seeking") == "interceptor"
    ):
        return f"Interceptors roll only with {NEEDS[name]} (ACTA-RES-4)"
    if name == "Anti-Fighter" and not b5:
        return f"Anti-Fighter rolls only with {NEEDS[name]} (ACTA-RES-5)"
    if name == "Dodge" and not b5:
        return "ships dodge only with resolution=b5 (ACTA-RES-6)"
    return ""


def idle_traits(utype: UnitType, options: Mapping[str, OptionValue]) -> list[tuple[Trait, str]]:
    """The unit's traits that do nothing under these options, each with the reason."""
    out = []
    for trait in utype.traits:
        why = idle_reason(trait, utype.is_fighter, options)
        if not why and trait.name == CARRIER and utype.craft <= 0:
            why = "Carrier needs fighters to launch, and the ship's Craft score is 0"
        if why:
            out.append((trait, why))
    return out


def in_use(utype: UnitType, options: Mapping[str, OptionValue]) -> UnitType:
    """The unit type with only the traits these options use (ACTA-TRT-11)."""
    idle = {t for t, _ in idle_traits(utype, options)}
    if not idle:
        return utype
    return msgspec.structs.replace(utype, traits=tuple(t for t in utype.traits if t not in idle))


def trait_notes(utype: UnitType) -> dict[str, str]:
    """For `dogfight show`: traits that need particular options, and which."""
    if utype.is_fighter:
        return {}
    notes = {t.label(): f"used only with {NEEDS[t.name]}" for t in utype.traits if t.name in NEEDS}
    for t in utype.traits:
        if t.name == "Dodge":
            notes[t.label()] = "used only with resolution=b5"
    return notes


def carrier_launches(utype: UnitType, lost: tuple[str, ...]) -> int:
    """Fighters a ship may launch in one End Phase: its Carrier X, or 1 (ACTA-LCH-1, B5
    Carrier X, notes A.7)."""
    value = utype.trait(CARRIER)
    if value and CARRIER not in lost:
        return value
    return 1
