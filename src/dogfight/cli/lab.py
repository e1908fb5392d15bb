"""The playtesting lab commands: `duel`, `balance` and `compare`.

They are registered on the shared app when `dogfight.cli.main` imports this module
(its last line), and reuse the options and error handling of `dogfight.cli.common`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from dogfight.ai import check_kind
from dogfight.cli import output as out
from dogfight.cli.common import (
    AiOption,
    JsonFlag,
    RuleOption,
    ScenarioArg,
    _scenario,
    app,
    battles_option,
    seed_option,
)
from dogfight.cli.progress import battle_progress
from dogfight.core.errors import DogfightError
from dogfight.core.game import Game
from dogfight.core.options import parse_rule_args, resolve_options
from dogfight.core.registry import find_ruleset
from dogfight.core.text import agrees
from dogfight.sim import check_players, parse_ai_args, side_names
from dogfight.sim.balance import BalanceReport, Section, round_robin
from dogfight.sim.compare import Comparison, compare, p_text
from dogfight.sim.matchup import (
    Matchup,
    MatchupResult,
    check_units,
    duel_scenario,
    parse_count,
    play_matchups,
)
from dogfight.sim.stats import interval

JobsOption = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, help="Worker processes (default: one per CPU)."),
]
ClusterOption = Annotated[
    str | None,
    typer.Option(help="Play on a Dask cluster at this scheduler address (e.g. tcp://host:8786)."),
]
SeedOption = Annotated[int, seed_option("Run seed; every battle's seed derives from it.")]
KindOption = Annotated[
    str,
    typer.Option(
        "--ai",
        metavar="KIND",
        help="Player for both sides: heuristic, random, search (search:N: N simulations "
        "a decision) or a ruleset's own kind such as heuristic:aggressive.",
    ),
]
PlotOption = Annotated[
    Path | None, typer.Option("--plot", metavar="FILE", help="Also draw a plot: FILE.png or .svg.")
]


def _progress(label: str, total: int, enabled: bool) -> Any:
    """The battles' progress bar (`cli.progress.battle_progress`)."""
    return battle_progress(label, total, enabled)


def _check_jobs(jobs: int | None, cluster: str | None) -> None:
    """Refuse --jobs with --cluster, as `simulate` does: the runner would ignore it."""
    if cluster is not None and jobs is not None:
        raise DogfightError(
            "--jobs and --cluster together: the cluster's workers decide how many battles "
            "run at once; drop --jobs"
        )


def _kind(ai: str, ruleset: str) -> str:
    try:
        kind = check_kind(ai)
    except DogfightError as exc:
        raise DogfightError(f"--ai {ai}: {exc}") from None
    check_players({"any": kind}, ruleset)
    return kind


def _rules(rule: list[str] | None, ruleset: str) -> dict[str, str]:
    """`--rule` arguments, checked against the ruleset's options."""
    parsed = parse_rule_args(rule or [])
    resolve_options(find_ruleset(ruleset).options, (parsed, "--rule"))
    return parsed


def _ci(low: float, high: float) -> str:
    return f"{out.percent(low)} - {out.percent(high)}"


# ---- duel -------------------------------------------------------------------------------


