"""Plots for the lab: a win-rate heatmap, a turns histogram, an odds bar chart.

Each plot has a builder that returns the matplotlib Figure (so tests can look at its
axes, cells and bars) and `save`, which writes PNG or SVG by the file's extension.
matplotlib runs on the Agg backend: no display is needed or opened.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # before pyplot is imported: files only, never a window

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

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


def heatmap_figure(
    matrix: Sequence[Sequence[float | None]], names: Sequence[str], title: str
) -> Figure:
    """Rates of row against column (0 to 1) as coloured cells with their percentages.

    Cells with no value (the diagonal, pairs that never met) are left blank.
    """
    size = len(names)
    values = np.array(
        [[np.nan if v is None else float(v) for v in row] for row in matrix], dtype=float
    )
    if values.shape != (size, size):
        raise ValueError(f"a {size} x {size} matrix is needed, not {values.shape}")
    side = max(4.0, 0.9 * size + 2)
    figure, axes = plt.subplots(figsize=(side + 1.5, side))
    image = axes.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=0, vmax=1)
    axes.set_xticks(range(size), labels=list(names), rotation=45, ha="right")
    axes.set_yticks(range(size), labels=list(names))
    axes.set_xlabel("against (column)")
    axes.set_ylabel("row unit type")
    for i in range(size):
        for j in range(size):
            if not np.isnan(values[i, j]):
                colour = "white" if abs(values[i, j] - 0.5) > 0.3 else "black"
                axes.text(j, i, f"{100 * values[i, j]:.0f}", ha="center", va="center", color=colour)
    figure.colorbar(image, ax=axes, label="row's score rate (draws count half)")
    axes.set_title(title)
    return figure


def turns_histogram_figure(turns: Sequence[int] | Mapping[int, int], title: str) -> Figure:
    """How many battles ended on each turn: one bar per turn from the first to the last.

    `turns` is the turn each battle ended on, or already counted (turn -> battles)."""
    counts = (
        Counter({int(t): int(c) for t, c in turns.items()})
        if isinstance(turns, Mapping)
        else Counter(int(t) for t in turns)
    )
    figure, axes = plt.subplots(figsize=(7, 4))
    if counts:
        xs = list(range(min(counts), max(counts) + 1))
        axes.bar(xs, [counts.get(x, 0) for x in xs], color="tab:blue")
        axes.set_xticks(xs)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # battles come whole
    axes.set_xlabel("turn the battle ended")
    axes.set_ylabel("battles")
    axes.set_title(title)
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
    matrix: Sequence[Sequence[float | None]], names: Sequence[str], title: str, path: Path
) -> Path:
    """Write the win-rate heatmap to `path` (.png or .svg)."""
    check_plot_path(path)
    return save(heatmap_figure(matrix, names, title), path)


def turns_histogram(turns: Sequence[int] | Mapping[int, int], title: str, path: Path) -> Path:
    """Write the turns histogram to `path` (.png or .svg), e.g. for `simulate --plot`."""
    check_plot_path(path)
    return save(turns_histogram_figure(turns, title), path)


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
