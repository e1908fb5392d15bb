"""The evo ruleset's own CLI commands, as plain values the CLI builds into typer commands.

`dogfight odds evo attack FIRER WEAPON TARGET`: the exact odds of one Shoot with one
weapon (rulesets/evo/odds.py), printed as a title, the facts used, a table of models
removed and the notes; or, with --json, as one object.

`dogfight tactics evo [--battles N] [--scenario NAME] [--seed S] [--player KIND]`: the
figures of rulesets/evo/tactics.py, each beside its target, over seeded battles of a
player kind against itself.
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


MAX_BATTLES = 1000
"""The most battles a scenario `tactics` plays (a sanity bound on the flag)."""

TACTICS_PARAMS = (
    Param(
        name="battles",
        help="Battles for each scenario (game seeds SEED, SEED+1, ...).",
        type="int",
        default=20,
        minimum=1,
        maximum=MAX_BATTLES,
    ),
    Param(
        name="scenario",
        help="Measure this scenario only (default: skirmish, stealth-ambush, shuttle-escort).",
        type="str",
    ),
    Param(name="seed", help="The first game seed.", type="int", default=1, minimum=0),
    Param(
        name="player",
        help="The player kind on both sides (heuristic, heuristic:aggressive, ...).",
        type="str",
        default="heuristic",
    ),
)


def tactics_report(
    ruleset: EvoRuleset, params: Mapping[str, Any], options: Mapping[str, OptionValue]
) -> Report:
    """`tactics evo`: the tactics figures of a player kind against itself."""
    from dogfight.rulesets.evo.tactics import (
        SCENARIOS,
        figure_text,
        figures,
        measure,
        wins_text,
    )

    changed = changed_options(ruleset.options, options)
    battles = int(params.get("battles") or 20)
    seed = int(params.get("seed") or 0)
    kind = str(params.get("player") or "heuristic")
    named = params.get("scenario")
    scenarios = (str(named),) if named else SCENARIOS
    tallies = {name: measure(ruleset, name, battles, seed, kind, changed) for name in scenarios}
    found = figures(tallies)
    title = (
        f"{kind} v {kind}, {battles} battle(s) from seed {seed} in "
        f"{', '.join(scenarios)}; options {option_text(changed)}"
    )
    rows = tuple(
        (
            f.name,
            figure_text(f.value),
            f.count,
            f.target,
            "-" if f.met is None else "yes" if f.met else "NO",
        )
        for f in found
    )
    blocks: list[str | Table] = [
        title,
        Table(header=("figure", "measured", "count", "target", "met"), rows=rows),
        *(f"wins in {name}: {wins_text(t)}" for name, t in tallies.items()),
    ]
    json = {
        "ruleset": ruleset.name,
        "player": kind,
        "battles": battles,
        "seed": seed,
        "scenarios": list(scenarios),
        "options": changed,
        "figures": [
            {
                "name": f.name,
                "value": f.value,
                "count": f.count,
                "target": f.target,
                "met": f.met,
            }
            for f in found
        ],
        "wins": {name: dict(t.wins) for name, t in tallies.items()},
    }
    return Report(blocks=tuple(blocks), json=json)


def evo_commands(ruleset: EvoRuleset) -> tuple[Command, ...]:
    """The evo ruleset's commands, bound to `ruleset` (its rules and options)."""

    def attack(params: Mapping[str, Any], options: Mapping[str, OptionValue]) -> Report:
        return attack_report(ruleset, params, options)

    def tactics(params: Mapping[str, Any], options: Mapping[str, OptionValue]) -> Report:
        return tactics_report(ruleset, params, options)

    return (
        Command(
            group="odds",
            name="attack",
            help="Models removed from a flight by one Shoot with one weapon.",
            params=ATTACK_PARAMS,
            run=attack,
            takes_plot=True,
        ),
        Command(
            group="tactics",
            name=ruleset.name,
            help="How well a player kind plays the seed's tactics, over seeded battles.",
            params=TACTICS_PARAMS,
            run=tactics,
        ),
    )