@app.command()
def duel(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name.")],
    a: Annotated[str, typer.Argument(help="First unit type: its id or name (any case).")],
    b: Annotated[str, typer.Argument(help="Second unit type: its id or name.")],
    count: Annotated[
        str, typer.Option(help="How many of each: NvM (A's, then B's), or N for NvN.")
    ] = "4v4",
    battles: Annotated[int, battles_option("Battles.")] = 200,
    seed: SeedOption = 1,
    jobs: JobsOption = None,
    cluster: ClusterOption = None,
    ai: KindOption = "heuristic",
    rule: RuleOption = None,
    json_out: JsonFlag = False,
    plot: PlotOption = None,
) -> None:
    """A quick matchup of two unit types on the ruleset's standard board.

    Half the battles put A on the first side and half put B there.
    """
    _check_jobs(jobs, cluster)
    name = find_ruleset(ruleset).name
    a, b = check_units(name, [a, b])
    count_a, count_b = parse_count(count)
    kind = _kind(ai, name)
    rules = _rules(rule, name)
    if plot is not None:
        from dogfight.sim.plots import check_plot_path  # matplotlib loads only when asked

        check_plot_path(plot)
    scenario = duel_scenario(name, a, b, count_a, count_b)
    m = Matchup(a=a, b=b, count_a=count_a, count_b=count_b)
    with _progress("duelling", battles, not json_out) as progress:
        (result,) = play_matchups(
            name,
            [m],
            battles,
            seed,
            jobs=jobs,
            cluster=cluster,
            ai=kind,
            rules=rules,
            progress=progress,
        )
    report = _duel_report(name, result, seed, kind, rules, scenario.title)
    if plot is not None:
        from dogfight.sim.plots import Rate, simulation_plot

        found = report["results"]
        rates = [Rate(k, found[k]["rate"], found[k]["low"], found[k]["high"]) for k in found]
        title = f"{scenario.title}: {result.battles} battles, run seed {seed}"
        simulation_plot(rates, result.turns, title, plot)
    if json_out:
        out.print_json({**report, "plot": str(plot) if plot else None})
        return
    typer.echo(
        f"{scenario.title} on the standard {name} board; {result.battles} battles "
        f"(half with each type as the first side), run seed {seed}, players {kind}, "
        f"options {out.option_text(rules)}"
    )
    rows = []
    for key, label in ((a, f"{a} wins"), (b, f"{b} wins"), ("draw", "draw")):
        side = report["results"][key]
        rows.append(
            [label, side["count"], out.percent(side["rate"]), _ci(side["low"], side["high"])]
        )
    out.print_table(["result", "battles", "rate", "95% interval (Wilson)"], rows)
    typer.echo(
        f"{a} scores {out.percent(result.rate_a)} (draws count half). "
        f"Wins as the first side: {a} {result.a_first_wins}, {b} {result.b_first_wins}. "
        f"Turns: mean {report['mean_turns']:.2f}"
    )
    if plot is not None:
        typer.echo(f"Plot: {plot}")


def _duel_report(
    ruleset: str, r: MatchupResult, seed: int, kind: str, rules: dict[str, str], title: str
) -> dict[str, Any]:
    m = r.matchup

    def entry(count: int) -> dict[str, Any]:
        i = interval(count, r.battles)
        return {"count": i.count, "rate": i.rate, "low": i.low, "high": i.high}

    return {
        "ruleset": ruleset,
        "title": title,
        "a": m.a,
        "b": m.b,
        "count": {m.a: m.count_a, m.b: m.count_b},
        "battles": r.battles,
        "seed": seed,
        "ai": kind,
        "rules": rules,
        # A mirror duel is refused (`check_units`): the two types are two keys.
        "results": {m.a: entry(r.wins_a), m.b: entry(r.wins_b), "draw": entry(r.draws)},
        "score_a": r.rate_a,
        "first_side_wins": {"a": r.a_first_wins, "b": r.b_first_wins},
        "mean_turns": sum(r.turns) / len(r.turns) if r.turns else 0.0,
    }


# ---- balance ----------------------------------------------------------------------------


@app.command()
def balance(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name.")],
    units: Annotated[
        list[str] | None,
        typer.Argument(
            help="Unit types by id or name (default: the ruleset's fighters, see docs)."
        ),
    ] = None,
    battles: Annotated[int, battles_option("Battles per pairing.")] = 1000,
    count: Annotated[str, typer.Option(help="Units a side at equal numbers: N (or NvN).")] = "4",
    points: Annotated[
        int | None,
        typer.Option("--points", min=1, help="Equal-points budget (default: 4 of the dearest)."),
    ] = None,
    seed: SeedOption = 1,
    jobs: JobsOption = None,
    cluster: ClusterOption = None,
    ai: KindOption = "heuristic",
    rule: RuleOption = None,
    json_out: JsonFlag = False,
    plot: PlotOption = None,
) -> None:
    """A round robin of unit types: win rates, fitted strengths, suggested points, dominance."""
    _check_jobs(jobs, cluster)
    name = find_ruleset(ruleset).name
    count_a, count_b = parse_count(count)
    if count_a != count_b:
        raise DogfightError(f"--count {count}: a round robin fields equal numbers, e.g. 4 or 4v4")
    if units:
        units = check_units(name, units)
    kind = _kind(ai, name)
    rules = _rules(rule, name)
    if plot is not None:
        from dogfight.sim.plots import check_plot_path  # matplotlib loads only when asked

        check_plot_path(plot)
    # The number of pairings is known once the roster is: the runner's total fills the bar.
    with _progress("round robin", 0, not json_out) as progress:
        report = round_robin(
            name,
            units,
            count=count_a,
            battles=battles,
            budget=points,
            seed=seed,
            jobs=jobs,
            cluster=cluster,
            ai=kind,
            rules=rules,
            progress=progress,
        )
    plots = _balance_plots(report, plot) if plot is not None else []
    if json_out:
        out.print_json({**_balance_json(report), "plots": [str(p) for p in plots]})
        return
    _print_balance(report)
    for path in plots:
        typer.echo(f"Plot: {path}")


