"""Balance: a round robin of unit types, their fitted strengths, points and dominance.

`round_robin` plays every pair of unit types on the standard board (`matchup`) at
equal numbers and, where the types have points, at equal points. The statistics
are plain functions on the results, so they can be checked on made-up numbers:

- `win_matrix`: row beats column, draws counted half;
- `bradley_terry`: strengths by maximum likelihood, on an Elo-like scale, with
  standard errors from the observed information;
- `fit_forces` and `suggested_points`: how strength grows with numbers, and the
  points that would make equal-points forces equally strong (the rule is in their
  docstrings and in the README, "Playtesting your rules");
- `dominated`: designs another design beats head to head and everywhere else.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import combinations

import msgspec
import numpy as np

from dogfight.core.errors import DogfightError
from dogfight.core.registry import find_ruleset
from dogfight.sim.matchup import (
    Matchup,
    MatchupResult,
    Progress,
    check_units,
    default_roster,
    play_matchups,
    unit_points,
)
from dogfight.sim.players import DEFAULT_KIND
from dogfight.sim.stats import wilson

ELO_PER_LOGIT = 400 / math.log(10)
"""Elo points per unit of Bradley-Terry log-strength (400 Elo = odds of 10 to 1)."""
ELO_BASE = 1500.0
"""The rating of a unit of average strength in the field."""
PRIOR_GAMES = 1.0
"""Virtual drawn games added to every pairing before the fit (see `bradley_terry`)."""
DEFAULT_BUDGET_UNITS = 4
"""Default equal-points budget: this many of the dearest unit type."""
NO_POINTS_SCALE = 100.0
"""Average suggested value when no unit type in the round robin has points."""


class WinMatrix(msgspec.Struct, frozen=True, kw_only=True):
    """Who beats whom: `score[i][j]` is row i's wins against column j plus half the draws,
    out of `battles[i][j]` (the diagonal is empty)."""

    names: list[str]
    score: list[list[float]]
    battles: list[list[int]]

    def rate(self, i: int, j: int) -> float | None:
        """Row i's score rate against column j (None if they never met)."""
        n = self.battles[i][j]
        return self.score[i][j] / n if n else None


def win_matrix(names: Sequence[str], results: Sequence[MatchupResult]) -> WinMatrix:
    """The win-rate matrix of a round robin over `names` (results for other types ignored)."""
    index = {name: i for i, name in enumerate(names)}
    size = len(names)
    score = [[0.0] * size for _ in range(size)]
    battles = [[0] * size for _ in range(size)]
    for r in results:
        i, j = index.get(r.matchup.a), index.get(r.matchup.b)
        if i is None or j is None or i == j:
            continue
        score[i][j] += r.score_a
        score[j][i] += r.battles - r.score_a
        battles[i][j] += r.battles
        battles[j][i] += r.battles
    return WinMatrix(names=list(names), score=score, battles=battles)


class Strength(msgspec.Struct, frozen=True, kw_only=True):
    """A unit type's fitted Bradley-Terry strength."""

    unit: str
    theta: float
    """Log-strength, centred so the field's mean is 0."""
    se: float
    """Standard error of `theta` (observed information, relative to the field mean)."""
    rating: float
    """`theta` on an Elo-like scale: 1500 + 400 * theta / ln 10."""
    rating_se: float


def bradley_terry(matrix: WinMatrix, prior_games: float = PRIOR_GAMES) -> list[Strength]:
    """Bradley-Terry strengths by maximum likelihood: P(i beats j) = 1 / (1 + e^(tj - ti)).

    Draws count as half a win each way (they are in `matrix.score` that way). Every
    pairing that was played gets `prior_games` virtual drawn games first, so that a
    type that won every battle still gets a finite strength; with hundreds of battles a
    pairing the shift is a fraction of a percent. The fit is Newton's method on the
    log-likelihood with the strengths centred (they are only defined up to a constant).
    Standard errors come from the observed information at the optimum: its
    pseudo-inverse is the covariance of the centred strengths.
    """
    names = matrix.names
    size = len(names)
    wins = np.zeros((size, size))
    games = np.zeros((size, size))
    for i in range(size):
        for j in range(size):
            if i != j and matrix.battles[i][j] > 0:
                wins[i, j] = matrix.score[i][j] + prior_games / 2
                games[i, j] = matrix.battles[i][j] + prior_games
    theta = np.zeros(size)
    info = np.zeros((size, size))
    for _ in range(100):
        diff = theta[:, None] - theta[None, :]
        p = 1 / (1 + np.exp(-diff))
        gradient = (wins - games * p).sum(axis=1)
        weight = games * p * (1 - p)
        info = np.diag(weight.sum(axis=1)) - weight
        step = np.linalg.pinv(info) @ gradient
        theta = theta + step
        theta -= theta.mean()
        if float(np.abs(step).max()) < 1e-10:
            break
    covariance = np.linalg.pinv(info)
    se = np.sqrt(np.clip(np.diag(covariance), 0, None))
    return [
        Strength(
            unit=name,
            theta=float(theta[i]),
            se=float(se[i]),
            rating=ELO_BASE + ELO_PER_LOGIT * float(theta[i]),
            rating_se=ELO_PER_LOGIT * float(se[i]),
        )
        for i, name in enumerate(names)
    ]


