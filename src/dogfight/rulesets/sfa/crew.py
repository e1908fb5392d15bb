"""Who is aboard a craft and which weapons each station fires: the pilot, dedicated
gunners, and an Artificial Intelligence as backup pilot or extra crewman
(SFA-ATK-2, SFA-TEC-02, SFA-TEC-03).
"""

from __future__ import annotations

from dogfight.rulesets.sfa.craft import Craft, Pilot, Weapon


def pilot_fires_turrets(design: Craft, pilot: Pilot) -> bool:
    """Whether the pilot's station may fire turreted weapons (SFA-ATK-2): a turret needs
    a dedicated gunner separate from the pilot, unless the craft has Auto-Turrets
    (SFA-TEC-03), or its pilot is its own Artificial Intelligence on a craft with
    nothing to fly (Move 0, the seed's Battlesat): the AI is then assigned to the
    weapon (SFA-TEC-02, PROPOSAL)."""
    if design.has("auto_turrets"):
        return True
    return pilot.ai and design.move == 0


def weapons_of_station(design: Craft, pilot: Pilot, station: int) -> list[Weapon]:
    """Weapons one station fires: the pilot the forward ones (the turreted ones too when
    `pilot_fires_turrets`), each gunner the turreted ones (SFA-ATK-1, SFA-ATK-2)."""
    if station == 0:
        turrets = pilot_fires_turrets(design, pilot)
        return [w for w in design.weapons if not w.turret or turrets]
    return [w for w in design.weapons if w.turret]


def crew_for(
    design: Craft, pilot: Pilot | None, gunners: tuple[Pilot, ...], default: Pilot
) -> tuple[Pilot, tuple[Pilot, ...]]:
    """The pilot and gunners a craft enters the battle with (SFA-TEC-02).

    `pilot` is the one the scenario names (None if it names none). A named pilot always
    flies. An Artificial Intelligence flies only a craft with no pilot named and no crew;
    otherwise it is a backup pilot that also mans a turret no gunner mans, "just like an
    extra crewman" (not on a craft with Auto-Turrets, whose pilot fires them)."""
    ai = design.ai_pilot()
    if pilot is None:
        if ai is not None and design.crew == 0:
            return ai, gunners
        pilot = default
    if ai is not None and not design.has("auto_turrets") and design.turret_weapons() > len(gunners):
        gunners = (*gunners, ai)
    return pilot, gunners