def _balance_plots(report: BalanceReport, plot: Path) -> list[Path]:
    """The equal-numbers heatmap at `plot`; the equal-points one beside it (-points)."""
    paths = [_section_heatmap(report, report.equal_numbers, plot)]
    if report.equal_points is not None:
        extra = plot.with_name(f"{plot.stem}-points{plot.suffix}")
        paths.append(_section_heatmap(report, report.equal_points, extra))
    return paths


def _section_heatmap(report: BalanceReport, section: Section, path: Path) -> Path:
    matrix = section.matrix
    size = len(matrix.names)
    rates = [[matrix.rate(i, j) for j in range(size)] for i in range(size)]
    what = (
        f"{next(iter(section.counts.values()))} v {next(iter(section.counts.values()))}"
        if section.basis == "equal numbers"
        else f"{report.budget} points a side"
    )
    title = (
        f"{report.ruleset} round robin, {section.basis} ({what}), "
        f"{report.battles} battles a pairing\nrow's score against column (draws count half)"
    )
    from dogfight.sim.plots import heatmap

    ratings = {s.unit: s.rating for s in section.strengths}
    return heatmap(rates, matrix.names, title, path, ratings)


def _print_balance(report: BalanceReport) -> None:
    typer.echo(
        f"{report.ruleset} round robin of {len(report.units)} unit types, {report.battles} "
        f"battles a pairing (half with each type as the first side); run seed {report.seed}, "
        f"players {report.ai}, options {out.option_text(report.rules)}"
    )
    for line in report.skipped:
        typer.echo(f"  note: {line}")
    for section in (report.equal_numbers, report.equal_points):
        if section is None:
            continue
        _print_section(report, section)
    typer.echo("")
    typer.echo(
        "Suggested points: N units of a type are as strong as its unit strength + k ln N "
        f"({report.forces.note}); prices in proportion to e^(strength / k) make "
        "equal-points forces equally strong (scaled to the mean current points, or to 100):"
    )
    out.print_table(
        ["unit", "points", "suggested", "change"],
        [
            [
                s.unit,
                s.points if s.points is not None else "none",
                s.suggested,
                f"{100 * s.change:+.0f}%" if s.change is not None else "",
            ]
            for s in report.suggestions
        ],
    )
    if not report.dominated:
        typer.echo("Dominated designs: none.")
    for d in report.dominated:
        cost = "costs no more" if d.cost[0] is not None else "neither has points"
        worse = ", ".join(
            f"{z} {out.percent(by)} v {out.percent(it)}" for z, (by, it) in d.against.items()
        )
        typer.echo(
            f"Dominated: {d.unit} by {d.by}: {d.by} beats it {out.percent(d.head_to_head)} "
            f"head to head, {cost}, and does at least as well against every other type "
            f"({worse or 'no other types'})."
        )


def _print_section(report: BalanceReport, section: Section) -> None:
    typer.echo("")
    matrix = section.matrix
    size = len(matrix.names)
    counts = ", ".join(f"{u} {c}" for u, c in section.counts.items())
    title = f"{section.basis}: row's win rate against column (draws half; units a side: {counts})"
    rows = []
    for i, unit in enumerate(matrix.names):
        cells: list[Any] = []
        for j in range(size):
            rate = matrix.rate(i, j)
            cells.append("-" if rate is None else f"{100 * rate:.0f}")
        rows.append([unit, *cells])
    out.print_table(["row v column", *matrix.names], rows, title=title)
    typer.echo(
        f"Bradley-Terry strength ({section.basis}), Elo scale (field mean 1500), "
        "standard error from the observed information:"
    )
    ranked = sorted(section.strengths, key=lambda s: -s.rating)
    out.print_table(
        ["unit", "rating", "± se", "points"],
        [
            [s.unit, f"{s.rating:.0f}", f"{s.rating_se:.0f}", report.points.get(s.unit) or "none"]
            for s in ranked
        ],
    )


