"""The `odds` group: exact odds of one resolution (counted, not sampled) for ACTA,
EVO and SFA, optionally drawn.

Registered on the shared app when `dogfight.cli.main` imports this module.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from dogfight.cli import output as out
from dogfight.cli.common import JsonFlag, RuleOption, app
from dogfight.core.options import parse_rule_args
from dogfight.core.registry import find_ruleset
from dogfight.sim.odds import (
    Distribution,
    acta_attack,
    acta_dogfight,
    acta_weapon,
    evo_attack,
    evo_weapon,
    rule_options,
    sfa_pool,
)

odds_app = typer.Typer(
    name="odds",
    help="Exact odds of one resolution (counted, not sampled).",
    no_args_is_help=True,
)
app.add_typer(odds_app)
odds_acta_app = typer.Typer(
    name="acta", help="ACTA: a dogfight, or one weapon's attack.", no_args_is_help=True
)
odds_app.add_typer(odds_acta_app)
odds_evo_app = typer.Typer(name="evo", help="EVO: one Shoot with one weapon.", no_args_is_help=True)
odds_app.add_typer(odds_evo_app)
odds_sfa_app = typer.Typer(name="sfa", help="SFA: one dice pool.", no_args_is_help=True)
odds_app.add_typer(odds_sfa_app)

RangeOption = Annotated[
    float | None,
    typer.Option("--range", help="Range to the target in inches (default: point blank)."),
]


OddsPlotOption = Annotated[
    Path | None,
    typer.Option("--plot", metavar="FILE", help="Also draw the distribution: FILE.png or .svg."),
]


def _check_plot(plot: Path | None) -> None:
    if plot is not None:
        from dogfight.sim.plots import check_plot_path  # matplotlib loads only when asked

        check_plot_path(plot)


def _odds_plot(plot: Path | None, odds: dict[Any, Fraction], title: str, xlabel: str) -> None:
    """Draw the distribution to `plot` when asked."""
    if plot is None:
        return
    from dogfight.sim.plots import odds_plot

    odds_plot({k: float(p) for k, p in odds.items()}, title, plot, xlabel)


def _plot_line(plot: Path | None) -> None:
    if plot is not None:
        typer.echo(f"Plot: {plot}")


def _path(path: Path | None) -> str | None:
    return str(path) if path is not None else None


def _fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)


def _odds_options(ruleset: str, rule: list[str] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """All option values, and the ones changed from the defaults (for display)."""
    values = rule_options(ruleset, parse_rule_args(rule or []))
    changed = out.changed_options(find_ruleset(ruleset).options, values)
    return values, changed


def _print_distribution(what: str, title: str, dist: Distribution, changed: dict[str, Any]) -> None:
    typer.echo(title)
    facts = ", ".join(f"{k} {out.cell(v)}" for k, v in dist.facts.items())
    typer.echo(f"Using: {facts}; options {out.option_text(changed)}")
    out.print_table(
        [what, "probability", "exact"],
        [[k, out.percent(float(p)), _fraction_text(p)] for k, p in dist.odds.items()],
    )
    typer.echo(f"Expected: {float(dist.expected):.4f} ({_fraction_text(dist.expected)})")
    for note in dist.notes:
        typer.echo(f"  assumes: {note}")


def _distribution_json(
    key: str, dist: Distribution, head: dict[str, Any], changed: dict[str, Any]
) -> dict[str, Any]:
    return {
        **head,
        key: {str(k): float(p) for k, p in dist.odds.items()},
        "expected": float(dist.expected),
        "fractions": {
            key: {str(k): _fraction_text(p) for k, p in dist.odds.items()},
            "expected": _fraction_text(dist.expected),
        },
        "using": dist.facts,
        "options": changed,
        "notes": list(dist.notes),
    }


@odds_acta_app.command("dogfight")
def odds_acta_dogfight(
    attacker: Annotated[str, typer.Argument(help="The attacking fighter's unit id.")],
    defender: Annotated[str, typer.Argument(help="The defending fighter's unit id.")],
    attacker_support: Annotated[
        int, typer.Option(min=0, help="Friendly fighters supporting the attacker.")
    ] = 0,
    defender_support: Annotated[
        int, typer.Option(min=0, help="Friendly fighters supporting the defender.")
    ] = 0,
    attacker_drones: Annotated[
        bool, typer.Option(help="The attacker swapped its (*) weapon for dogfight drones (+2).")
    ] = False,
    defender_drones: Annotated[
        bool, typer.Option(help="The defender swapped its (*) weapon for dogfight drones (+2).")
    ] = False,
    rule: RuleOption = None,
    json_out: JsonFlag = False,
    plot: OddsPlotOption = None,
) -> None:
    """Who wins one dogfight: d6 + Dogfight + support each (ACTA-DOG-5, -6)."""
    from dogfight.rulesets.acta.units import find_unit

    _check_plot(plot)
    values, changed = _odds_options("acta", rule)
    a, d = find_unit(attacker), find_unit(defender)
    odds = acta_dogfight(
        a,
        d,
        values,
        attacker_support=attacker_support,
        defender_support=defender_support,
        attacker_drones=attacker_drones,
        defender_drones=defender_drones,
    )
    results = {
        "attacker_wins": odds.attacker_wins,
        "defender_wins": odds.defender_wins,
        "tie": odds.tie,
    }
    labels = {
        "attacker_wins": f"{a.id} (attacker) wins",
        "defender_wins": f"{d.id} (defender) wins",
        "tie": "tie",
    }
    _odds_plot(
        plot,
        {labels[k]: p for k, p in results.items()},
        f"Dogfight: {a.name} (d6{odds.attacker_bonus:+d}) v {d.name} (d6{odds.defender_bonus:+d})",
        "result",
    )
    if json_out:
        out.print_json(
            {
                "ruleset": "acta",
                "kind": "dogfight",
                "attacker": a.id,
                "defender": d.id,
                "attacker_bonus": odds.attacker_bonus,
                "defender_bonus": odds.defender_bonus,
                **{k: float(p) for k, p in results.items()},
                "fractions": {k: _fraction_text(p) for k, p in results.items()},
                "options": changed,
                "notes": list(odds.notes),
                "plot": _path(plot),
            }
        )
        return
    typer.echo(
        f"Dogfight: {a.name} (d6{odds.attacker_bonus:+d}) v {d.name} (d6{odds.defender_bonus:+d})"
        f"; options {out.option_text(changed)}"
    )
    out.print_table(
        ["result", "probability", "exact"],
        [[labels[k], out.percent(float(p)), _fraction_text(p)] for k, p in results.items()],
    )
    for note in odds.notes:
        typer.echo(f"  assumes: {note}")
    _plot_line(plot)


@odds_acta_app.command("attack")
def odds_acta_attack(
    firer: Annotated[str, typer.Argument(help="The firing unit's id.")],
    weapon: Annotated[str, typer.Argument(help="The weapon's name (quote names with spaces).")],
    target: Annotated[str, typer.Argument(help="The target unit's id.")],
    range_inches: RangeOption = None,
    moved: Annotated[
        bool,
        typer.Option(
            "--moved/--not-moved",
            help="Whether the target moved this turn (Dodge needs it, dodge_requires_move).",
        ),
    ] = True,
    rule: RuleOption = None,
    json_out: JsonFlag = False,
    plot: OddsPlotOption = None,
) -> None:
    """Damage points from one firing of a weapon (all its AD) at a fresh target."""
    from dogfight.rulesets.acta.units import find_unit

    _check_plot(plot)
    values, changed = _odds_options("acta", rule)
    f, t = find_unit(firer), find_unit(target)
    dist = acta_attack(f, weapon, t, values, range_inches=range_inches, moved=moved)
    name = acta_weapon(f, weapon).name
    title = f"{f.name} fires {name} at {t.name} ({t.kind}, Damage {t.damage})"
    _odds_plot(plot, dist.odds, title, "damage points")
    if json_out:
        head = {"ruleset": "acta", "kind": "attack", "firer": f.id, "weapon": name, "target": t.id}
        out.print_json({**_distribution_json("damage", dist, head, changed), "plot": _path(plot)})
        return
    _print_distribution("damage", title, dist, changed)
    _plot_line(plot)


MAX_ODDS_MODELS = 12
"""The largest flight the exact evo odds take: twice the biggest standard flight. The
exact sum grows fast with the models (12 v 12: about 7 s here; 20 v 20: about a minute)."""


def _flight_size(value: int | None) -> int | None:
    """typer callback: a flight size the exact odds can afford."""
    if value is not None and not 1 <= value <= MAX_ODDS_MODELS:
        raise typer.BadParameter(
            f"exact odds are worked out for 1 to {MAX_ODDS_MODELS} models, not {value} "
            "(the cost grows steeply with the flight; simulate bigger fights instead)"
        )
    return value


@odds_evo_app.command("attack")
def odds_evo_attack(
    firer: Annotated[str, typer.Argument(help="The firing flight's unit id.")],
    weapon: Annotated[str, typer.Argument(help="The weapon's name (quote names with spaces).")],
    target: Annotated[str, typer.Argument(help="The target flight's unit id.")],
    range_inches: RangeOption = None,
    six: Annotated[
        bool, typer.Option("--six", help="Every firer is on the target's six (+1, EVO-SIX-1).")
    ] = False,
    models: Annotated[
        int | None,
        typer.Option(
            callback=_flight_size,
            help=f"Models in the target flight, 1 to {MAX_ODDS_MODELS} (default: its standard "
            "flight).",
        ),
    ] = None,
    firers: Annotated[
        int | None,
        typer.Option(
            callback=_flight_size,
            help=f"Models firing, 1 to {MAX_ODDS_MODELS} (default: the firer's standard flight).",
        ),
    ] = None,
    rule: RuleOption = None,
    json_out: JsonFlag = False,
    plot: OddsPlotOption = None,
) -> None:
    """Models removed from a flight by one Shoot with one weapon."""
    from dogfight.rulesets.evo.units import find_unit

    _check_plot(plot)
    values, changed = _odds_options("evo", rule)
    f, t = find_unit(firer), find_unit(target)
    dist = evo_attack(
        f, weapon, t, values, range_inches=range_inches, six=six, models=models, firers=firers
    )
    name = evo_weapon(f, weapon).name
    title = f"{f.name} flight fires {name} at a {t.name} flight"
    _odds_plot(plot, dist.odds, title, "models removed")
    if json_out:
        head = {"ruleset": "evo", "kind": "attack", "firer": f.id, "weapon": name, "target": t.id}
        out.print_json({**_distribution_json("removed", dist, head, changed), "plot": _path(plot)})
        return
    _print_distribution("removed", title, dist, changed)
    _plot_line(plot)


@odds_sfa_app.command("pool")
def odds_sfa_pool(
    dice: Annotated[int, typer.Argument(help="Dice in the pool (d10s).")],
    willpower: Annotated[
        bool, typer.Option("--willpower", help="A Willpower point buys one sure success.")
    ] = False,
    difficulty: Annotated[int, typer.Option(help="The number each die must reach.")] = 6,
    rule: RuleOption = None,
    json_out: JsonFlag = False,
    plot: OddsPlotOption = None,
) -> None:
    """Net successes and botch chance of one dice pool (seed 003, "Attacking")."""
    _check_plot(plot)
    _, changed = _odds_options("sfa", rule)
    odds = sfa_pool(dice, willpower=willpower, difficulty=difficulty)
    title = f"Pool of {dice}d10 at difficulty {difficulty}" + (
        " with a Willpower success" if willpower else ""
    )
    _odds_plot(plot, odds.net, title, "net successes")
    if json_out:
        out.print_json(
            {
                "ruleset": "sfa",
                "kind": "pool",
                "dice": dice,
                "willpower": willpower,
                "difficulty": difficulty,
                "net_successes": {str(k): float(p) for k, p in odds.net.items()},
                "botch": float(odds.botch),
                "expected": float(odds.expected),
                "fractions": {
                    "net_successes": {str(k): _fraction_text(p) for k, p in odds.net.items()},
                    "botch": _fraction_text(odds.botch),
                    "expected": _fraction_text(odds.expected),
                },
                "options": changed,
                "plot": _path(plot),
            }
        )
        return
    typer.echo(title)
    out.print_table(
        ["net successes", "probability", "exact"],
        [[k, out.percent(float(p)), _fraction_text(p)] for k, p in odds.net.items()],
    )
    typer.echo(f"Botch: {out.percent(float(odds.botch))} ({_fraction_text(odds.botch)})")
    typer.echo(f"Expected net successes: {float(odds.expected):.4f}")
    _plot_line(plot)