class ForceFit(msgspec.Struct, frozen=True, kw_only=True):
    """Strength of a force of N units of type i: theta_i + exponent * ln N (Bradley-Terry)."""

    theta: dict[str, float]
    """Log-strength of one unit of each type, centred on the field's mean (fitted
    together with `exponent`, measured or assumed)."""
    exponent: float
    """How strength grows with numbers: N units are N^exponent times as strong as one."""
    exponent_se: float | None
    """Its standard error, when it was measured."""
    measured: bool
    """False when the results hold no different numbers to measure it from (or what
    they measure is below `MIN_EXPONENT`): then `ASSUMED_EXPONENT` is used."""
    note: str
    """How the exponent was found, in words."""


ASSUMED_EXPONENT = 2.0
"""The exponent when it cannot be measured: Lanchester's square law (a force's
fighting strength grows with the square of its numbers)."""
MIN_EXPONENT = 0.25
"""A measured exponent below this (numbers hardly matter) is not used for pricing."""


def fit_forces(
    names: Sequence[str], results: Sequence[MatchupResult], prior_games: float = PRIOR_GAMES
) -> ForceFit:
    """Fit one unit strength per type and one exponent for numbers to every matchup.

    P(N of a beat M of b) = 1 / (1 + exp(-(theta_a + k ln N - theta_b - k ln M))): a
    Bradley-Terry model whose players are forces. Equal-numbers and equal-points
    results together measure k (how much one more unit is worth); with equal
    numbers only, k is not measurable and `ASSUMED_EXPONENT` is used. Draws count
    half; each matchup gets `prior_games` virtual draws, as in `bradley_terry`.
    """
    index = {name: i for i, name in enumerate(names)}
    rows, wins, games = [], [], []
    for r in results:
        m = r.matchup
        if m.a not in index or m.b not in index or m.a == m.b:
            continue
        row = np.zeros(len(names) + 1)
        row[index[m.a]] += 1
        row[index[m.b]] -= 1
        row[-1] = math.log(m.count_a) - math.log(m.count_b)
        rows.append(row)
        wins.append(r.score_a + prior_games / 2)
        games.append(r.battles + prior_games)
    design = np.array(rows).reshape(-1, len(names) + 1)
    y, n = np.array(wins), np.array(games)
    measured = bool(design.size) and bool(np.any(design[:, -1] != 0))
    if not measured:
        design[:, -1] = 0.0
    beta, info = _logistic_fit(design, y, n, np.zeros(len(y)), len(names))
    exponent, exponent_se = ASSUMED_EXPONENT, None
    note = f"k = {ASSUMED_EXPONENT:g} assumed (Lanchester's square law): no different numbers met"
    if measured:
        covariance = np.linalg.pinv(info)
        found = float(beta[-1])
        found_se = float(math.sqrt(max(0.0, covariance[-1, -1])))
        measured = found >= MIN_EXPONENT
        if measured:
            exponent, exponent_se = found, found_se
            note = f"k = {found:.2f} ± {found_se:.2f}, measured from both round robins"
        else:
            note = (
                f"k = {ASSUMED_EXPONENT:g} assumed (Lanchester's square law): the results "
                f"measure {found:.2f} ± {found_se:.2f}, too little to price by"
            )
            # Prices pair the strengths with k: fit them again with k held at the
            # assumed value, not beside the measured one.
            offset = ASSUMED_EXPONENT * design[:, -1]
            fixed, _ = _logistic_fit(design[:, :-1], y, n, offset, len(names))
            beta = np.append(fixed, ASSUMED_EXPONENT)
    return ForceFit(
        theta={name: float(beta[i]) for i, name in enumerate(names)},
        exponent=exponent,
        exponent_se=exponent_se,
        measured=measured,
        note=note,
    )


