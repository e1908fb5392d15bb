"""Plots: files are written, non-empty, and show what their titles say."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import AxesImage

from dogfight.core.errors import DogfightError
from dogfight.sim.plots import (
    Rate,
    by_rating,
    heatmap,
    heatmap_figure,
    odds_figure,
    odds_plot,
    simulation_figure,
    simulation_plot,
    turns_histogram,
    turns_histogram_figure,
)

NAMES = ["wasp", "zul", "zaresh"]
MATRIX = [[None, 0.25, 0.6], [0.75, None, 0.9], [0.4, 0.1, None]]


def test_heatmap_has_one_cell_per_pair_with_its_rate() -> None:
    figure = heatmap_figure(MATRIX, NAMES, "Round robin")
    axes = figure.axes[0]
    assert axes.get_title() == "Round robin"
    (image,) = [a for a in axes.get_children() if isinstance(a, AxesImage)]
    data = np.ma.filled(image.get_array(), np.nan)
    assert data.shape == (3, 3)
    assert np.isnan(data[0, 0]) and data[1, 2] == pytest.approx(0.9)
    labels = sorted(t.get_text() for t in axes.texts)
    assert labels == sorted(["25", "60", "75", "90", "40", "10"])
    assert [t.get_text() for t in axes.get_yticklabels()] == NAMES


def test_heatmap_rows_and_columns_run_by_rating() -> None:
    ratings = {"wasp": 1450.0, "zul": 1620.0, "zaresh": 1430.0}
    figure = heatmap_figure(MATRIX, NAMES, "Ranked", ratings)
    axes = figure.axes[0]
    rows = [t.get_text() for t in axes.get_yticklabels()]
    assert rows == ["zul (1620)", "wasp (1450)", "zaresh (1430)"]
    assert [t.get_text() for t in axes.get_xticklabels()] == ["zul", "wasp", "zaresh"]
    (image,) = [a for a in axes.get_children() if isinstance(a, AxesImage)]
    data = np.ma.filled(image.get_array(), np.nan)
    # zul's row: against wasp 0.75, against zaresh 0.9; the diagonal stays empty.
    assert data[0, 1] == pytest.approx(0.75) and data[0, 2] == pytest.approx(0.9)
    assert all(np.isnan(data[i, i]) for i in range(3))
    matrix, names = by_rating(MATRIX, NAMES, ratings)
    assert names == ["zul", "wasp", "zaresh"]
    assert matrix[1] == [0.25, None, 0.6]


def test_turns_histogram_bars_count_battles_per_turn() -> None:
    turns = [3, 5, 5, 8, 8, 8]
    figure = turns_histogram_figure(turns, "Turns")
    axes = figure.axes[0]
    heights = [p.get_height() for p in axes.patches]
    assert heights == [0, 0, 1, 0, 2, 0, 0, 3]  # turns 1 to 8, one whole turn a bar
    assert [t.get_text() for t in axes.get_xticklabels()] == [str(t) for t in range(1, 9)]
    assert sum(heights) == len(turns)
    assert axes.get_title() == "Turns"
    assert axes.get_yscale() == "linear"
    labels = [t.get_text() for t in axes.texts]
    assert "3\n50%" in labels and "1\n17%" in labels


def test_turns_histogram_takes_counted_turns() -> None:
    figure = turns_histogram_figure({8: 3, 3: 1, 5: 2}, "Counted")
    assert [p.get_height() for p in figure.axes[0].patches] == [0, 0, 1, 0, 2, 0, 0, 3]


def test_turns_histogram_of_a_turn_limit_furball_stays_readable() -> None:
    # 196 of 200 battles run to the turn limit: the few early endings still show.
    figure = turns_histogram_figure({8: 196, 6: 3, 5: 1}, "Furball")
    axes = figure.axes[0]
    assert axes.get_yscale() == "log"
    assert [p.get_height() for p in axes.patches] == [0, 0, 0, 0, 1, 3, 0, 196]
    labels = [t.get_text() for t in axes.texts]
    assert "196\n98%" in labels and "1\n<1%" in labels


def test_simulation_figure_shows_win_rates_with_intervals_and_turns() -> None:
    rates = [
        Rate("Empire", 0.275, 0.218, 0.341),
        Rate("Klingon", 0.585, 0.516, 0.651),
        Rate("draw", 0.14, 0.099, 0.195),
    ]
    figure = simulation_figure(rates, {8: 196, 6: 4}, "Furball: 200 battles")
    left, right = figure.axes
    placed = {
        t.get_text(): y for t, y in zip(left.get_yticklabels(), left.get_yticks(), strict=True)
    }
    assert placed == {"Empire": 2, "Klingon": 1, "draw": 0}  # the first on top
    assert sorted(p.get_width() for p in left.patches) == pytest.approx([14.0, 27.5, 58.5])
    texts = [t.get_text() for t in left.texts]
    assert "58.5% (51.6-65.1)" in texts and "27.5% (21.8-34.1)" in texts
    (errors,) = [c for c in left.containers if hasattr(c, "has_xerr") and c.has_xerr]
    segments = errors.lines[2][0].get_segments()
    spans = sorted((round(s[0][0], 1), round(s[1][0], 1)) for s in segments)
    assert spans == [(9.9, 19.5), (21.8, 34.1), (51.6, 65.1)]
    assert [p.get_height() for p in right.patches][-1] == 196
    assert figure.get_suptitle() == "Furball: 200 battles"


def test_odds_bars_are_the_probabilities() -> None:
    odds = {0: 0.5, 1: 0.3, 2: 0.2}
    figure = odds_figure(odds, "Damage", "damage points")
    axes = figure.axes[0]
    assert [p.get_height() for p in axes.patches] == pytest.approx([0.5, 0.3, 0.2])
    assert [t.get_text() for t in axes.get_xticklabels()] == ["0", "1", "2"]
    assert axes.get_xlabel() == "damage points"


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_files_are_written_and_carry_the_title(tmp_path: Path, suffix: str) -> None:
    paths = [
        heatmap(MATRIX, NAMES, "Heatmap title", tmp_path / f"h{suffix}"),
        turns_histogram([1, 2, 2], "Histogram title", tmp_path / f"t{suffix}"),
        simulation_plot([Rate("A", 0.5, 0.4, 0.6)], [1, 2], "Sim title", tmp_path / f"s{suffix}"),
        odds_plot({"win": 0.4, "tie": 0.2, "loss": 0.4}, "Odds title", tmp_path / f"o{suffix}"),
    ]
    for path, title in zip(paths, ["Heatmap", "Histogram", "Sim", "Odds"], strict=True):
        data = path.read_bytes()
        assert len(data) > 1000
        if suffix == ".png":
            assert data.startswith(b"\x89PNG")
        else:
            assert f"{title} title".encode() in data


def test_other_formats_are_refused_before_drawing(tmp_path: Path) -> None:
    with pytest.raises(DogfightError, match=r"\.png or \.svg, not '\.pdf'"):
        heatmap(MATRIX, NAMES, "x", tmp_path / "h.pdf")
    assert not (tmp_path / "h.pdf").exists()
    with pytest.raises(DogfightError, match="no such folder"):
        odds_plot({1: 1.0}, "x", tmp_path / "missing" / "o.png")
