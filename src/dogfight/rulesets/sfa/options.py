"""SFA rule options: the proposals of the rules notes and the seed's ambiguities.

Each names the clause it decides; data/sfa/rules.md describes it under that clause.
"""

from __future__ import annotations

from dogfight.core.options import Option

OPTIONS: tuple[Option, ...] = (
    Option(
        name="zero_destroys",
        default=False,
        clause="SFA-STR-1",
        doc="false: a craft at 0 Structure is disabled and destroyed only at minus its starting "
        "Structure. true: destroyed at 0 (the seed's Damage section).",
    ),
    Option(
        name="willpower_once_per_turn",
        default=True,
        clause="SFA-SEQ-6",
        doc="true: a pilot spends at most one Willpower point a turn (SF:TSG). false: no limit.",
    ),
    Option(
        name="collision_soak",
        default=True,
        clause="SFA-COL-1",
        doc="true: collision damage is reduced by the victim's craft Soak (PROPOSAL). false: "
        "the seed's example taken literally, no Soak.",
    ),
    Option(
        name="collide_on_entry",
        default=False,
        clause="SFA-COL-1",
        doc="false: craft may share a hex; a collision happens only when a craft rams on "
        "purpose (the seed forces none). true: any craft that enters a hex another craft "
        "holds collides with it, drifting wrecks included (the old one-craft-a-hex rule).",
    ),
    Option(
        name="tractor_escape_piloting",
        default=False,
        clause="SFA-TEC-29",
        doc="false: a craft held in a Tractor Beam escapes with a Move roll, its Move in "
        "dice (the seed). true: its pilot's Piloting is added to those dice (rules-notes C.6).",
    ),
    Option(
        name="temporal_reroll",
        default="roll",
        choices=("roll", "die"),
        clause="SFA-TEC-28",
        doc='What Temporal Displacement re-rolls of "the last die rolled": roll: the whole '
        "last roll (rules-notes C.6). die: only the die of that roll rolled last (the seed's "
        "words taken literally).",
    ),
    Option(
        name="turn_limit_result",
        default="damage",
        choices=("damage", "draw"),
        clause="SFA-WIN-2",
        doc="At the turn limit: damage: the side that took the smaller share of its starting "
        "Structure wins. draw: a draw.",
    ),
    Option(
        name="starship_time",
        default=True,
        clause="SFA-SCL-2",
        doc="true: in a battle of Starship-scale craft with smaller units, a turn is a "
        "Starfighter turn and Starship-scale craft act on turns 1, 6, 11... only. false: "
        "every craft acts every turn.",
    ),
    Option(
        name="superpowered_street_fighters",
        default=False,
        clause="SFA-SF-7",
        doc="true: Street Fighters count one scale higher (as Starfighters) for interscale "
        "combat (the seed's optional rule). false: Street Fighter scale.",
    ),
    Option(
        name="speed_ties",
        default="simultaneous",
        choices=("simultaneous", "side_order"),
        clause="SFA-SEQ-3",
        doc="Actors tied on Speed and Wits: simultaneous: they act at the same moment, so "
        "one put out of action by another of the tie still takes its action (rules-notes "
        "C.3 proposal). side_order: the first side in the scenario acts first and nothing "
        "is simultaneous.",
    ),
)
