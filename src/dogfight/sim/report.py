"""The playtest report: which units and which rules matter, in one run.

Built on the lab as it is, so that its figures are the ones `balance`, `simulate` and
`compare` give for the same seeds:

- Units: `balance.round_robin` of the ruleset's unit types.
- Scenarios: every built-in scenario played as written and with its sides swapped
  (each force in the other's place and initiative), on the same seeds, so a side's
  advantage shows apart from the first mover's.
- Rules: every rule option's other values against the default, paired by seed with
  `compare.judge` on each scenario. The default arm is played once per scenario and
  shared by every option. Options that never changed a single battle are listed as
  such; the p-values of the rest are adjusted for the number of tests
  (Benjamini-Hochberg), since with thirty options some would look significant by chance.

The work is a list of parts, each saved when done to a partial file beside the
report: an interrupted run resumes from there with the same plan.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec

from dogfight import __version__
from dogfight.core.errors import DogfightError
from dogfight.core.game import Game
from dogfight.core.options import Option
from dogfight.core.registry import find_ruleset
from dogfight.core.scenario import Scenario, builtin_scenario_files, load_scenario
from dogfight.dice.roller import derive_seed
from dogfight.sim.balance import BalanceReport, pairings, round_robin
from dogfight.sim.compare import Comparison, judge
from dogfight.sim.matchup import default_roster, unit_points
from dogfight.sim.runner import BattleResult, BattleTask, run_tasks
from dogfight.sim.stats import Interval, interval

Progress = Callable[[int, int], None]

SECTIONS = ("units", "scenarios", "rules")
"""The report's sections, in the order they are run and shown."""

QUICK = {"units": 20, "scenarios": 20, "rules": 20}
"""Battles per pairing, per scenario orientation, per option arm with `--quick`:
minutes on a small machine, and intervals about +-20 points wide."""
DEFAULT = {"units": 200, "scenarios": 200, "rules": 100}
"""Battles for the full report: intervals about +-7 points (+-10 for rules)."""
FDR = 0.05
"""The false discovery rate the rules section controls."""
REPORT_FORMAT = 1
"""Version of the partial file's layout."""


class Plan(msgspec.Struct, frozen=True, kw_only=True):
    """What a report runs: with the same plan, the same figures."""

    ruleset: str
    players: str
    seed: int
    battles: dict[str, int]
    """Battles per section (see `QUICK` and `DEFAULT`)."""
    scenarios: list[str]
    sections: list[str]
    quick: bool
    units: list[str]
    arms: list[tuple[str, str]]
    """The (option, value) arms of the rules section, in option order."""
    skipped: list[str]
    """Options or values left out, and why."""


class ScenarioPart(msgspec.Struct, frozen=True, kw_only=True):
    """One scenario's sides, as written and swapped, on the same seeds."""

    scenario: str
    title: str
    sides: list[str]
    battles: int
    as_written: dict[str, Interval]
    """Each side's wins with the sides as the scenario places them."""
    swapped: dict[str, Interval]
    """Each side's wins with the sides in each other's place and initiative."""
    draws: Interval
    """Draws over both orientations."""
    verdict: str


