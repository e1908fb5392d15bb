"""ACTA rule options: each proposal of the rules notes and each seed ambiguity.

The defaults follow `shared/rules-notes.md` section A; data/acta/rules.md
lists them with the clause each one decides.
"""

from __future__ import annotations

from dogfight.core.options import Option

OPTIONS: tuple[Option, ...] = (
    Option(
        name="resolution",
        default="sf",
        choices=("sf", "b5"),
        clause="ACTA-RES-1",
        doc="sf: ACTA:SF range-based strike table, shield pool and hull hits. "
        "b5: B5 ACTA hull score, Dodge, Interceptors, Anti-Fighter and the attack table.",
    ),
    Option(
        name="dogfight_tie",
        default="locked",
        choices=("locked", "reroll"),
        clause="ACTA-DOG-6",
        doc="locked: a tie destroys nobody and both stay locked until the next Attack "
        "Phase (neither side rolls that pair again in this one). reroll: roll again until "
        "someone wins.",
    ),
    Option(
        name="dogfight_loser",
        default="destroyed",
        choices=("destroyed", "damage"),
        clause="ACTA-DOG-5",
        doc="destroyed: the loser is destroyed whatever its Damage (the seed's wording). "
        "damage: the loser takes one point of damage that cannot be dodged.",
    ),
    Option(
        name="missing_arc",
        default="T",
        choices=("T", "F", "FH"),
        clause="ACTA-ARC-2",
        doc="The arc of a weapon whose line gives none (the seed's Klingon/Kzinti weapons).",
    ),
    Option(
        name="drone_vs_fighter",
        default="roll",
        choices=("roll", "auto"),
        clause="ACTA-TRT-6",
        doc="roll: a Seeking weapon fired at a fighter rolls to hit like any weapon "
        "(4+/5+ with the -1). auto: it hits automatically within the seeking range, "
        "as against ships.",
    ),
    Option(
        name="seeking_range",
        default=18.0,
        minimum=0,
        maximum=1000,
        clause="ACTA-TRT-6",
        doc="Seeking weapons hit ships automatically within this many inches (ACTA:SF errata).",
    ),
    Option(
        name="fighter_to_hit_penalty",
        default=1,
        minimum=0,
        maximum=6,
        clause="ACTA-FTR-4",
        doc="The penalty to hit a fighter (the seed refers to a -1; Fighter-Killer ignores it).",
    ),
    Option(
        name="dodge_requires_move",
        default=True,
        clause="ACTA-FTR-6",
        doc="true: a fighter may dodge only if it moved this turn, is locked in a dogfight, "
        "or supports a ship (B5). false: a fighter may always dodge.",
    ),
    Option(
        name="engaged_fighters_fire",
        default=False,
        clause="ACTA-DOG-8",
        doc="false: a fighter touching an enemy fighter, or that dogfought (attacking or "
        "defending) or supported, does not fire its weapons this turn. true: it may still "
        "fire.",
    ),
    Option(
        name="fighter_fire_order",
        default="nominate",
        choices=("nominate", "each"),
        clause="ACTA-FTR-7",
        doc="nominate: a side names the targets of all its fighters' weapons first and then "
        "resolves them in that order, as one ship's weapon systems (the seed's wording). "
        "each: each fighter's shot is resolved before the next target is chosen.",
    ),
    Option(
        name="intercept_on_move",
        default=True,
        clause="ACTA-SUP-4",
        doc="true: an enemy fighter moving into contact with a supported unit also counts "
        "as attempting to attack it, so supporters may intercept it in the Movement Phase.",
    ),
    Option(
        name="carried_fighters_left_on_path",
        default=True,
        clause="ACTA-SUP-3",
        doc="true: supporters that cannot keep up are left on the supported unit's path "
        "where their Speed runs out. false: they stay where they started.",
    ),
    Option(
        name="return_interceptors",
        default=True,
        clause="ACTA-SUP-5",
        doc="true: supporting fighters that intercepted and survived go back onto the "
        "ship's base in the End Phase, even if locked.",
    ),
    Option(
        name="defensive_fire_mode",
        default="seeking",
        choices=("seeking", "interceptor"),
        clause="ACTA-SUP-6",
        doc="seeking: a defensive-fire fighter rolls its AD against each incoming Seeking "
        "attack, each 4+ cancelling one of its dice (ACTA:SF). interceptor: it adds one "
        "Interceptor die against every hit (B5 style; always used with resolution=b5).",
    ),
    Option(
        name="b5_fighter_hull",
        default=5,
        minimum=2,
        maximum=6,
        clause="ACTA-RES-2",
        doc="With resolution=b5: the notional Hull score of a fighter (the -1 still applies).",
    ),
    Option(
        name="b5_default_hull",
        default=4,
        minimum=2,
        maximum=6,
        clause="ACTA-RES-2",
        doc="With resolution=b5: the Hull score of a ship whose profile gives none.",
    ),
    Option(
        name="anti_fighter_range",
        default=2.0,
        minimum=0,
        maximum=1000,
        clause="ACTA-RES-5",
        doc="With resolution=b5: Anti-Fighter dice are rolled against enemy fighters within "
        "this many inches at the end of the Movement Phase.",
    ),
    Option(
        name="crit_effects",
        default=True,
        clause="ACTA-CRT-2",
        doc='true: criticals have the proposed effects (drive -2" Speed, power no Special '
        "Actions, weapons -1 to hit, crew -1 Crew Quality, shields halved). false: "
        "criticals are recorded only.",
    ),
    Option(
        name="turn_limit_result",
        default="damage",
        choices=("damage", "draw"),
        clause="ACTA-WIN-2",
        doc="At the turn limit: damage: the side that destroyed the larger share of the "
        "enemy's starting Damage wins (equal shares draw). draw: the game is drawn.",
    ),
    Option(
        name="scramble",
        default=False,
        clause="ACTA-SPA-7",
        doc="true: ships may take the B5 Special Action 'Scramble! Scramble!' (CQ 7): "
        "launch two fighters this turn instead of one.",
    ),
    Option(
        name="evasion_tie",
        default="hits",
        choices=("hits", "misses"),
        clause="ACTA-SPA-9",
        doc="Take Evasive Action against a Seeking weapon: on a tie of the opposed Crew "
        "Quality rolls, hits: the weapon still hits (the evader must beat the firer); "
        "misses: it misses.",
    ),
    Option(
        name="drone_limit",
        default=3,
        minimum=0,
        maximum=100,
        clause="ACTA-TRT-10",
        doc="Most drones (Seeking AD) one ship may launch at one target in a turn "
        "(ACTA:SF errata); 0 means no limit.",
    ),
)
