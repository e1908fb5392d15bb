"""The sfa ruleset's own CLI commands, described as plain values for the CLI to build:
`dogfight odds sfa pool`, `dogfight design sfa` and `dogfight import trinity`.

Each `run` returns a `Report` whose lines and tables print exactly what these commands
have always printed, and whose `json` is their `--json` object.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from dogfight.core.errors import DataError, UnknownName
from dogfight.core.files import write_atomic
from dogfight.core.hooks import Command, Param, Plot, Report, Rich, Table
from dogfight.core.options import OptionValue
from dogfight.core.text import changed_options, fraction_text, percent
from dogfight.rulesets.sfa.options import OPTIONS
from dogfight.rulesets.sfa.rules import SFA_RULES, SfaRules

FIRE_LINK = ("group", "weapon")
"""How fire-linking is charged (`design sfa --fire-link`)."""
OUT_OF_SCALE = ("arithmetic", "example")
"""How smaller-scale weapons are priced (`design sfa --out-of-scale`)."""


# ---- odds sfa pool ------------------------------------------------------------------------


def pool_command(rules: SfaRules = SFA_RULES, ruleset: str = "sfa") -> Command:
    """`dogfight odds RULESET pool`: net successes and botch chance of one dice pool,
    counted with `rules`."""

    def run(params: Mapping[str, Any], options: Mapping[str, OptionValue]) -> Report:
        return pool_report(params, options, rules, ruleset)

    return Command(
        group="odds",
        name="pool",
        help='Net successes and botch chance of one dice pool (seed 003, "Attacking").',
        params=(
            Param(name="dice", help="Dice in the pool (d10s).", type="int", argument=True),
            Param(
                name="willpower",
                help="A Willpower point buys one sure success.",
                type="bool",
                default=False,
                flags=("--willpower",),
            ),
            Param(
                name="difficulty",
                help="The number each die must reach.",
                type="int",
                default=6,
            ),
        ),
        run=run,
        takes_rules=True,
        takes_plot=True,
    )


def pool_report(
    params: Mapping[str, Any],
    options: Mapping[str, OptionValue],
    rules: SfaRules = SFA_RULES,
    ruleset: str = "sfa",
) -> Report:
    """The report of `odds RULESET pool` for these parameters and rule options."""
    from dogfight.rulesets.sfa.odds import sfa_pool

    dice: int = params["dice"]
    willpower: bool = bool(params.get("willpower", False))
    difficulty: int = params.get("difficulty", 6)
    plot: Path | None = params.get("plot")
    changed = changed_options(OPTIONS, options)
    odds = sfa_pool(dice, willpower=willpower, difficulty=difficulty, rules=rules)
    title = f"Pool of {dice}d10 at difficulty {difficulty}" + (
        " with a Willpower success" if willpower else ""
    )
    data = {
        "ruleset": ruleset,
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
        "plot": str(plot) if plot is not None else None,
    }
    table = Table(
        header=("net successes", "probability", "exact"),
        rows=tuple((k, percent(float(p)), fraction_text(p)) for k, p in odds.net.items()),
    )
    return Report(
        blocks=(
            title,
            table,
            f"Botch: {percent(float(odds.botch))} ({fraction_text(odds.botch)})",
            f"Expected net successes: {float(odds.expected):.4f}",
        ),
        json=data,
        plot=Plot(odds=dict(odds.net), title=title, xlabel="net successes"),
    )


# ---- design sfa ---------------------------------------------------------------------------


def _budget(name: str, help: str) -> Param:
    return Param(name=name, help=help, type="int", minimum=0, maximum=10_000)


DESIGN = Command(
    group="design",
    name="sfa",
    help=(
        "Check an SFA craft against the construction rules and print its stat card.\n\n"
        "The budget and reading options are the Storyteller's (docs/sfa-construction.md).\n"
        "An over-budget (homebrew) design still exits 0; only a malformed file is an error."
    ),
    params=(
        Param(
            name="file",
            help="An SFA craft file, or a built-in craft's id or name.",
            type="str",
            argument=True,
        ),
        _budget("weapon_points", "Weapon point budget (seed: 5 starfighter, 15 starship)."),
        _budget(
            "power_points",
            "Power Points for technology (seed: generally 5 starfighter, 10+ starship).",
        ),
        _budget("accessory_points", "Free accessory points (seed: 10 starfighter, 20 starship)."),
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
            choices=FIRE_LINK,
        ),
        Param(
            name="out_of_scale",
            help="Smaller-scale weapons: a fifth of the whole price, or the seed's example.",
            type="str",
            default="arithmetic",
            choices=OUT_OF_SCALE,
        ),
    ),
    run=lambda params, options: design_report(params),
    takes_rules=False,
)


def design_report(params: Mapping[str, Any]) -> Report:
    """The report of `design sfa`: the stat card, or its JSON."""
    from dogfight.rulesets.sfa.construction import DesignRules, card, check_design
    from dogfight.rulesets.sfa.craft import find_craft, load_craft_file

    file: str = str(params["file"])
    path = Path(file)
    # A file if there is one (or it looks like one); else a built-in craft by any of
    # its names ('rebel-fighter', 'Rebel Fighter').
    looks_like_file = path.suffix.lower() in (".yaml", ".yml") or len(path.parts) > 1
    if path.exists() or looks_like_file:
        craft = load_craft_file(file)
    else:
        try:
            craft = find_craft(file)
        except UnknownName as exc:
            raise DataError(f"{file}: no such file, and {exc}") from None
    rules = DesignRules(
        weapon_points=params.get("weapon_points"),
        power_points=params.get("power_points"),
        accessory_points=params.get("accessory_points"),
        upscale_budgets=bool(params.get("upscale_budgets", False)),
        fire_link=params.get("fire_link", "group"),
        out_of_scale=params.get("out_of_scale", "arithmetic"),
    )
    report = check_design(craft, rules)
    data = {
        "ruleset": "sfa",
        "file": file,
        "rules": msgspec.to_builtins(rules),
        **report.as_dict(),
    }
    # The card is a rich renderable: the CLI prints it on its own console (colour and
    # width as the terminal allows).
    return Report(blocks=(Rich(renderable=card(report)),), json=data)


# ---- import trinity -----------------------------------------------------------------------


IMPORT_TRINITY = Command(
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
            name="overwrite",
            help="Replace an existing craft file.",
            type="bool",
            default=False,
        ),
    ),
    run=lambda params, options: import_trinity_report(params),
    takes_rules=False,
)


def import_trinity_report(params: Mapping[str, Any]) -> Report:
    """Convert the Trinity vehicle file and write the craft file; the report says what
    was written. An existing file is refused unless `overwrite`."""
    from dogfight.rulesets.sfa.trinity import craft_yaml, load_trinity_file

    file = Path(params["file"])
    out_dir = Path(params.get("out_dir", Path(".")))
    conversion = load_trinity_file(file)
    target = out_dir / f"{conversion.craft.id}.yaml"
    if target.exists() and not params.get("overwrite", False):
        raise DataError(f"{target}: already exists (pass --overwrite to replace it)")
    out_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(target, craft_yaml(conversion))
    data = {
        "source": str(file),
        "written": str(target),
        "id": conversion.craft.id,
        "scale": conversion.craft.scale_label,
        "resources": conversion.resources,
        "notes": list(conversion.notes),
    }
    lines = [
        f"Converted {file} to {target}: {conversion.craft.name} ({conversion.craft.scale_label})",
        *(f"  note: {note}" for note in conversion.notes),
    ]
    return Report(blocks=tuple(lines), json=data)


# ---- tactics sfa ------------------------------------------------------------------------

PLAYER_KINDS = ("heuristic", "heuristic:aggressive", "heuristic:cautious")
"""The player kinds `tactics sfa --player` measures."""


def tactics_command(ruleset: str = "sfa") -> Command:
    """`dogfight tactics RULESET`: the heuristic's figures for the seed's tactics."""

    def run(params: Mapping[str, Any], options: Mapping[str, OptionValue]) -> Report:
        return tactics_report(params, ruleset)

    return Command(
        group="tactics",
        name=ruleset,
        help=(
            "How the sfa heuristic plays the seed's tactics: technologies used, dice traded "
            "for Speed, hopeless shots, fire at wrecks, overkill, wins against random."
        ),
        params=(
            Param(
                name="battles",
                help="Battles of the player against itself (and as many against random).",
                type="int",
                default=20,
                minimum=1,
                maximum=10_000,
            ),
            Param(
                name="scenario",
                help="The scenario to play.",
                type="str",
                default="tech-melee",
            ),
            Param(name="seed", help="Seed of the first battle.", type="int", default=0, minimum=0),
            Param(
                name="player",
                help="The player kind measured.",
                type="str",
                default="heuristic",
                choices=PLAYER_KINDS,
            ),
        ),
        run=run,
        takes_rules=False,
    )


def tactics_report(params: Mapping[str, Any], ruleset: str = "sfa") -> Report:
    """The report of `tactics RULESET` for these parameters."""
    from dogfight.ai import make_player
    from dogfight.rulesets.sfa.tactics import measure, median_ms, rows

    battles: int = params.get("battles", 20)
    scenario: str = params.get("scenario", "tech-melee")
    seed: int = params.get("seed", 0)
    kind: str = params.get("player", "heuristic")
    make_player(kind, ruleset)  # an unknown kind fails here, before any battle
    figures = measure(scenario, battles, seed, lambda: make_player(kind, ruleset), ruleset=ruleset)
    table = rows(figures, scenario)
    head = (
        f"{kind} v {kind} in {scenario}: {battles} battle{'' if battles == 1 else 's'}"
        f" (seeds {seed}..{seed + battles - 1}),"
        f" and {figures.random_games} against the random player"
    )
    ms = median_ms(figures)
    return Report(
        blocks=(
            head,
            Table(header=("figure", "measured", "target", "met"), rows=tuple(table)),
            f"median decision: {ms:.2f} ms over {len(figures.times)} decisions",
        ),
        json={
            "scenario": scenario,
            "battles": battles,
            "seed": seed,
            "player": kind,
            "figures": [
                {"figure": f, "measured": m, "target": t, "met": ok == "yes"}
                for f, m, t, ok in table
            ],
            "median_decision_ms": ms,
        },
    )


TACTICS = tactics_command()
"""`dogfight tactics sfa` (the sfa heuristic, whatever subclass is registered too)."""


def commands(rules: SfaRules = SFA_RULES, ruleset: str = "sfa") -> tuple[Command, ...]:
    """Every sfa command, the odds counted with `rules` and named for `ruleset` (a
    subclass's own name and rules). `design sfa`, `import trinity` and `tactics sfa`
    are the same for every subclass: the CLI offers each (group, name) once."""
    return (pool_command(rules, ruleset), DESIGN, IMPORT_TRINITY, TACTICS)
