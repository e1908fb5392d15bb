"""The evo ruleset's own CLI commands, as plain values the CLI builds into typer commands.

`dogfight odds evo attack FIRER WEAPON TARGET`: the exact odds of one Shoot with one
weapon (rulesets/evo/odds.py), printed as a title, the facts used, a table of models
removed and the notes; or, with --json, as one object.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dogfight.core.hooks import Command, Param, Plot, Report, Table
from dogfight.core.options import OptionValue
from dogfight.core.text import cell_text, changed_options, fraction_text, option_text, percent
from dogfight.rulesets.evo.odds import evo_attack, evo_weapon
from dogfight.rulesets.evo.units import find_unit

if TYPE_CHECKING:
    from dogfight.rulesets.evo.ruleset import EvoRuleset

MAX_ODDS_MODELS = 12
"""The largest flight the exact evo odds take: twice the biggest standard flight. The
exact sum grows fast with the models (12 v 12: about 7 s here; 20 v 20: about a minute)."""


def flight_size(value: int | None) -> int | None:
    """A flight size the exact odds can afford (`--models`, `--firers`)."""
    if value is not None and not 1 <= value <= MAX_ODDS_MODELS:
        raise ValueError(
            f"exact odds are worked out for 1 to {MAX_ODDS_MODELS} models, not {value} "
            "(the cost grows steeply with the flight; simulate bigger fights instead)"
        )
    return value


ATTACK_PARAMS = (
    Param(
        name="firer", help="The firing flight's unit type (id or name).", type="str", argument=True
    ),
    Param(
        name="weapon",
        help="The weapon's name (quote names with spaces).",
        type="str",
        argument=True,
    ),
    Param(
        name="target", help="The target flight's unit type (id or name).", type="str", argument=True
    ),
    Param(
        name="range_inches",
        help="Range to the target in inches (default: point blank).",
        type="float",
        flags=("--range",),
    ),
    Param(
        name="six",
        help="Every firer is on the target's six (+1, EVO-SIX-1).",
        type="bool",
        default=False,
        flags=("--six",),
    ),
    Param(
        name="models",
        help=f"Models in the target flight, 1 to {MAX_ODDS_MODELS} (default: its standard flight).",
        type="int",
        check=flight_size,
    ),
    Param(
        name="firers",
        help=f"Models firing, 1 to {MAX_ODDS_MODELS} (default: the firer's standard flight).",
        type="int",
        check=flight_size,
    ),
)


def attack_report(
    ruleset: EvoRuleset, params: Mapping[str, Any], options: Mapping[str, OptionValue]
) -> Report:
    """`odds evo attack`: models removed from a flight by one Shoot with one weapon."""
    changed = changed_options(ruleset.options, options)
    f, t = find_unit(params["firer"]), find_unit(params["target"])
    weapon = str(params["weapon"])
    dist = evo_attack(
        f,
        weapon,
        t,
        options,
        range_inches=params.get("range_inches"),
        six=bool(params.get("six", False)),
        models=params.get("models"),
        firers=params.get("firers"),
        rules=ruleset.rules,
    )
    name = evo_weapon(f, weapon).name
    title = f"{f.name} flight fires {name} at a {t.name} flight"
    plot: Path | None = params.get("plot")
    facts = ", ".join(f"{k} {cell_text(v)}" for k, v in dist.facts.items())
    blocks: list[str | Table] = [
        title,
        f"Using: {facts}; options {option_text(changed)}",
        Table(
            header=("removed", "probability", "exact"),
            rows=tuple((k, percent(float(p)), fraction_text(p)) for k, p in dist.odds.items()),
        ),
        f"Expected: {float(dist.expected):.4f} ({fraction_text(dist.expected)})",
        *(f"  assumes: {note}" for note in dist.notes),
    ]
    json = {
        "ruleset": ruleset.name,
        "kind": "attack",
        "firer": f.id,
        "weapon": name,
        "target": t.id,
        "removed": {str(k): float(p) for k, p in dist.odds.items()},
        "expected": float(dist.expected),
        "fractions": {
            "removed": {str(k): fraction_text(p) for k, p in dist.odds.items()},
            "expected": fraction_text(dist.expected),
        },
        "using": dist.facts,
        "options": changed,
        "notes": list(dist.notes),
        "plot": str(plot) if plot is not None else None,
    }
    return Report(
        blocks=tuple(blocks),
        json=json,
        plot=Plot(odds=dict(dist.odds), title=title, xlabel="models removed"),
    )


def evo_commands(ruleset: EvoRuleset) -> tuple[Command, ...]:
    """The evo ruleset's commands, bound to `ruleset` (its rules and options)."""

    def attack(params: Mapping[str, Any], options: Mapping[str, OptionValue]) -> Report:
        return attack_report(ruleset, params, options)

    return (
        Command(
            group="odds",
            name="attack",
            help="Models removed from a flight by one Shoot with one weapon.",
            params=ATTACK_PARAMS,
            run=attack,
            takes_plot=True,
        ),
    )