class RulePart(msgspec.Struct, frozen=True, kw_only=True):
    """One option value against the default on one scenario."""

    option: str
    value: str
    scenario: str
    comparison: Comparison
    changed: int
    """Battles (of `comparison.battles`) whose result differs at all between the arms."""
    effect: float
    """The largest change in any side's win rate (a fraction, signed)."""
    p_value: float
    """The exact paired test's p-value for the side that moved most."""
    q_value: float = 1.0
    """`p_value` adjusted for every test of the section (Benjamini-Hochberg)."""


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the playtest report shows."""

    plan: Plan
    version: str
    units: BalanceReport | None
    scenarios: list[ScenarioPart]
    rules: list[RulePart]
    """Ranked by effect size, the largest first."""
    no_effect: list[str]
    """Option values that changed no battle on any scenario."""
    battles_played: int
    wall_seconds: float
    command: str
    """The command that reruns it."""
    verdicts: dict[str, str]
    """One plain sentence per section."""


# ---- planning -------------------------------------------------------------------------


def alternatives(option: Option) -> tuple[list[str], str | None]:
    """The values of `option` the rules section tries against its default (as `--rule`
    spells them), and why some are not tried (or None).

    Choices: every other choice; yes/no: the other one; numbers, which have no list
    of values: half and one and a half times the default (whole numbers: one less and
    one more), inside the option's bounds."""
    default = option.default
    if isinstance(default, bool):
        return [str(not default).lower()], None
    if option.choices:
        return [c for c in option.choices if c != default], None
    if isinstance(default, int):
        tried: list[float] = [default - 1, default + 1]
    elif isinstance(default, float):
        tried = [default * 0.5, default * 1.5] if default else [1.0]
    else:
        return [], f"{option.name}: a free text option, not swept"
    kept = [
        v
        for v in tried
        if (option.minimum is None or v >= option.minimum)
        and (option.maximum is None or v <= option.maximum)
    ]
    note = None if kept else f"{option.name}: no value beside the default within its bounds"
    return [_number_text(v) for v in kept], note


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def make_plan(
    ruleset: str,
    *,
    players: str = "heuristic",
    seed: int = 1,
    quick: bool = False,
    battles: int | None = None,
    scenarios: Sequence[str] | None = None,
    sections: Sequence[str] | None = None,
) -> Plan:
    """The plan of a report (nothing is played). Raises `DogfightError` naming a bad
    section, scenario or battle count."""
    rules = find_ruleset(ruleset)
    chosen_sections = list(sections) if sections else list(SECTIONS)
    for section in chosen_sections:
        if section not in SECTIONS:
            raise DogfightError(
                f"--sections: no section {section!r}; sections: {', '.join(SECTIONS)}"
            )
    if battles is not None and battles < 1:
        raise DogfightError(f"--battles must be at least 1, not {battles}")
    counts = dict(QUICK if quick else DEFAULT)
    if battles is not None:
        counts = dict.fromkeys(counts, battles)
    known = [p.stem for p in builtin_scenario_files(rules.name)]
    names = list(scenarios) if scenarios else known
    for name in names:
        if name not in known:
            raise DogfightError(
                f"--scenario {name}: no built-in {rules.name} scenario of that name; "
                f"scenarios: {', '.join(known)}"
            )
    arms: list[tuple[str, str]] = []
    skipped: list[str] = []
    probe = load_scenario(f"{rules.name}/{names[0]}") if names else None
    for option in rules.options:
        values, note = alternatives(option)
        if note:
            skipped.append(note)
        for value in values:
            if probe is not None and not _accepted(probe, option.name, value):
                skipped.append(f"{option.name}={value}: refused by the ruleset")
                continue
            arms.append((option.name, value))
    units = default_roster(rules.name) if "units" in chosen_sections else []
    return Plan(
        ruleset=rules.name,
        players=players,
        seed=seed,
        battles=counts,
        scenarios=names,
        sections=[s for s in SECTIONS if s in chosen_sections],
        quick=quick,
        units=units,
        arms=arms,
        skipped=skipped,
    )


def _accepted(scenario: Scenario, name: str, value: str) -> bool:
    try:
        Game(scenario, seed=0, rules={name: value})
    except DogfightError:
        return False
    return True


def planned_battles(plan: Plan) -> int:
    """How many battles the plan plays (the units section's equal-points pairings are
    counted as if every type had points: an upper bound)."""
    total = 0
    if "units" in plan.sections and len(plan.units) > 1:
        pairs = len(pairings(dict.fromkeys(plan.units, 1)))
        priced = any(unit_points(plan.ruleset, u) is not None for u in plan.units)
        total += pairs * plan.battles["units"] * (2 if priced else 1)
    if "scenarios" in plan.sections:
        total += 2 * plan.battles["scenarios"] * len(plan.scenarios)
    if "rules" in plan.sections:
        total += (1 + len(plan.arms)) * plan.battles["rules"] * len(plan.scenarios)
    return total


