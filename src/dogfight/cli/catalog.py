"""The catalog commands: `rulesets`, `units`, `show`, `scenarios` and `options`.

They only read the rulesets' data. Registered on the shared app when
`dogfight.cli.main` imports this module.
"""

from __future__ import annotations

from typing import Annotated

import typer

from dogfight.cli import output as out
from dogfight.cli.common import JsonFlag, app
from dogfight.core.registry import all_rulesets, find_ruleset
from dogfight.core.scenario import builtin_scenario_files, load_scenario


@app.command()
def rulesets(json_out: JsonFlag = False) -> None:
    """List the rulesets."""
    rows = [
        {
            "name": r.name,
            "aliases": list(r.aliases),
            "title": r.title,
            "units": len(r.unit_names()),
            "scenarios": len(builtin_scenario_files(r.name)),
            "options": len(r.options),
        }
        for r in all_rulesets()
    ]
    if json_out:
        out.print_json({"rulesets": rows})
        return
    out.print_table(
        ["name", "title", "units", "scenarios", "options", "aliases"],
        [
            [r["name"], r["title"], r["units"], r["scenarios"], r["options"], r["aliases"]]
            for r in rows
        ],
    )


_UNIT_COLUMNS = ("name", "kind", "fleet", "speed", "turn", "dogfight", "damage", "points")


@app.command()
def units(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name.")], json_out: JsonFlag = False
) -> None:
    """List the unit types of a ruleset."""
    rules = find_ruleset(ruleset)
    described = [rules.describe_unit(name) for name in rules.unit_names()]
    if json_out:
        out.print_json({"ruleset": rules.name, "units": described})
        return
    columns = [c for c in _UNIT_COLUMNS if any(c in d for d in described)]
    out.print_table(
        ["id", *columns, "traits"],
        [[d.get("id", ""), *(d.get(c) for c in columns), d.get("traits")] for d in described],
        title=f"{rules.name} units",
    )


@app.command()
def show(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name.")],
    unit: Annotated[
        str,
        typer.Argument(help="Unit type: its id or name, any case (see 'dogfight units RULESET')."),
    ],
    json_out: JsonFlag = False,
) -> None:
    """Show a unit type's full profile."""
    rules = find_ruleset(ruleset)
    data = rules.describe_unit(unit)
    if json_out:
        out.print_json({"ruleset": rules.name, **data})
        return
    weapons = data.get("weapons") or []
    fields = [[k, v] for k, v in data.items() if k != "weapons" and v not in (None, "", [])]
    out.print_table(["field", "value"], fields, title=f"{data.get('name', unit)}")
    if weapons:
        keys: list[str] = []
        for weapon in weapons:
            keys.extend(k for k in weapon if k not in keys)
        out.print_table(keys, [[w.get(k) for k in keys] for w in weapons], title="weapons")


@app.command()
def scenarios(
    ruleset: Annotated[str | None, typer.Argument(help="Only this ruleset's scenarios.")] = None,
    json_out: JsonFlag = False,
) -> None:
    """List the built-in scenarios."""
    name = find_ruleset(ruleset).name if ruleset else None
    found = [load_scenario(str(path)) for path in builtin_scenario_files(name)]
    rows = [
        {"name": s.name, "ruleset": s.ruleset, "title": s.title, "description": s.description}
        for s in found
    ]
    if json_out:
        out.print_json({"scenarios": rows})
        return
    out.print_table(
        ["name", "ruleset", "title", "description"],
        [[r["name"], r["ruleset"], r["title"], r["description"]] for r in rows],
    )


@app.command()
def options(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name.")], json_out: JsonFlag = False
) -> None:
    """List a ruleset's rule options (set them with --rule KEY=VALUE or a scenario's options:)."""
    rules = find_ruleset(ruleset)
    rows = [
        {
            "name": o.name,
            "default": o.default,
            "choices": list(o.choices),
            "clause": o.clause,
            "doc": o.doc,
        }
        for o in rules.options
    ]
    if json_out:
        out.print_json({"ruleset": rules.name, "options": rows})
        return
    typer.echo(f"{rules.name} rule options (set with --rule KEY=VALUE or a scenario's options:)")
    for option in rules.options:
        typer.echo("")
        typer.echo("\n".join(out.option_lines(option)))
