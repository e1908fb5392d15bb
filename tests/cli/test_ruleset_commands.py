"""The generic builder of rulesets' own commands (cli/ruleset_commands.py, issue 12),
proved on a fake ruleset registered here: its `Command` values become typer commands
with their arguments and options, `--rule`, `--json` and `--plot`, and the report is
printed by the rendering contract (lines, tables, rich blocks; JSON; the plot)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
import typer
from rich.text import Text
from typer.testing import CliRunner

from dogfight.cli.common import _Group
from dogfight.cli.ruleset_commands import add_ruleset_commands, group_help, new_group
from dogfight.core import registry
from dogfight.core.errors import DataError, DogfightError
from dogfight.core.hooks import Command, Param, Plot, Report, Rich, Table
from dogfight.core.options import Option, OptionValue
from dogfight.core.registry import all_rulesets, find_ruleset
from dogfight.core.ruleset import Ruleset

runner = CliRunner()
ENV = {"COLUMNS": "100", "NO_COLOR": "1"}

CALLS: list[tuple[str, dict[str, Any], dict[str, OptionValue]]] = []
"""Every run of a fake command: its name, params and options."""


def _roll(params: Mapping[str, Any], options: Mapping[str, OptionValue]) -> Report:
    CALLS.append(("roll", dict(params), dict(options)))
    dice = params["dice"]
    if dice == 4:
        raise ValueError("four dice are not sold here")
    if dice > 5:
        raise DataError(f"{dice} dice is too many for a fake")
    bonus = int(options["bonus"])  # type: ignore[call-overload]
    odds = {dice + bonus: 1}
    plot = params["plot"]
    return Report(
        blocks=(
            f"Roll of {dice}d{params['sides']} ({params['label']})",
            Table(header=("total", "chance"), rows=((dice + bonus, "100.0%"),)),
            f"moved: {params['moved']}, range: {params['range_inches']}",
        ),
        json={"kind": "roll", "total": dice + bonus, "plot": str(plot) if plot else None},
        plot=Plot(odds={k: v for k, v in odds.items()}, title="A fake roll", xlabel="total"),
    )


def _import(params: Mapping[str, Any], options: Mapping[str, OptionValue]) -> Report:
    CALLS.append(("import", dict(params), dict(options)))
    return Report(
        blocks=(f"read {params['file']} tags {params['tag']}",), json={"tags": params["tag"]}
    )


def _design(params: Mapping[str, Any], options: Mapping[str, OptionValue]) -> Report:
    CALLS.append(("design", dict(params), dict(options)))
    return Report(blocks=("card:", Rich(renderable=Text("[not markup] fake card"))), json={})


def _no_negative(value: float) -> None:
    if not value >= 0:
        raise ValueError(f"a range is 0 inches or more, not {value:g}")


ROLL = Command(
    group="odds",
    name="roll",
    help="Roll some fake dice (FAKE-1).",
    params=(
        Param(name="dice", help="How many dice.", type="int", argument=True, minimum=1),
        Param(name="sides", help="Faces per die.", type="int", default=6, minimum=2, maximum=20),
        Param(
            name="moved",
            help="Whether it moved.",
            type="bool",
            default=True,
            flags=("--moved/--not-moved",),
        ),
        Param(
            name="range_inches",
            help="Range in inches.",
            type="float",
            flags=("--range",),
            check=_no_negative,
        ),
        Param(
            name="label",
            help="A label.",
            type="str",
            default="low",
            choices=("low", "high"),
        ),
    ),
    run=_roll,
    takes_plot=True,
)
IMPORT = Command(
    group="import",
    name="fake",
    help="Import fake units.",
    params=(
        Param(name="file", help="A file.", type="path", argument=True),
        Param(name="tag", help="A tag (repeatable).", type="str", multiple=True),
    ),
    run=_import,
    takes_rules=False,
)
DESIGN = Command(
    group="design",
    name="fake",
    help="Check a fake design.\n\nIts card is a rich block.",
    params=(Param(name="name", help="A design.", type="str", argument=True),),
    run=_design,
    takes_rules=False,
)


class FakeRuleset(type(find_ruleset("sfa"))):  # type: ignore[misc]
    """A plugin-like ruleset: the built-in sfa engine, with fake commands and options."""

    name: ClassVar[str] = "fake-dice"
    title: ClassVar[str] = "Fake dice"
    aliases: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[tuple[Option, ...]] = (
        Option(name="bonus", default=0, doc="Added to every total."),
    )
    odds_help: ClassVar[str] = "FAKE: some dice."

    def commands(self) -> tuple[Command, ...]:
        return (ROLL, IMPORT, DESIGN)


class FakeChild(FakeRuleset):
    """A subclass under a new name: it inherits the commands (and the odds_help)."""

    name: ClassVar[str] = "fake-child"


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Iterator[typer.Typer]:
    """A command line whose groups are built from the registered rulesets, fakes included."""
    find_ruleset("acta")  # load the built-in ones first
    monkeypatch.setitem(registry._RULESETS, "fake-dice", FakeRuleset())
    monkeypatch.setitem(registry._RULESETS, "fake-child", FakeChild())
    root = typer.Typer(cls=_Group, name="dogfight", no_args_is_help=True, add_completion=False)

    @root.callback()
    def _root() -> None:
        """A test root."""

    for group in ("import", "design", "odds"):
        sub = new_group(group)
        root.add_typer(sub)
        add_ruleset_commands(group, sub, all_rulesets(), per_ruleset=group == "odds")
    CALLS.clear()
    yield root


def invoke(cli: typer.Typer, *args: str) -> Any:
    return runner.invoke(cli, list(args), env=ENV, prog_name="dogfight")


def one_error(result: Any, code: int) -> str:
    """The single `error:` line of a failed command."""
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return str(lines[0])


def test_help_lists_params_and_the_shared_options(cli: typer.Typer) -> None:
    groups = invoke(cli, "odds", "--help").stdout
    assert "fake-dice" in groups and "FAKE: some dice." in groups
    text = invoke(cli, "odds", "fake-dice", "roll", "--help").stdout
    for word in ("dice", "--sides", "--moved", "--not-moved", "--range"):
        assert word in text
    assert "low|high" in text and "2<=x<=20" in text
    assert "--rule" in text and "--json" in text and "--plot" in text
    assert "Roll some fake dice (FAKE-1)." in text
    imported = invoke(cli, "import", "fake", "--help").stdout
    assert "--tag" in imported and "--json" in imported
    assert "--rule" not in imported and "--plot" not in imported
    design = invoke(cli, "design", "fake", "--help").stdout
    assert "Its card is a rich block." in design


def test_run_gets_params_by_name_and_the_report_prints_in_order(cli: typer.Typer) -> None:
    result = invoke(cli, "odds", "fake-dice", "roll", "3", "--not-moved", "--range", "2.5")
    assert result.exit_code == 0, result.output
    [(name, params, options)] = CALLS
    assert name == "roll" and options == {"bonus": 0}
    assert params == {
        "dice": 3,
        "sides": 6,
        "moved": False,
        "range_inches": 2.5,
        "label": "low",
        "plot": None,
    }
    assert type(params["label"]) is str  # a choice arrives as a plain string
    lines = result.stdout.splitlines()
    assert lines[0] == "Roll of 3d6 (low)"
    assert any("total" in line and "chance" in line for line in lines[1:4])  # the table
    assert lines[-1] == "moved: False, range: 2.5"
    assert "Plot:" not in result.stdout


def test_rule_options_reach_run_and_bad_ones_are_one_line(cli: typer.Typer) -> None:
    result = invoke(cli, "odds", "fake-dice", "roll", "2", "--rule", "bonus=3", "--label", "high")
    assert result.exit_code == 0, result.output
    assert CALLS[-1][2] == {"bonus": 3} and CALLS[-1][1]["label"] == "high"
    assert "Roll of 2d6 (high)" in result.stdout
    message = one_error(invoke(cli, "odds", "fake-dice", "roll", "2", "--rule", "nope=1"), 1)
    assert "unknown rule option 'nope'" in message and "bonus" in message
    assert one_error(invoke(cli, "odds", "fake-dice", "roll", "2", "--rule", "bonus"), 1)


def test_json_prints_the_reports_object_only(cli: typer.Typer) -> None:
    result = invoke(cli, "odds", "fake-dice", "roll", "2", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"kind": "roll", "total": 2, "plot": None}


def test_plot_is_checked_first_drawn_and_named(
    cli: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    message = one_error(invoke(cli, "odds", "fake-dice", "roll", "2", "--plot", "p.jpeg"), 1)
    assert ".png or .svg" in message and not CALLS  # refused before the run
    result = invoke(cli, "odds", "fake-dice", "roll", "2", "--plot", "p.svg")
    assert result.exit_code == 0, result.output
    assert CALLS[-1][1]["plot"] == Path("p.svg")
    assert (tmp_path / "p.svg").read_text().startswith("<?xml")
    assert result.stdout.splitlines()[-1] == "Plot: p.svg"
    data = json.loads(
        invoke(cli, "odds", "fake-dice", "roll", "2", "--json", "--plot", "q.png").stdout
    )
    assert data["plot"] == "q.png" and (tmp_path / "q.png").exists()


def test_ranges_and_checks_are_bad_parameters(cli: typer.Typer) -> None:
    message = one_error(invoke(cli, "odds", "fake-dice", "roll", "2", "--range", "-1"), 2)
    assert "'--range'" in message and "a range is 0 inches or more, not -1" in message
    assert "'--sides'" in one_error(
        invoke(cli, "odds", "fake-dice", "roll", "2", "--sides", "1"), 2
    )
    assert one_error(invoke(cli, "odds", "fake-dice", "roll", "0"), 2)
    assert "'--label'" in one_error(
        invoke(cli, "odds", "fake-dice", "roll", "2", "--label", "x"), 2
    )
    assert "dice" in one_error(invoke(cli, "odds", "fake-dice", "roll"), 2).lower()
    assert not CALLS


def test_errors_of_the_run_are_one_line(cli: typer.Typer) -> None:
    assert "too many for a fake" in one_error(invoke(cli, "odds", "fake-dice", "roll", "7"), 1)
    assert "not sold here" in one_error(invoke(cli, "odds", "fake-dice", "roll", "4"), 1)


def test_repeatable_options_and_rich_blocks(cli: typer.Typer) -> None:
    result = invoke(cli, "import", "fake", "units.txt", "--tag", "a", "--tag", "b")
    assert result.exit_code == 0, result.output
    assert CALLS[-1][1] == {"file": Path("units.txt"), "tag": ["a", "b"]}
    assert result.stdout == "read units.txt tags ['a', 'b']\n"
    assert invoke(cli, "import", "fake", "u.txt").exit_code == 0
    assert CALLS[-1][1]["tag"] == []
    card = invoke(cli, "design", "fake", "x")
    assert card.exit_code == 0 and card.stdout == "card:\n[not markup] fake card\n"


def test_a_subclass_gets_its_own_odds_group_but_shares_the_importer(cli: typer.Typer) -> None:
    """A ruleset registered under a new name keeps its parent's odds kinds; a command
    name the parent already took in `import`/`design` stays the parent's."""
    assert invoke(cli, "odds", "fake-child", "roll", "2").exit_code == 0
    listing = invoke(cli, "import", "--help").stdout
    assert [line.split()[1] for line in listing.splitlines() if "Import fake" in line] == ["fake"]


def test_group_help_falls_back_to_the_first_command() -> None:
    class Plain(FakeRuleset):
        name: ClassVar[str] = "plain"
        odds_help: ClassVar[str] = ""

    assert group_help(Plain(), [ROLL]) == "Roll some fake dice (FAKE-1)."
    assert group_help(FakeRuleset(), [ROLL]) == "FAKE: some dice."


def test_a_param_over_a_shared_option_is_refused() -> None:
    clash = Command(
        group="odds",
        name="bad",
        help="Bad.",
        params=(Param(name="plot", help="Mine.", type="str"),),
        run=_roll,
        takes_plot=True,
    )

    class Clashing(FakeRuleset):
        name: ClassVar[str] = "clashing"

        def commands(self) -> tuple[Command, ...]:
            return (clash,)

    with pytest.raises(DogfightError, match="plot"):
        add_ruleset_commands("odds", new_group("odds"), [Clashing()], per_ruleset=True)


def test_the_real_rulesets_are_ruleset_subclasses() -> None:
    """The fake stands on a real engine, so the registry treats it as any plugin."""
    assert isinstance(FakeRuleset(), Ruleset)