def seconds_per_battle(plan: Plan, samples: int = 2) -> float:
    """A rough cost of one battle: the mean over a few battles of each scenario."""
    spent, played = 0.0, 0
    for name in plan.scenarios:
        scenario = load_scenario(f"{plan.ruleset}/{name}")
        for i in range(samples):
            task = _task(scenario, plan, "sample", i, derive_seed(plan.seed ^ 0x5A3, i))
            start = time.perf_counter()
            next(run_tasks([task], jobs=1))
            spent += time.perf_counter() - start
            played += 1
    return spent / played if played else 0.0


# ---- running --------------------------------------------------------------------------


class Partial(msgspec.Struct, kw_only=True):
    """The partial file: the plan and each finished part by key."""

    format: int = REPORT_FORMAT
    plan: Plan
    done: dict[str, Any] = msgspec.field(default_factory=dict)


def partial_path(out: Path) -> Path:
    """Where a report's finished parts are kept until it is done: beside the report."""
    return out.with_name(f"{out.stem}.partial.json")


def load_partial(path: Path, plan: Plan) -> Partial:
    """The saved parts of this plan at `path` (none if the file is missing). Refuses a
    file of another plan rather than overwrite it: nothing saved is lost."""
    if not path.exists():
        return Partial(plan=plan)
    try:
        saved = msgspec.json.decode(path.read_bytes(), type=Partial)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise DogfightError(f"{path}: not a report's partial results ({exc}); delete it") from None
    if saved.plan != plan:
        raise DogfightError(
            f"{path}: holds the partial results of another report (other ruleset, seed, "
            "players, battles or options); rerun with the same arguments to resume it, or "
            "with --fresh to start again"
        )
    return saved


def _save(path: Path | None, partial: Partial) -> None:
    if path is None:
        return
    scratch = path.with_name(path.name + ".tmp")
    scratch.write_bytes(msgspec.json.encode(partial))
    scratch.replace(path)  # never a half-written file


def _task(
    scenario: Scenario,
    plan: Plan,
    key: str,
    index: int,
    seed: int,
    *,
    rules: dict[str, str] | None = None,
    swapped: bool = False,
) -> BattleTask:
    sides = list(Game(scenario, seed=0).sides())
    return BattleTask(
        key=key,
        index=index,
        scenario=scenario,
        seed=seed,
        players=dict.fromkeys(sides, plan.players),
        rules=rules,
        swapped=swapped,
    )


