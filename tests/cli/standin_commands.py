"""Stand-ins for the built-in rulesets' own commands, declared as `Command` values with the
parameters of the hand-written commands they replace (issue 12), to prove that the
generic builder (cli/ruleset_commands.py) reproduces every `--help` exactly.

Their `run` reproduces the old command bodies on top of sim/odds.py and the rulesets'
modules, returning a `Report`, to prove the rendering contract prints what the old
commands printed. The real declarations live in rulesets/<r>/commands.py (written in
parallel); at merge the fixture test checks those, and this module can go.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from dogfight.core.errors import DataError
from dogfight.core.files import write_atomic
from dogfight.core.hooks import Command, Param, Plot, Report, Rich, Table
from dogfight.core.options import OptionValue
from dogfight.core.registry import find_ruleset
from dogfight.core.text import cell_text, changed_options, fraction_text, option_text, percent
from dogfight.sim import odds as exact

MAX_ODDS_MODELS = 12
Params = Mapping[str, Any]
Options = Mapping[str, OptionValue]


def _changed(ruleset: str, options: Options) -> dict[str, OptionValue]:
    return changed_options(find_ruleset(ruleset).options, options)


def _path(path: Path | None) -> str | None:
    return str(path) if path is not None else None


def _distribution(what: str, title: str, dist: exact.Distribution, changed: Options) -> list[Any]:
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
    key: str, dist: exact.Distribution, head: dict[str, Any], changed: Options
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


def _acta_dogfight(params: Params, options: Options) -> Report:
    from dogfight.rulesets.acta.units import find_unit

    changed = _changed("acta", options)
    a, d = find_unit(params["attacker"]), find_unit(params["defender"])
    odds = exact.acta_dogfight(
        a,
        d,
        options,
        attacker_support=params["attacker_support"],
        defender_support=params["defender_support"],
        attacker_drones=params["attacker_drones"],
        defender_drones=params["defender_drones"],
    )
    results = {"attacker_wins": odds.attacker_wins, "defender_wins": odds.defender_wins}
    results["tie"] = odds.tie
    labels = {
        "attacker_wins": f"{a.id} (attacker) wins",
        "defender_wins": f"{d.id} (defender) wins",
        "tie": "tie",
    }
    title = (
        f"Dogfight: {a.name} (d6{odds.attacker_bonus:+d}) v {d.name} (d6{odds.defender_bonus:+d})"
    )
    return Report(
        blocks=(
            f"{title}; options {option_text(changed)}",
            Table(
                header=("result", "probability", "exact"),
                rows=tuple(
                    (labels[k], percent(float(p)), fraction_text(p)) for k, p in results.items()
                ),
            ),
            *(f"  assumes: {note}" for note in odds.notes),
        ),
        json={
            "ruleset": "acta",
            "kind": "dogfight",
            "attacker": a.id,
            "defender": d.id,
            "attacker_bonus": odds.attacker_bonus,
            "defender_bonus": odds.defender_bonus,
            **{k: float(p) for k, p in results.items()},
            "fractions": {k: fraction_text(p) for k, p in results.items()},
            "options": changed,
            "notes": list(odds.notes),
            "plot": _path(params["plot"]),
        },
        plot=Plot(odds={labels[k]: p for k, p in results.items()}, title=title, xlabel="result"),
    )


def _acta_attack(params: Params, options: Options) -> Report:
    from dogfight.rulesets.acta.units import find_unit

    changed = _changed("acta", options)
    f, t = find_unit(params["firer"]), find_unit(params["target"])
    dist = exact.acta_attack(
        f,
        params["weapon"],
        t,
        options,
        range_inches=params["range_inches"],
        moved=params["moved"],
    )
    name = exact.acta_weapon(f, params["weapon"]).name
    title = f"{f.name} fires {name} at {t.name} ({t.kind}, Damage {t.damage})"
    head = {"ruleset": "acta", "kind": "attack", "firer": f.id, "weapon": name, "target": t.id}
    return Report(
        blocks=tuple(_distribution("damage", title, dist, changed)),
        json={
            **_distribution_json("damage", dist, head, changed),
            "plot": _path(params["plot"]),
        },
        plot=Plot(odds=dist.odds, title=title, xlabel="damage points"),
    )


def _evo_attack(params: Params, options: Options) -> Report:
    from dogfight.rulesets.evo.units import find_unit

    changed = _changed("evo", options)
    f, t = find_unit(params["firer"]), find_unit(params["target"])
    dist = exact.evo_attack(
        f,
        params["weapon"],
        t,
        options,
        range_inches=params["range_inches"],
        six=params["six"],
        models=params["models"],
        firers=params["firers"],
    )
    name = exact.evo_weapon(f, params["weapon"]).name
    title = f"{f.name} flight fires {name} at a {t.name} flight"
    head = {"ruleset": "evo", "kind": "attack", "firer": f.id, "weapon": name, "target": t.id}
    return Report(
        blocks=tuple(_distribution("removed", title, dist, changed)),
        json={
            **_distribution_json("removed", dist, head, changed),
            "plot": _path(params["plot"]),
        },
        plot=Plot(odds=dist.odds, title=title, xlabel="models removed"),
    )


def _sfa_pool(params: Params, options: Options) -> Report:
    changed = _changed("sfa", options)
    dice, willpower, difficulty = params["dice"], params["willpower"], params["difficulty"]
    odds = exact.sfa_pool(dice, willpower=willpower, difficulty=difficulty)
    title = f"Pool of {dice}d10 at difficulty {difficulty}" + (
        " with a Willpower success" if willpower else ""
    )
    return Report(
        blocks=(
            title,
            Table(
                header=("net successes", "probability", "exact"),
                rows=tuple((k, percent(float(p)), fraction_text(p)) for k, p in odds.net.items()),
            ),
            f"Botch: {percent(float(odds.botch))} ({fraction_text(odds.botch)})",
            f"Expected net successes: {float(odds.expected):.4f}",
        ),
        json={
            "ruleset": "sfa",
            "kind": "pool",
            "dice": dice,
            "willpower": willpower,
            "difficulty": difficulty,
            "net_successes": {str(k): float(p) for k, p in odds.net.items()},
            "botch": float(odds.botch),
            "expected": float(odds.expected),
            "fractions": {
                "net_successes": {str(k): fraction_text(p) for k, p in odds.net.items()},
                "botch": fraction_text(odds.botch),
                "expected": fraction_text(odds.expected),
            },
            "options": changed,
            "plot": _path(params["plot"]),
        },
        plot=Plot(odds=odds.net, title=title, xlabel="net successes"),
    )


def _import_acta(params: Params, options: Options) -> Report:
    from dogfight.rulesets.acta.importer import fleet_map, import_file
    from dogfight.rulesets.acta.units import load_unit_file

    file, origin = params["file"], params["origin"]
    if origin not in ("original", "seed"):
        raise DataError(f"--origin must be 'original' or 'seed', not {origin!r}")
    written = import_file(
        file,
        params["out_dir"],
        fleet=params["fleet"],
        fleets=fleet_map(params["fleet_of"]),
        origin=origin,
        source=params["source"],
        overwrite=params["overwrite"],
    )
    loaded = [load_unit_file(path) for path in written]
    pairs = list(zip(written, loaded, strict=True))
    return Report(
        blocks=(
            f"Imported {len(written)} craft from {file}:",
            *(f"  {path}: {unit.name} ({unit.kind})" for path, unit in pairs),
        ),
        json={
            "source": str(file),
            "written": [
                {"file": str(path), "id": u.id, "name": u.name, "kind": u.kind} for path, u in pairs
            ],
        },
    )


def _design_sfa(params: Params, options: Options) -> Report:
    from dogfight.rulesets.sfa.construction import DesignRules, card, check_design
    from dogfight.rulesets.sfa.craft import catalog, load_craft_file

    file = params["file"]
    builtin = not Path(file).exists() and file in catalog()
    craft = catalog()[file] if builtin else load_craft_file(file)
    rules = DesignRules(
        weapon_points=params["weapon_points"],
        power_points=params["power_points"],
        accessory_points=params["accessory_points"],
        upscale_budgets=params["upscale_budgets"],
        fire_link=params["fire_link"],
        out_of_scale=params["out_of_scale"],
    )
    report = check_design(craft, rules)
    return Report(
        blocks=(Rich(renderable=card(report)),),
        json={
            "ruleset": "sfa",
            "file": file,
            "rules": msgspec.to_builtins(rules),
            **report.as_dict(),
        },
    )


def _import_trinity(params: Params, options: Options) -> Report:
    from dogfight.rulesets.sfa.trinity import craft_yaml, load_trinity_file

    file, out_dir = params["file"], params["out_dir"]
    conversion = load_trinity_file(file)
    target = out_dir / f"{conversion.craft.id}.yaml"
    if target.exists() and not params["overwrite"]:
        raise DataError(f"{target}: already exists (pass --overwrite to replace it)")
    out_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(target, craft_yaml(conversion))
    craft = conversion.craft
    return Report(
        blocks=(
            f"Converted {file} to {target}: {craft.name} ({craft.scale_label})",
            *(f"  note: {note}" for note in conversion.notes),
        ),
        json={
            "source": str(file),
            "written": str(target),
            "id": craft.id,
            "scale": craft.scale_label,
            "resources": conversion.resources,
            "notes": list(conversion.notes),
        },
    )


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


def _odds(name: str, run: Any, help_text: str, *params: Param) -> Command:
    return Command(group="odds", name=name, help=help_text, params=params, run=run, takes_plot=True)


ACTA = (
    _odds(
        "dogfight",
        _acta_dogfight,
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
        _acta_attack,
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
        run=_import_acta,
        takes_rules=False,
    ),
)

EVO = (
    _odds(
        "attack",
        _evo_attack,
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
        _sfa_pool,
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
        run=_design_sfa,
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
        run=_import_trinity,
        takes_rules=False,
    ),
)

STANDIN = {"acta": ACTA, "evo": EVO, "sfa": SFA}
ODDS_HELP = {
    "acta": "ACTA: a dogfight, or one weapon's attack.",
    "evo": "EVO: one Shoot with one weapon.",
    "sfa": "SFA: one dice pool.",
}
