"""Plots: files are written, non-empty, and show what their titles say."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import AxesImage

from dogfight.core.errors import DogfightError
from dogfight.sim.plots import (
    heatmap,
    heatmap_figure,
    odds_figure,
    odds_plot,
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


def test_turns_histogram_bars_count_battles_per_turn() -> None:
    turns = [3, 5, 5, 8, 8, 8]
    figure = turns_histogram_figure(turns, "Turns")
    axes = figure.axes[0]
    heights = [p.get_height() for p in axes.patches]
    assert heights == [1, 0, 2, 0, 0, 3]  # turns 3 to 8
    assert sum(heights) == len(turns)
    assert axes.get_title() == "Turns"


def test_turns_histogram_takes_counted_turns() -> None:
    figure = turns_histogram_figure({8: 3, 3: 1, 5: 2}, "Counted")
    assert [p.get_height() for p in figure.axes[0].patches] == [1, 0, 2, 0, 0, 3]


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
        odds_plot({"win": 0.4, "tie": 0.2, "loss": 0.4}, "Odds title", tmp_path / f"o{suffix}"),
    ]
    for path, title in zip(paths, ["Heatmap", "Histogram", "Odds"], strict=True):
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