def _balance_json(report: BalanceReport) -> dict[str, Any]:
    def section(s: Section | None) -> dict[str, Any] | None:
        if s is None:
            return None
        m = s.matrix
        return {
            "counts": s.counts,
            "matrix": {
                "names": m.names,
                "rate": [[m.rate(i, j) for j in range(len(m.names))] for i in range(len(m.names))],
                "battles": m.battles,
            },
            "strengths": s.strengths,
        }

    return {
        "ruleset": report.ruleset,
        "units": report.units,
        "points": report.points,
        "battles_per_pairing": report.battles,
        "seed": report.seed,
        "ai": report.ai,
        "rules": report.rules,
        "budget": report.budget,
        "equal_numbers": section(report.equal_numbers),
        "equal_points": section(report.equal_points),
        "skipped": report.skipped,
        "forces": report.forces,
        "suggested_points": report.suggestions,
        "dominated": report.dominated,
    }


# ---- compare ----------------------------------------------------------------------------


@app.command(name="compare")
def compare_command(
    scenario: ScenarioArg,
    rule: RuleOption = None,
    battles: Annotated[int, battles_option("Battles per arm.")] = 500,
    seed: SeedOption = 1,
    jobs: JobsOption = None,
    cluster: ClusterOption = None,
    ai: AiOption = None,
    json_out: JsonFlag = False,
) -> None:
    """The same scenario without and with house rules (--rule): does the balance move?

    Both arms play the same seeds; each side's change is tested with McNemar's exact test.
    """
    _check_jobs(jobs, cluster)
    loaded = _scenario(scenario)
    if not rule:
        raise DogfightError("compare needs at least one --rule KEY=VALUE (see 'dogfight options')")
    rules = parse_rule_args(rule)
    game = Game(loaded, seed=seed, rules=rules)  # unknown or bad options: one line, here
    players = parse_ai_args(ai or [], side_names(game))
    check_players(players, game.ruleset.name)
    with _progress("comparing", 2 * battles, not json_out) as progress:
        result = compare(
            loaded,
            rules,
            battles,
            seed,
            players=players,
            jobs=jobs,
            cluster=cluster,
            progress=progress,
        )
    if json_out:
        out.print_json(
            {
                "ruleset": game.ruleset.name,
                "source": loaded.where,
                "players": players,
                **_compare_json(result),
            }
        )
        return
    _print_compare(result, loaded.title, players)


def _compare_json(c: Comparison) -> dict[str, Any]:
    return {
        "scenario": c.scenario,
        "rules": c.rules,
        "battles": c.battles,
        "seed": c.seed,
        "sides": c.sides,
        "draws": {"without": c.draws_without, "with": c.draws_with},
        "mean_turns": {"without": c.mean_turns_without, "with": c.mean_turns_with},
        "test": "McNemar exact (paired by seed), two-sided",
        "significant": c.significant,
        "verdict": c.verdict,
    }


def _print_compare(c: Comparison, title: str, players: dict[str, str]) -> None:
    what = ", ".join(f"{k}={v}" for k, v in c.rules.items())
    who = ", ".join(f"{side}: {kind}" for side, kind in players.items())
    typer.echo(
        f"{title}: {c.battles} battles without and {c.battles} with {what} "
        f"(the same seeds, run seed {c.seed}); players {who}"
    )
    rows = []
    for s in c.sides:
        rows.append(
            [
                agrees(s.side, "win"),
                f"{out.percent(s.without.rate)} ({_ci(s.without.low, s.without.high)})",
                f"{out.percent(s.with_rules.rate)} ({_ci(s.with_rules.low, s.with_rules.high)})",
                f"{100 * s.difference:+.1f} ({100 * s.low:+.1f} to {100 * s.high:+.1f})",
                p_text(s.p_value),
            ]
        )
    dw, dr = c.draws_without, c.draws_with
    rows.append(
        [
            "draw",
            f"{out.percent(dw.rate)} ({_ci(dw.low, dw.high)})",
            f"{out.percent(dr.rate)} ({_ci(dr.low, dr.high)})",
            "",
            "",
        ]
    )
    out.print_table(
        ["result", "without (95% Wilson)", f"with {what}", "change, points (95%)", "McNemar"],
        rows,
    )
    typer.echo(f"Turns: mean {c.mean_turns_without:.2f} without, {c.mean_turns_with:.2f} with.")
    typer.echo(c.verdict)
