"""Stand-ins for the built-in rulesets' own commands, declared as `Command` values with the
parameters of the hand-written commands they replace (issue 12), to prove that the
generic builder (cli/ruleset_commands.py) reproduces every `--help` exactly.

Their `run` does nothing useful: only the declarations matter here. The real
declarations live in rulesets/<r>/commands.py; at merge the fixture test checks those.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dogfight.core.hooks import Command, Param, Report
from dogfight.core.options import OptionValue

MAX_ODDS_MODELS = 12


def _nothing(params: Mapping[str, Any], options: Mapping[str, OptionValue]) -> Report:
    return Report(blocks=(), json={})


def _flight_size(value: int) -> None:
    if not 1 <= value <= MAX_ODDS_MODELS:
        raise ValueError(
            f"exact odds are worked out for 1 to {MAX_ODDS_MODELS} models, not {value} "
            "(the cost grows steeply with the flight; simulate bigger fights instead)"
        )


RANGE = Param(
    name="range_inches",
    help="Range to the target in inches (default: point blank).",
    type="float",
    flags=("--range",),
)


def _odds(name: str, help_text: str, *params: Param) -> Command:
    return Command(
        group="odds", name=name, help=help_text, params=params, run=_nothing, takes_plot=True
    )


ACTA = (
    _odds(
        "dogfight",
        "Who wins one dogfight: d6 + Dogfight + support each (ACTA-DOG-5, -6).",
        Param(name="attacker", help="The attacking fighter's unit id.", type="str", argument=True),
        Param(name="defender", help="The defending fighter's unit id.", type="str", argument=True),
        Param(
            name="attacker_support",
            help="Friendly fighters supporting the attacker.",
            type="int",
            default=0,
            minimum=0,
        ),
        Param(
            name="defender_support",
            help="Friendly fighters supporting the defender.",
            type="int",
            default=0,
            minimum=0,
        ),
        Param(
            name="attacker_drones",
            help="The attacker swapped its (*) weapon for dogfight drones (+2).",
            type="bool",
            default=False,
        ),
        Param(
            name="defender_drones",
            help="The defender swapped its (*) weapon for dogfight drones (+2).",
            type="bool",
            default=False,
        ),
    ),
    _odds(
        "attack",
        "Damage points from one firing of a weapon (all its AD) at a fresh target.",
        Param(name="firer", help="The firing unit's id.", type="str", argument=True),
        Param(
            name="weapon",
            help="The weapon's name (quote names with spaces).",
            type="str",
            argument=True,
        ),
        Param(name="target", help="The target unit's id.", type="str", argument=True),
        RANGE,
        Param(
            name="moved",
            help="Whether the target moved this turn (Dodge needs it, dodge_requires_move).",
            type="bool",
            default=True,
            flags=("--moved/--not-moved",),
        ),
    ),
    Command(
        group="import",
        name="acta",
        help="Import ACTA craft written as stat lines into unit YAML files (one per craft).",
        params=(
            Param(
                name="file",
                help="A text file with craft in the seed's stat lines.",
                type="path",
                argument=True,
            ),
            Param(
                name="out_dir",
                help="Where to write the unit files.",
                type="path",
                default=Path("."),
                flags=("--out",),
            ),
            Param(
                name="fleet",
                help="The fleet of every imported craft.",
                type="str",
                default="Unknown",
            ),
            Param(
                name="fleet_of",
                help="IDS=FLEET, e.g. zul,zaresh=Klingon (repeatable).",
                type="str",
                flags=("--fleet-of",),
                multiple=True,
            ),
            Param(
                name="origin",
                help="'original' (your designs) or 'seed' (a seed's sample craft).",
                type="str",
                default="original",
            ),
            Param(
                name="source", help="Where the data came from (default: the file name).", type="str"
            ),
            Param(
                name="overwrite", help="Replace existing unit files.", type="bool", default=False
            ),
        ),
        run=_nothing,
        takes_rules=False,
    ),
)

EVO = (
    _odds(
        "attack",
        "Models removed from a flight by one Shoot with one weapon.",
        Param(name="firer", help="The firing flight's unit id.", type="str", argument=True),
        Param(
            name="weapon",
            help="The weapon's name (quote names with spaces).",
            type="str",
            argument=True,
        ),
        Param(name="target", help="The target flight's unit id.", type="str", argument=True),
        RANGE,
        Param(
            name="six",
            help="Every firer is on the target's six (+1, EVO-SIX-1).",
            type="bool",
            default=False,
            flags=("--six",),
        ),
        Param(
            name="models",
            help=f"Models in the target flight, 1 to {MAX_ODDS_MODELS} (default: its standard "
            "flight).",
            type="int",
            check=_flight_size,
        ),
        Param(
            name="firers",
            help=f"Models firing, 1 to {MAX_ODDS_MODELS} (default: the firer's standard flight).",
            type="int",
            check=_flight_size,
        ),
    ),
)

SFA_DESIGN_HELP = """Check an SFA craft against the construction rules and print its stat card.

    The budget and reading options are the Storyteller's (docs/sfa-construction.md).
    An over-budget (homebrew) design still exits 0; only a malformed file is an error.
    """

SFA = (
    _odds(
        "pool",
        'Net successes and botch chance of one dice pool (seed 003, "Attacking").',
        Param(name="dice", help="Dice in the pool (d10s).", type="int", argument=True),
        Param(
            name="willpower",
            help="A Willpower point buys one sure success.",
            type="bool",
            default=False,
            flags=("--willpower",),
        ),
        Param(name="difficulty", help="The number each die must reach.", type="int", default=6),
    ),
    Command(
        group="design",
        name="sfa",
        help=SFA_DESIGN_HELP,
        params=(
            Param(
                name="file",
                help="An SFA craft file, or the id of a built-in craft.",
                type="str",
                argument=True,
            ),
            Param(
                name="weapon_points",
                help="Weapon point budget (seed: 5 starfighter, 15 starship).",
                type="int",
                minimum=0,
                maximum=10_000,
            ),
            Param(
                name="power_points",
                help="Power Points for technology (seed: generally 5 starfighter, 10+ starship).",
                type="int",
                minimum=0,
                maximum=10_000,
            ),
            Param(
                name="accessory_points",
                help="Free accessory points (seed: 10 starfighter, 20 starship).",
                type="int",
                minimum=0,
                maximum=10_000,
            ),
            Param(
                name="upscale_budgets",
                help="Above Starship scale, multiply the seed's budgets by 5 a step.",
                type="bool",
                default=False,
            ),
            Param(
                name="fire_link",
                help="Fire-Linked +1 for each linked group, or for each weapon.",
                type="str",
                default="group",
                choices=("group", "weapon"),
            ),
            Param(
                name="out_of_scale",
                help="Smaller-scale weapons: a fifth of the whole price, or the seed's example.",
                type="str",
                default="arithmetic",
                choices=("arithmetic", "example"),
            ),
        ),
        run=_nothing,
        takes_rules=False,
    ),
    Command(
        group="import",
        name="trinity",
        help="Convert a Trinity vehicle into an sfa craft file (seed 003, Appendix 2).",
        params=(
            Param(
                name="file",
                help="A Trinity vehicle file (see docs/sfa-construction.md).",
                type="path",
                argument=True,
            ),
            Param(
                name="out_dir",
                help="Where to write the sfa craft file.",
                type="path",
                default=Path("."),
                flags=("--out",),
            ),
            Param(
                name="overwrite", help="Replace an existing craft file.", type="bool", default=False
            ),
        ),
        run=_nothing,
        takes_rules=False,
    ),
)

STANDIN = {"acta": ACTA, "evo": EVO, "sfa": SFA}
ODDS_HELP = {
    "acta": "ACTA: a dogfight, or one weapon's attack.",
    "evo": "EVO: one Shoot with one weapon.",
    "sfa": "SFA: one dice pool.",
}