def _logistic_fit(
    design: np.ndarray, y: np.ndarray, n: np.ndarray, offset: np.ndarray, centred: int
) -> tuple[np.ndarray, np.ndarray]:
    """Binomial logistic regression by Newton's method: `y` of `n` won where the log-odds
    are `design @ beta + offset`. The first `centred` coefficients (the strengths, only
    defined up to a constant) are kept centred on 0. Returns beta and the information."""
    beta = np.zeros(design.shape[1])
    info = np.zeros((len(beta), len(beta)))
    for _ in range(100):
        p = 1 / (1 + np.exp(-(design @ beta + offset)))
        gradient = design.T @ (y - n * p)
        info = design.T @ (design * (n * p * (1 - p))[:, None])
        step = np.linalg.pinv(info) @ gradient
        beta = beta + step
        beta[:centred] -= beta[:centred].mean()
        if float(np.abs(step).max()) < 1e-10:
            break
    return beta, info


class Suggestion(msgspec.Struct, frozen=True, kw_only=True):
    """A suggested points value for a unit type."""

    unit: str
    points: int | None
    """The current points value (None: the type has none)."""
    suggested: int
    change: float | None
    """suggested / points - 1, when the type has points."""


def suggested_points(fit: ForceFit, points: Mapping[str, int | None]) -> list[Suggestion]:
    """Points that would make equal-points forces equally strong.

    With a force of N units of type i as strong as theta_i + k ln N (`fit_forces`), a
    budget B buys B / p_i units, and every force is equally strong when
    p_i is proportional to exp(theta_i / k). The prices are scaled so that their mean
    equals the mean current points of these types (or 100 when none has points),
    and rounded to whole points (at least 1).
    """
    value = {unit: math.exp(theta / fit.exponent) for unit, theta in fit.theta.items()}
    priced = [p for unit in fit.theta if (p := points.get(unit)) is not None]
    target = sum(priced) / len(priced) if priced else NO_POINTS_SCALE
    scale = target / (sum(value.values()) / len(value)) if value else 1.0
    result = []
    for unit in fit.theta:
        current = points.get(unit)
        suggested = max(1, round(value[unit] * scale))
        result.append(
            Suggestion(
                unit=unit,
                points=current,
                suggested=suggested,
                change=suggested / current - 1 if current else None,
            )
        )
    return result


class Domination(msgspec.Struct, frozen=True, kw_only=True):
    """Type `unit` is dominated by `by`: the evidence, as score rates."""

    unit: str
    by: str
    head_to_head: float
    """`by`'s score rate against `unit`."""
    against: dict[str, tuple[float, float]]
    """For every other type: (`by`'s rate against it, `unit`'s rate against it)."""
    cost: tuple[int | None, int | None]
    """(`by`'s points, `unit`'s points)."""


def dominated(matrix: WinMatrix, points: Mapping[str, int | None]) -> list[Domination]:
    """Designs another design dominates.

    X is dominated by Y when Y beats X head to head (clearly: the 95% Wilson interval
    of Y's score rate against X lies above 50%, so a few lucky battles flag nothing),
    does at least as well as X against every other type in the matrix, and costs no
    more than X (or neither has points). Pairs that never met are not judged.
    """
    names = matrix.names
    found = []
    for x, y in ((x, y) for x in range(len(names)) for y in range(len(names)) if x != y):
        head = matrix.rate(y, x)
        if head is None or wilson(round(matrix.score[y][x]), matrix.battles[y][x])[0] <= 0.5:
            continue
        px, py = points.get(names[x]), points.get(names[y])
        if (px is None) != (py is None) or (px is not None and py is not None and py > px):
            continue
        against: dict[str, tuple[float, float]] = {}
        for z in range(len(names)):
            if z in (x, y):
                continue
            ry, rx = matrix.rate(y, z), matrix.rate(x, z)
            if ry is None or rx is None or ry < rx:
                break
            against[names[z]] = (ry, rx)
        else:
            found.append(
                Domination(
                    unit=names[x], by=names[y], head_to_head=head, against=against, cost=(py, px)
                )
            )
    return found


# ---- the round robin --------------------------------------------------------------------


class Section(msgspec.Struct, frozen=True, kw_only=True):
    """One round robin: the counts fielded, its matrix and the fitted strengths."""

    basis: str
    """'equal numbers' or 'equal points'."""
    counts: dict[str, int]
    matrix: WinMatrix
    strengths: list[Strength]
    results: list[MatchupResult]