class _Bar:
    """One progress count over every part of the report."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total, self.done, self.progress = total, 0, progress

    def part(self) -> Progress:
        start = self.done

        def update(done: int, _: int) -> None:
            self.done = start + done
            self.total = max(self.total, self.done)
            if self.progress is not None:
                self.progress(self.done, self.total)

        return update


def run_report(
    plan: Plan,
    *,
    jobs: int | None = None,
    cluster: str | None = None,
    progress: Progress | None = None,
    partial: Path | None = None,
    command: str = "",
) -> Report:
    """Play the plan's battles (resuming from `partial` when it holds parts of this
    plan; saving each part there as it finishes) and judge them."""
    started = time.perf_counter()
    saved = load_partial(partial, plan) if partial is not None else Partial(plan=plan)
    bar = _Bar(planned_battles(plan), progress)
    played = 0

    def part(key: str, kind: Any, make: Callable[[Progress], Any]) -> Any:
        nonlocal played
        if key in saved.done:
            return msgspec.convert(saved.done[key], kind)
        value = make(bar.part())
        saved.done[key] = msgspec.to_builtins(value)
        _save(partial, saved)
        return value

    units: BalanceReport | None = None
    if "units" in plan.sections and len(plan.units) > 1:
        units = part(
            "units",
            BalanceReport,
            lambda tick: round_robin(
                plan.ruleset,
                plan.units,
                battles=plan.battles["units"],
                seed=plan.seed,
                jobs=jobs,
                cluster=cluster,
                ai=plan.players,
                progress=tick,
            ),
        )
    scenarios: list[ScenarioPart] = []
    if "scenarios" in plan.sections:
        for name in plan.scenarios:
            scenarios.append(
                part(
                    f"scenario:{name}",
                    ScenarioPart,
                    functools.partial(_scenario_part, name, plan, jobs, cluster),
                )
            )
    rules: list[RulePart] = []
    if "rules" in plan.sections and plan.arms:
        for name in plan.scenarios:
            rules.extend(
                part(
                    f"rules:{name}",
                    list[RulePart],
                    functools.partial(_rule_parts, name, plan, jobs, cluster),
                )
            )
    rules = adjusted(rules)
    rules.sort(key=lambda r: (-abs(r.effect), r.q_value, r.option, r.value, r.scenario))
    moved = {(r.option, r.value) for r in rules if r.changed}
    no_effect = [f"{o}={v}" for o, v in plan.arms if (o, v) not in moved] if rules else []
    played = bar.done
    report = Report(
        plan=plan,
        version=__version__,
        units=units,
        scenarios=scenarios,
        rules=rules,
        no_effect=no_effect,
        battles_played=played,
        wall_seconds=time.perf_counter() - started,
        command=command,
        verdicts={},
    )
    report = msgspec.structs.replace(report, verdicts=verdicts(report))
    if partial is not None and partial.exists():
        partial.unlink()  # the report holds everything now
    return report


def _scenario_part(
    name: str, plan: Plan, jobs: int | None, cluster: str | None, tick: Progress
) -> ScenarioPart:
    scenario = load_scenario(f"{plan.ruleset}/{name}")
    sides = list(Game(scenario, seed=0).sides())
    n = plan.battles["scenarios"]

    def tasks() -> Iterator[BattleTask]:
        for i in range(n):
            seed = derive_seed(plan.seed, i)
            yield _task(scenario, plan, "as_written", i, seed)
            yield _task(scenario, plan, "swapped", i, seed, swapped=True)

    arms: dict[str, list[BattleResult]] = {"as_written": [], "swapped": []}
    for task, result in run_tasks(tasks(), jobs=jobs, cluster=cluster, progress=tick, total=2 * n):
        arms[task.key].append(result)
    written = {s: interval(sum(r.winner == s for r in arms["as_written"]), n) for s in sides}
    swapped = {s: interval(sum(r.winner == s for r in arms["swapped"]), n) for s in sides}
    every = arms["as_written"] + arms["swapped"]
    draws = interval(sum(r.winner is None for r in every), len(every))
    return ScenarioPart(
        scenario=name,
        title=scenario.title,
        sides=sides,
        battles=n,
        as_written=written,
        swapped=swapped,
        draws=draws,
        verdict=scenario_verdict(sides, written, swapped),
    )


def scenario_verdict(
    sides: Sequence[str], written: dict[str, Interval], swapped: dict[str, Interval]
) -> str:
    """One sentence: is a force stronger whichever place it takes, or is a place (the
    first mover's) the advantage, or is it even?"""
    if len(sides) != 2:
        return "Not two sides: see the table."
    a, b = sides

    def beats(x: Interval, y: Interval) -> bool:
        return x.low > y.high

    force = beats(written[a], written[b]) and beats(swapped[a], swapped[b])
    force_b = beats(written[b], written[a]) and beats(swapped[b], swapped[a])
    place_a = beats(written[a], written[b]) and beats(swapped[b], swapped[a])
    place_b = beats(written[b], written[a]) and beats(swapped[a], swapped[b])
    if force or force_b:
        strong = a if force else b
        return f"{strong} wins from either place: its force is the stronger one."
    if place_a:
        return f"Whoever takes {a}'s place wins: the place (and its initiative) decides."
    if place_b:
        return f"Whoever takes {b}'s place wins: the place (and its initiative) decides."
    return "No side or place wins clearly more at this many battles."


def _rule_parts(
    name: str, plan: Plan, jobs: int | None, cluster: str | None, tick: Progress
) -> list[RulePart]:
    scenario = load_scenario(f"{plan.ruleset}/{name}")
    n = plan.battles["rules"]
    arms = [("", ""), *plan.arms]  # the default first, shared by every option

    def tasks() -> Iterator[BattleTask]:
        for i in range(n):
            seed = derive_seed(plan.seed, i)
            for option, value in arms:
                rules = {option: value} if option else None
                yield _task(scenario, plan, f"{option}={value}", i, seed, rules=rules)

    results: dict[str, list[BattleResult]] = {f"{o}={v}": [] for o, v in arms}
    total = n * len(arms)
    for task, result in run_tasks(tasks(), jobs=jobs, cluster=cluster, progress=tick, total=total):
        results[task.key].append(result)
    base = results["="]
    sides = list(Game(scenario, seed=0).sides())
    parts = []
    for option, value in plan.arms:
        arm = results[f"{option}={value}"]
        comparison = judge(name, {option: value}, plan.seed, sides, base, arm)
        lead = max(comparison.sides, key=lambda c: (abs(c.difference), -c.p_value))
        parts.append(
            RulePart(
                option=option,
                value=value,
                scenario=name,
                comparison=comparison,
                changed=sum(a != b for a, b in zip(base, arm, strict=True)),
                effect=lead.difference,
                p_value=min(c.p_value for c in comparison.sides),
            )
        )
    return parts


def adjusted(parts: Sequence[RulePart]) -> list[RulePart]:
    """The parts with Benjamini-Hochberg q-values over all of them."""
    order = sorted(range(len(parts)), key=lambda i: parts[i].p_value)
    q = [1.0] * len(parts)
    running = 1.0
    m = len(parts)
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, parts[i].p_value * m / rank)
        q[i] = min(1.0, running)
    return [msgspec.structs.replace(p, q_value=q[i]) for i, p in enumerate(parts)]


