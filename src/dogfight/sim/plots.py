"""Plots for the lab: a win-rate heatmap, a simulation's win rates and turns, a turns
histogram, an odds bar chart.

Each plot has a builder that returns the matplotlib Figure (so tests can look at its
axes, cells and bars) and `save`, which writes PNG or SVG by the file's extension.
matplotlib runs on the Agg backend: no display is needed or opened.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import matplotlib

matplotlib.use("Agg")  # before pyplot is imported: files only, never a window

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, ScalarFormatter

from dogfight.core.errors import DogfightError
from dogfight.core.files import check_writable

FORMATS = (".png", ".svg")
"""File extensions `save` writes."""


def check_plot_path(path: Path) -> None:
    """Refuse a plot file name whose extension is not .png or .svg, or whose folder
    does not exist (before any work: found after a run, it would cost the run)."""
    if path.suffix.lower() not in FORMATS:
        raise DogfightError(
            f"--plot {path}: the file name must end in .png or .svg, "
            f"not {path.suffix or '(none)'!r}"
        )
    check_writable(path, "--plot")


def save(figure: Figure, path: Path) -> Path:
    """Write the figure as PNG or SVG (by `path`'s extension) and close it."""
    check_plot_path(path)
    try:
        # SVG text stays text (searchable, smaller) rather than drawn outlines.
        with matplotlib.rc_context({"svg.fonttype": "none"}):
            figure.savefig(path, format=path.suffix.lower().lstrip("."), bbox_inches="tight")
    except OSError as exc:
        raise DogfightError(f"{path}: cannot write ({exc.strerror or exc})") from None
    finally:
        plt.close(figure)
    return path


def by_rating(
    matrix: Sequence[Sequence[float | None]], names: Sequence[str], ratings: Mapping[str, float]
) -> tuple[list[list[float | None]], list[str]]:
    """The matrix with its rows and columns in the same order, highest rating first
    (ties by name), and the names in that order."""
    order = sorted(range(len(names)), key=lambda i: (-ratings.get(names[i], 0.0), names[i]))
    return [[matrix[i][j] for j in order] for i in order], [names[i] for i in order]


def heatmap_figure(
    matrix: Sequence[Sequence[float | None]],
    names: Sequence[str],
    title: str,
    ratings: Mapping[str, float] | None = None,
) -> Figure:
    """Rates of row against column (0 to 1) as coloured cells with their percentages.

    Cells with no value (the diagonal, pairs that never met) are left blank. With
    `ratings` (unit -> rating) the rows and columns run from the highest rating down
    (`by_rating`) and each row says its rating, so the strongest sit top left.
    """
    size = len(names)
    if ratings is not None:
        matrix, names = by_rating(matrix, names, ratings)
    values = np.array(
        [[np.nan if v is None else float(v) for v in row] for row in matrix], dtype=float
    )
    if values.shape != (size, size):
        raise ValueError(f"a {size} x {size} matrix is needed, not {values.shape}")
    side = max(4.0, 0.9 * size + 2)
    figure, axes = plt.subplots(figsize=(side + 1.5, side))
    image = axes.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=0, vmax=1)
    axes.set_xticks(range(size), labels=list(names), rotation=45, ha="right")
    rows = [f"{n} ({ratings[n]:.0f})" if ratings and n in ratings else n for n in names]
    axes.set_yticks(range(size), labels=rows)
    axes.set_xlabel("against (column)")
    axes.set_ylabel("row unit type (rating), strongest first" if ratings else "row unit type")
    for i in range(size):
        for j in range(size):
            if not np.isnan(values[i, j]):
                colour = "white" if abs(values[i, j] - 0.5) > 0.3 else "black"
                axes.text(j, i, f"{100 * values[i, j]:.0f}", ha="center", va="center", color=colour)
    figure.colorbar(image, ax=axes, label="row's score rate (draws count half)")
    axes.set_title(title)
    return figure


SKEWED = 20
"""A turns histogram whose tallest bar is this many times its shortest (a furball
where nearly every battle runs to the turn limit) gets a log scale, so the few
battles that ended early still show as bars."""


def _counted(turns: Sequence[int] | Mapping[int, int]) -> Counter[int]:
    if isinstance(turns, Mapping):
        return Counter({int(t): int(c) for t, c in turns.items()})
    return Counter(int(t) for t in turns)


def _share(part: int, total: int) -> str:
    share = 100 * part / total
    return f"{share:.0f}%" if share >= 1 else "<1%"


def draw_turns(axes: Axes, turns: Sequence[int] | Mapping[int, int]) -> None:
    """One bar per turn from turn 1 (or an earlier one) to the last (whole turns, no
    bins that merge them), each labelled with its battles and their share; a log scale
    when skewed. Starting at turn 1 shows at a glance that every battle ran to the end."""
    counts = _counted(turns)
    if counts:
        xs = list(range(min(1, *counts), max(counts) + 1))
        heights = [counts.get(x, 0) for x in xs]
        total = sum(heights)
        bars = axes.bar(xs, heights, width=0.8, color="tab:blue")
        labels = [f"{h}\n{_share(h, total)}" if h else "" for h in heights]
        axes.bar_label(bars, labels=labels, fontsize=8)
        if len(xs) <= 30:
            axes.set_xticks(xs)
        else:
            axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        present = [h for h in heights if h]
        if max(present) >= SKEWED * min(present):
            axes.set_yscale("log")
            axes.yaxis.set_major_formatter(ScalarFormatter())  # 1, 10, 100: not 10^2
            axes.set_ylim(0.5, max(present) * 4)
            axes.set_ylabel("battles (log scale)")
        else:
            axes.set_ylim(0, max(present) * 1.25)
            axes.set_ylabel("battles")
    else:
        axes.set_ylabel("battles")
    if axes.get_yscale() != "log":
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # battles come whole
    axes.set_xlabel("turn the battle ended")