class BalanceReport(msgspec.Struct, frozen=True, kw_only=True):
    """Everything `dogfight balance` reports."""

    ruleset: str
    units: list[str]
    points: dict[str, int | None]
    battles: int
    """Battles per pairing."""
    seed: int
    ai: str
    rules: dict[str, str]
    budget: int | None
    """The equal-points budget, or None when no equal-points round robin was played."""
    equal_numbers: Section
    equal_points: Section | None
    skipped: list[str]
    """Why a type (or the whole equal-points round robin) was left out, one line each."""
    forces: ForceFit
    """Unit strengths and the exponent for numbers, fitted to both round robins."""
    suggestions: list[Suggestion]
    dominated: list[Domination]


def equal_point_counts(
    points: Mapping[str, int | None], budget: int
) -> tuple[dict[str, int], list[str]]:
    """How many of each type fit `budget`, and one line for each type that cannot play."""
    counts: dict[str, int] = {}
    skipped = []
    for unit, p in points.items():
        if p is None:
            skipped.append(f"{unit}: no points value, left out of the equal-points round robin")
        elif p > budget:
            skipped.append(f"{unit}: {p} points, more than the budget of {budget}")
        else:
            counts[unit] = budget // p
    return counts, skipped


def pairings(counts: Mapping[str, int]) -> list[Matchup]:
    """Every pair of the types, in the given order, each at its own count."""
    return [
        Matchup(a=a, b=b, count_a=counts[a], count_b=counts[b]) for a, b in combinations(counts, 2)
    ]


def round_robin(
    ruleset: str,
    units: Sequence[str] | None = None,
    *,
    count: int = 4,
    battles: int = 1000,
    budget: int | None = None,
    seed: int = 1,
    jobs: int | None = None,
    cluster: str | None = None,
    ai: str = DEFAULT_KIND,
    rules: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> BalanceReport:
    """Play every pairing of the types at `count` each and, where they have points,
    at equal points (`budget`, default four of the dearest); fit and judge the results.
    """
    name = find_ruleset(ruleset).name
    roster = check_units(name, list(units) if units else default_roster(name))
    if len(roster) < 2:
        raise DogfightError(f"a round robin needs at least two unit types, not {len(roster)}")
    if count < 1:
        raise DogfightError("--count must be at least 1")
    points = {u: unit_points(name, u) for u in roster}
    priced = [p for p in points.values() if p is not None]
    skipped: list[str] = []
    point_counts: dict[str, int] = {}
    if budget is None and priced:
        budget = DEFAULT_BUDGET_UNITS * max(priced)
    if budget is not None and budget < 1:
        raise DogfightError(f"--points must be positive, not {budget}")
    if priced and budget is not None:
        point_counts, skipped = equal_point_counts(points, budget)
    else:
        skipped.append(f"no {name} unit type here has points: equal-points round robin skipped")
        budget = None
    if budget is not None and len(point_counts) < 2:
        skipped.append("fewer than two types have points within the budget: equal-points skipped")
        point_counts = {}
        budget = None

    number_counts = {u: count for u in roster}
    number_pairs = pairings(number_counts)
    point_pairs = pairings(point_counts)
    # A matchup in both lists (the same counts) is played once.
    unique = list(dict.fromkeys([*number_pairs, *point_pairs]))
    played = play_matchups(
        name,
        unique,
        battles,
        seed,
        jobs=jobs,
        cluster=cluster,
        ai=ai,
        rules=rules,
        progress=progress,
    )
    by_matchup = {r.matchup: r for r in played}

    numbers = _section("equal numbers", number_counts, [by_matchup[m] for m in number_pairs])
    at_points = (
        _section("equal points", point_counts, [by_matchup[m] for m in point_pairs])
        if point_counts
        else None
    )
    forces = fit_forces(roster, played)
    return BalanceReport(
        ruleset=name,
        units=roster,
        points=points,
        battles=battles,
        seed=seed,
        ai=ai,
        rules=dict(rules or {}),
        budget=budget,
        equal_numbers=numbers,
        equal_points=at_points,
        skipped=skipped,
        forces=forces,
        suggestions=suggested_points(forces, points),
        dominated=dominated(numbers.matrix, points),
    )


def _section(basis: str, counts: dict[str, int], results: list[MatchupResult]) -> Section:
    matrix = win_matrix(list(counts), results)
    return Section(
        basis=basis,
        counts=counts,
        matrix=matrix,
        strengths=bradley_terry(matrix),
        results=results,
    )
