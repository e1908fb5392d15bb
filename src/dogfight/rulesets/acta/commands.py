"""The acta ruleset's own CLI commands, as plain `Command` values the CLI builds:

- `dogfight odds acta dogfight ATTACKER DEFENDER`: who wins one dogfight;
- `dogfight odds acta attack FIRER WEAPON TARGET`: damage from one firing of a weapon;
- `dogfight import acta FILE`: craft written as stat lines into unit YAML files;
- `dogfight tactics acta`: how the computer players play the seed's tactics, each
  figure beside its target (rulesets/acta/tactics.py counts them).

Each `run` returns a `Report` whose blocks print, line by line and table by table,
exactly what the hand-written commands printed, and whose `json` is their `--json`.
The odds use the ruleset's own rule functions, so a subclass's odds follow its rules.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dogfight.core.errors import DataError
from dogfight.core.hooks import Command, Param, Plot, Report, Table
from dogfight.core.options import OptionValue
from dogfight.core.text import cell_text, changed_options, fraction_text, option_text, percent
from dogfight.dice.exact import Distribution
from dogfight.rulesets.acta.odds import acta_attack, acta_dogfight, acta_weapon
from dogfight.rulesets.acta.units import find_unit

if TYPE_CHECKING:
    from dogfight.rulesets.acta.ruleset import ActaRuleset

Params = Mapping[str, Any]
Options = Mapping[str, OptionValue]


def _path(path: Path | None) -> str | None:
    return str(path) if path is not None else None


def _plot_path(params: Params) -> Path | None:
    plot = params.get("plot")
    return Path(plot) if plot is not None else None


# ---- odds acta dogfight ----------------------------------------------------------------


def dogfight_report(ruleset: ActaRuleset, params: Params, options: Options) -> Report:
    """`dogfight odds acta dogfight`: the three results with their chances."""
    changed = changed_options(ruleset.options, options)
    a, d = find_unit(params["attacker"]), find_unit(params["defender"])
    odds = acta_dogfight(
        a,
        d,
        options,
        attacker_support=int(params.get("attacker_support", 0)),
        defender_support=int(params.get("defender_support", 0)),
        attacker_drones=bool(params.get("attacker_drones", False)),
        defender_drones=bool(params.get("defender_drones", False)),
        rules=ruleset.rules,
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
    title = (
        f"Dogfight: {a.name} (d6{odds.attacker_bonus:+d}) v {d.name} (d6{odds.defender_bonus:+d})"
    )
    blocks: list[str | Table] = [
        f"{title}; options {option_text(changed)}",
        Table(
            header=("result", "probability", "exact"),
            rows=tuple(
                (labels[k], percent(float(p)), fraction_text(p)) for k, p in results.items()
            ),
        ),
        *(f"  assumes: {note}" for note in odds.notes),
    ]
    data = {
        "ruleset": ruleset.name,
        "kind": "dogfight",
        "attacker": a.id,
        "defender": d.id,
        "attacker_bonus": odds.attacker_bonus,
        "defender_bonus": odds.defender_bonus,
        **{k: float(p) for k, p in results.items()},
        "fractions": {k: fraction_text(p) for k, p in results.items()},
        "options": changed,
        "notes": list(odds.notes),
        "plot": _path(_plot_path(params)),
    }
    plot = Plot(odds={labels[k]: p for k, p in results.items()}, title=title, xlabel="result")
    return Report(blocks=tuple(blocks), json=data, plot=plot)


# ---- odds acta attack ------------------------------------------------------------------


def _distribution_blocks(
    what: str, title: str, dist: Distribution, changed: Mapping[str, OptionValue]
) -> list[str | Table]:
    facts = ", ".join(f"{k} {cell_text(v)}" for k, v in dist.facts.items())
    return [
        title,
        f"Using: {facts}; options {option_text(changed)}",
        Table(
            header=(what, "probability", "exact"),
            rows=tuple((k, percent(float(p)), fraction_text(p)) for k, p in dist.odds.items()),
        ),
        f"Expected: {float(dist.expected):.4f} ({fraction_text(dist.expected)})",
        *(f"  assumes: {note}" for note in dist.notes),
    ]


def _distribution_json(
    key: str, dist: Distribution, head: Mapping[str, Any], changed: Mapping[str, OptionValue]
) -> dict[str, Any]:
    return {
        **head,
        key: {str(k): float(p) for k, p in dist.odds.items()},
        "expected": float(dist.expected),
        "fractions": {
            key: {str(k): fraction_text(p) for k, p in dist.odds.items()},
            "expected": fraction_text(dist.expected),
        },
        "using": dist.facts,
        "options": dict(changed),
        "notes": list(dist.notes),
    }


def attack_report(ruleset: ActaRuleset, params: Params, options: Options) -> Report:
    """`dogfight odds acta attack`: the damage points and their chances."""
    changed = changed_options(ruleset.options, options)
    f, t = find_unit(params["firer"]), find_unit(params["target"])
    weapon = str(params["weapon"])
    dist = acta_attack(
        f,
        weapon,
        t,
        options,
        range_inches=params.get("range_inches"),
        moved=bool(params.get("moved", True)),
        rules=ruleset.rules,
    )
    name = acta_weapon(f, weapon).name
    title = f"{f.name} fires {name} at {t.name} ({t.kind}, Damage {t.damage})"
    head = {
        "ruleset": ruleset.name,
        "kind": "attack",
        "firer": f.id,
        "weapon": name,
        "target": t.id,
    }
    data = {
        **_distribution_json("damage", dist, head, changed),
        "plot": _path(_plot_path(params)),
    }
    odds: dict[Any, Fraction] = dict(dist.odds)
    plot = Plot(odds=odds, title=title, xlabel="damage points")
    return Report(
        blocks=tuple(_distribution_blocks("damage", title, dist, changed)), json=data, plot=plot
    )


# ---- import acta -----------------------------------------------------------------------


def import_report(params: Params, options: Options) -> Report:
    """`dogfight import acta`: write one unit file per craft and list them."""
    from dogfight.rulesets.acta.importer import fleet_map, import_file, import_text
    from dogfight.rulesets.acta.units import load_unit_file

    file = Path(params["file"])
    origin = str(params.get("origin", "original"))
    if origin not in ("original", "seed"):
        raise DataError(f"--origin must be 'original' or 'seed', not {origin!r}")
    how: dict[str, Any] = {
        "fleet": str(params.get("fleet", "Unknown")),
        "fleets": fleet_map(list(params.get("fleet_of") or [])),
        "origin": origin,
        "source": params.get("source"),
        "overwrite": bool(params.get("overwrite", False)),
    }
    out_dir = Path(params.get("out_dir") or ".")
    if str(params["file"]) == "-":
        # `import acta -`: the stat lines come from standard input (a pipe or a paste).
        text = sys.stdin.read()
        written = import_text(text, "standard input", "standard input", out_dir, **how)
        label = "standard input"
    else:
        written = import_file(file, out_dir, **how)
        label = str(file)
    loaded = [load_unit_file(path) for path in written]
    data = {
        "source": label,
        "written": [
            {"file": str(path), "id": u.id, "name": u.name, "kind": u.kind}
            for path, u in zip(written, loaded, strict=True)
        ],
    }
    blocks = [f"Imported {len(written)} craft from {label}:"] + [
        f"  {path}: {unit.name} ({unit.kind})" for path, unit in zip(written, loaded, strict=True)
    ]
    return Report(blocks=tuple(blocks), json=data)


# ---- the Command values ----------------------------------------------------------------


# ---- tactics acta ------------------------------------------------------------------------


def tactics_report(ruleset: ActaRuleset, params: Params, options: Options) -> Report:
    """`dogfight tactics acta`: the tactics figures of a player kind, beside their targets."""
    from dogfight.rulesets.acta.tactics import SCENARIOS, Uniform, measure

    kind = str(params.get("player") or "heuristic")
    kinds = ruleset.players()
    if kind not in kinds:
        raise DataError(f"--player: no acta player '{kind}' (known: {', '.join(kinds)})")
    battles = int(params["battles"])
    chosen = tuple(params.get("scenario") or ()) or SCENARIOS
    unknown = [s for s in chosen if s not in SCENARIOS]
    if unknown:
        raise DataError(f"--scenario: {unknown[0]!r} is not one of {', '.join(SCENARIOS)}")
    make = kinds[kind]
    against = Uniform if params.get("random") else None
    found, raw = measure(ruleset.name, chosen, battles, make, against, options)
    timed = [f for f in found if f.name == "median decision (ms)"]
    rows = tuple(
        (
            f.scenario,
            f.name,
            f.value,
            f.target,
            "-" if f.met is None else ("yes" if f.met else "NO"),
        )
        for f in found
        if f not in timed
    )
    changed = changed_options(ruleset.options, options)
    blocks: list[str | Table] = [
        f"{kind} v {kind}, {battles} battle(s) a scenario (seeds 0-{battles - 1}); "
        f"options {option_text(changed)}",
        Table(header=("scenario", "figure", "measured", "target", "met"), rows=rows),
        *(
            f"{f.scenario}: {f.name} {f.value} (target {f.target}; measured on this machine)"
            for f in timed
        ),
    ]
    data = {
        "ruleset": ruleset.name,
        "player": kind,
        "battles": battles,
        "options": changed,
        "figures": [
            {
                "scenario": f.scenario,
                "figure": f.name,
                "measured": f.value,
                "target": f.target,
                "met": f.met,
            }
            for f in found
        ],
        "counts": raw,
    }
    return Report(blocks=tuple(blocks), json=data)


def commands_of(ruleset: ActaRuleset) -> tuple[Command, ...]:
    """The acta commands, running with `ruleset`'s options and rule functions (a
    subclass's own, when it overrides some)."""

    def dogfight(params: Params, options: Options) -> Report:
        return dogfight_report(ruleset, params, options)

    def attack(params: Params, options: Options) -> Report:
        return attack_report(ruleset, params, options)

    def tactics(params: Params, options: Options) -> Report:
        return tactics_report(ruleset, params, options)

    from dogfight.rulesets.acta.tactics import SCENARIOS

    return (
        Command(
            group="tactics",
            name="acta",
            help=(
                "How a computer player plays the seed's tactics (issue 14): furball "
                "standoffs, escorts, launches and recoveries, ships alone or in corners, "
                "each figure beside its target, over seeded battles with itself."
            ),
            params=(
                Param(
                    name="battles",
                    help="Battles of each scenario (seeds 0 to N-1).",
                    type="int",
                    default=20,
                    minimum=1,
                    maximum=10_000,
                ),
                Param(
                    name="scenario",
                    help="Only this scenario (repeatable; default all three).",
                    type="str",
                    multiple=True,
                    choices=SCENARIOS,
                ),
                Param(
                    name="player",
                    help="The player kind on both sides (heuristic, heuristic:aggressive, ...).",
                    type="str",
                    default="heuristic",
                ),
                Param(
                    name="random",
                    help="Also play each scenario against the random player.",
                    type="bool",
                    default=True,
                    flags=("--random/--no-random",),
                ),
            ),
            run=tactics,
        ),
        Command(
            group="odds",
            name="dogfight",
            help="Who wins one dogfight: d6 + Dogfight + support each (ACTA-DOG-5, -6).",
            params=(
                Param(
                    name="attacker",
                    help="The attacking fighter's unit type (id or name).",
                    type="str",
                    argument=True,
                ),
                Param(
                    name="defender",
                    help="The defending fighter's unit type (id or name).",
                    type="str",
                    argument=True,
                ),
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
            run=dogfight,
            takes_plot=True,
        ),
        Command(
            group="odds",
            name="attack",
            help="Damage points from one firing of a weapon (all its AD) at a fresh target.",
            params=(
                Param(
                    name="firer",
                    help="The firing unit's type (id or name).",
                    type="str",
                    argument=True,
                ),
                Param(
                    name="weapon",
                    help="The weapon's name (quote names with spaces).",
                    type="str",
                    argument=True,
                ),
                Param(
                    name="target",
                    help="The target unit's type (id or name).",
                    type="str",
                    argument=True,
                ),
                Param(
                    name="range_inches",
                    help="Range to the target in inches (default: point blank).",
                    type="float",
                    flags=("--range",),
                ),
                Param(
                    name="moved",
                    help="Whether the target moved this turn (Dodge needs it, "
                    "dodge_requires_move).",
                    type="bool",
                    default=True,
                    flags=("--moved/--not-moved",),
                ),
            ),
            run=attack,
            takes_plot=True,
        ),
        Command(
            group="import",
            name="acta",
            help="Import ACTA craft written as stat lines into unit YAML files (one per craft).",
            params=(
                Param(
                    name="file",
                    help="A text file with craft in the seed's stat lines ('-': standard input).",
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
                    name="source",
                    help="Where the data came from (default: the file name).",
                    type="str",
                ),
                Param(
                    name="overwrite",
                    help="Replace existing unit files.",
                    type="bool",
                    default=False,
                ),
            ),
            run=import_report,
            takes_rules=False,
        ),
    )