def verdicts(report: Report) -> dict[str, str]:
    """One plain sentence per section."""
    said: dict[str, str] = {}
    if report.units is not None:
        ranked = sorted(report.units.equal_numbers.strengths, key=lambda s: -s.rating)
        top, bottom = ranked[0], ranked[-1]
        gap = top.rating - bottom.rating
        clear = (top.rating - 2 * top.rating_se) > (bottom.rating + 2 * bottom.rating_se)
        said["units"] = (
            f"At equal numbers {top.unit} is strongest and {bottom.unit} weakest "
            f"({gap:.0f} rating points apart"
            + ("; clearly so)." if clear else "; not clearly so at this many battles).")
        )
        if report.units.dominated:
            d = report.units.dominated[0]
            said["units"] += f" {d.unit} is dominated by {d.by}."
    if report.scenarios:
        lopsided = [s for s in report.scenarios if not s.verdict.startswith("No side")]
        said["scenarios"] = (
            f"{len(lopsided)} of {len(report.scenarios)} scenarios are lopsided: "
            + "; ".join(f"{s.scenario}: {s.verdict}" for s in lopsided)
            if lopsided
            else (
                f"{report.scenarios[0].scenario} is not clearly lopsided."
                if len(report.scenarios) == 1
                else f"None of the {len(report.scenarios)} scenarios is clearly lopsided."
            )
        )
    if report.plan.arms and "rules" in report.plan.sections:
        found = [r for r in report.rules if r.q_value < FDR]
        if found:
            best = found[0]
            said["rules"] = (
                f"{len(found)} rule change{' moves' if len(found) == 1 else 's move'} "
                "the balance measurably; the largest is "
                f"{best.option}={best.value} in {best.scenario} "
                f"({100 * best.effect:+.0f} points for {_lead_side(best)})."
            )
        else:
            said["rules"] = (
                "No rule change moves the balance measurably at this many battles"
                f" ({len(report.no_effect)} never changed a battle)."
            )
    return said


def _lead_side(part: RulePart) -> str:
    lead = max(part.comparison.sides, key=lambda c: abs(c.difference))
    return lead.side


def interval_text(value: Interval) -> str:
    """'62% (48-74%)'."""
    return f"{100 * value.rate:.0f}% ({100 * value.low:.0f}-{100 * value.high:.0f}%)"


def expected_minutes(plan: Plan, per_battle: float, workers: int) -> float:
    """The wall time the plan should take, in minutes, from a sample battle's cost."""
    return planned_battles(plan) * per_battle / max(1, workers) / 60


def finite(value: float) -> float:
    """A figure for JSON: NaN and infinities become 0 (they mean 'no data' here)."""
    return value if math.isfinite(value) else 0.0