def turns_histogram_figure(turns: Sequence[int] | Mapping[int, int], title: str) -> Figure:
    """How many battles ended on each turn (`draw_turns`).

    `turns` is the turn each battle ended on, or already counted (turn -> battles)."""
    figure, axes = plt.subplots(figsize=(7, 4))
    draw_turns(axes, turns)
    axes.set_title(title)
    return figure


class Rate(NamedTuple):
    """A result's share of the battles with its 95% interval, for `simulation_figure`."""

    label: str
    rate: float
    low: float
    high: float


def draw_rates(axes: Axes, rates: Sequence[Rate]) -> None:
    """Horizontal bars of each result's rate (0 to 100%), with its 95% interval as an
    error bar and written beside it, the first result on top."""
    ys = list(range(len(rates)))[::-1]
    values = [100 * r.rate for r in rates]
    below = [100 * max(0.0, r.rate - r.low) for r in rates]
    above = [100 * max(0.0, r.high - r.rate) for r in rates]
    colours = [f"C{i}" for i in range(len(rates))]
    axes.barh(ys, values, xerr=[below, above], color=colours, capsize=4, height=0.6)
    for y, r in zip(ys, rates, strict=True):
        text = f"{100 * r.rate:.1f}% ({100 * r.low:.1f}-{100 * r.high:.1f})"
        axes.text(min(100 * r.high + 2, 101), y, text, va="center", fontsize=8)
    axes.set_yticks(ys, labels=[r.label for r in rates])
    axes.set_xlim(0, 130)
    axes.set_xticks(range(0, 101, 25))
    axes.set_xlabel("share of battles, % (bar: 95% interval, Wilson)")


def simulation_figure(
    rates: Sequence[Rate], turns: Sequence[int] | Mapping[int, int], title: str
) -> Figure:
    """A simulation at a glance: each side's win rate (and the draws) with its 95%
    interval beside the histogram of the turn each battle ended."""
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(12, max(3.5, 0.6 * len(rates) + 2)), width_ratios=[1, 1.2]
    )
    draw_rates(left, rates)
    left.set_title("who wins")
    draw_turns(right, turns)
    right.set_title("turn each battle ended")
    figure.suptitle(title)
    figure.tight_layout()
    return figure


def odds_figure(
    distribution: Mapping[str | int, float], title: str, xlabel: str = "outcome"
) -> Figure:
    """An exact distribution as bars: one per outcome, its height the probability."""
    labels = [str(k) for k in distribution]
    heights = [float(p) for p in distribution.values()]
    figure, axes = plt.subplots(figsize=(max(5.0, 0.6 * len(labels) + 2), 4))
    bars = axes.bar(range(len(labels)), heights, color="tab:green")
    axes.set_xticks(range(len(labels)), labels=labels)
    axes.bar_label(bars, labels=[f"{100 * h:.1f}%" for h in heights], fontsize=8)
    axes.set_ylim(0, max([*heights, 0.01]) * 1.15)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("probability")
    axes.set_title(title)
    return figure


def heatmap(
    matrix: Sequence[Sequence[float | None]],
    names: Sequence[str],
    title: str,
    path: Path,
    ratings: Mapping[str, float] | None = None,
) -> Path:
    """Write the win-rate heatmap to `path` (.png or .svg), rows by rating if given."""
    check_plot_path(path)
    return save(heatmap_figure(matrix, names, title, ratings), path)


def turns_histogram(turns: Sequence[int] | Mapping[int, int], title: str, path: Path) -> Path:
    """Write the turns histogram to `path` (.png or .svg), e.g. for `simulate --plot`."""
    check_plot_path(path)
    return save(turns_histogram_figure(turns, title), path)


def simulation_plot(
    rates: Sequence[Rate], turns: Sequence[int] | Mapping[int, int], title: str, path: Path
) -> Path:
    """Write `simulation_figure` to `path` (.png or .svg), for `simulate --plot`."""
    check_plot_path(path)
    return save(simulation_figure(rates, turns, title), path)


def odds_plot(
    distribution: Mapping[str | int, float], title: str, path: Path, xlabel: str = "outcome"
) -> Path:
    """Write an odds distribution's bar chart to `path` (.png or .svg)."""
    check_plot_path(path)
    return save(odds_figure(distribution, title, xlabel), path)


def ratings_figure(
    names: Sequence[str],
    ratings: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    title: str,
) -> Figure:
    """Ratings as points with their intervals, one row per name, the first at the top."""
    size = len(names)
    figure, axes = plt.subplots(figsize=(7, max(2.5, 0.6 * size + 1.5)))
    ys = list(range(size))[::-1]
    errors = [
        [r - lo for r, lo in zip(ratings, lows, strict=True)],
        [hi - r for r, hi in zip(ratings, highs, strict=True)],
    ]
    axes.errorbar(ratings, ys, xerr=errors, fmt="o", color="tab:blue", capsize=4)
    axes.set_yticks(ys, labels=list(names))
    axes.axvline(1500, color="grey", linewidth=0.8, linestyle=":")
    axes.set_xlabel("rating (1500: the field's average; bars: 95% interval)")
    axes.set_title(title)
    return figure


def ratings_plot(
    names: Sequence[str],
    ratings: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    title: str,
    path: Path,
) -> Path:
    """Write the ratings chart (e.g. `dogfight ladder --plot`) to `path` (.png or .svg)."""
    check_plot_path(path)
    return save(ratings_figure(names, ratings, lows, highs, title), path)
