"""The playtest report as one self-contained HTML file: tables, and plots inline as SVG
(no script, no network, no file beside it)."""

from __future__ import annotations

import datetime
import io
from html import escape
from typing import Any

from dogfight.sim.report import FDR, Report, RulePart, ScenarioPart, interval_text

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 70rem; margin: 2rem auto;
       padding: 0 1rem; color: #1b1f24; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccd; }
table { border-collapse: collapse; margin: .6rem 0 1rem; }
th, td { border: 1px solid #d4d8de; padding: .25rem .5rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #eef1f5; }
.verdict { font-weight: 600; background: #f4f7fb; border-left: 4px solid #3b6fb6;
           padding: .5rem .8rem; }
.note { color: #555; } .plot svg { max-width: 100%; height: auto; }
.moved { background: #fff4d6; }
"""


def render(report: Report) -> str:
    """The whole report page."""
    plan = report.plan
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Playtest report: {escape(plan.ruleset)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Playtest report: {escape(plan.ruleset)}</h1>",
        _summary(report),
    ]
    if "units" in plan.sections:
        parts.append(_units(report))
    if "scenarios" in plan.sections:
        parts.append(_scenarios(report))
    if "rules" in plan.sections:
        parts.append(_rules(report))
    parts.append(_what_was_run(report))
    parts.append("</body></html>")
    return "\n".join(parts)


def _summary(report: Report) -> str:
    lines = [f"<li>{escape(text)}</li>" for text in report.verdicts.values()]
    quick = (
        '<p class="note">A <b>quick</b> report: few battles, so the intervals are wide; '
        "run it without --quick for figures to rely on.</p>"
        if report.plan.quick
        else ""
    )
    return f'<section id="summary"><h2>In short</h2><ul>{"".join(lines)}</ul>{quick}</section>'


def _verdict(report: Report, section: str) -> str:
    text = report.verdicts.get(section)
    return f'<p class="verdict">{escape(text)}</p>' if text else ""


def _table(head: list[str], rows: list[list[Any]], row_class: list[str] | None = None) -> str:
    cells = "".join(f"<th>{escape(str(h))}</th>" for h in head)
    body = []
    for i, row in enumerate(rows):
        cls = f' class="{row_class[i]}"' if row_class and row_class[i] else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>")
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _svg(figure: Any) -> str:
    import matplotlib.pyplot as plt

    buffer = io.StringIO()
    try:
        figure.savefig(buffer, format="svg", bbox_inches="tight")
    finally:
        plt.close(figure)
    text = buffer.getvalue()
    return f'<div class="plot">{text[text.find("<svg") :]}</div>'


def _units(report: Report) -> str:
    out = ['<section id="units"><h2>Units</h2>', _verdict(report, "units")]
    balance = report.units
    if balance is None:
        out.append('<p class="note">Fewer than two unit types: no round robin.</p></section>')
        return "".join(out)
    from dogfight.sim.plots import heatmap_figure

    for section in (balance.equal_numbers, balance.equal_points):
        if section is None:
            continue
        ranked = sorted(section.strengths, key=lambda s: -s.rating)
        out.append(f"<h3>{escape(section.basis.capitalize())}</h3>")
        out.append(
            _table(
                ["unit", "count a side", "rating", "95% interval"],
                [
                    [
                        s.unit,
                        section.counts.get(s.unit, ""),
                        f"{s.rating:.0f}",
                        _rating_range(s.rating, s.rating_se),
                    ]
                    for s in ranked
                ],
            )
        )
        names = [s.unit for s in ranked]
        index = {n: i for i, n in enumerate(section.matrix.names)}
        rates = [
            [section.matrix.rate(index[a], index[b]) if a != b else None for b in names]
            for a in names
        ]
        title = f"{section.basis}: row's score against column (sorted by rating)"
        out.append(_svg(heatmap_figure(rates, names, title)))
    if balance.suggestions:
        out.append("<h3>Suggested points</h3>")
        out.append(
            _table(
                ["unit", "points", "suggested"],
                [
                    [s.unit, s.points if s.points is not None else "-", s.suggested]
                    for s in balance.suggestions
                ],
            )
        )
    if balance.dominated:
        out.append("<h3>Dominated designs</h3>")
        out.append(
            _table(
                ["unit", "dominated by", "head to head"],
                [[d.unit, d.by, f"{100 * d.head_to_head:.0f}%"] for d in balance.dominated],
            )
        )
    out.append("</section>")
    return "".join(out)


def _rating_range(rating: float, se: float) -> str:
    return f"{rating - 1.96 * se:.0f} to {rating + 1.96 * se:.0f}"


def _scenarios(report: Report) -> str:
    out = ['<section id="scenarios"><h2>Scenarios</h2>', _verdict(report, "scenarios")]
    rows = []
    for part in report.scenarios:
        for side in part.sides:
            rows.append(
                [
                    part.scenario,
                    side,
                    interval_text(part.as_written[side]),
                    interval_text(part.swapped[side]),
                    part.verdict if side == part.sides[0] else "",
                ]
            )
    out.append(_table(["scenario", "side", "wins as written", "wins swapped", "verdict"], rows))
    if report.scenarios:
        out.append(_svg(_scenario_figure(report.scenarios)))
    out.append("</section>")
    return "".join(out)


def _scenario_figure(parts: list[ScenarioPart]) -> Any:
    import matplotlib.pyplot as plt

    labels, rates, lows, highs, colours = [], [], [], [], []
    for part in parts:
        for side in part.sides:
            for key, colour in (("as_written", "#3b6fb6"), ("swapped", "#d9822b")):
                value = getattr(part, key)[side]
                labels.append(f"{part.scenario}: {side} ({key.replace('_', ' ')})")
                rates.append(100 * value.rate)
                lows.append(100 * (value.rate - value.low))
                highs.append(100 * (value.high - value.rate))
                colours.append(colour)
    figure, axes = plt.subplots(figsize=(8, 0.32 * len(labels) + 1.2))
    y = list(range(len(labels)))
    axes.barh(y, rates, xerr=[lows, highs], color=colours, capsize=3)
    axes.set_yticks(y, labels=labels)
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.axvline(50, color="#888", linewidth=0.8)
    axes.set_xlabel("win rate, % (95% interval)")
    axes.set_title("Each side's wins, as written and with the sides swapped")
    return figure


def _rules(report: Report) -> str:
    out = ['<section id="rules"><h2>Rules</h2>', _verdict(report, "rules")]
    out.append(
        '<p class="note">Each option value against the default, on the same seeds; the '
        "change in the win rate of the side that moved most, McNemar's exact paired test, "
        f"and its q-value over every test here (false discovery rate {FDR:.0%}).</p>"
    )
    rows, classes = [], []
    for part in report.rules:
        rows.append(_rule_row(part))
        classes.append("moved" if part.q_value < FDR else "")
    out.append(
        _table(
            [
                "option",
                "value",
                "scenario",
                "side",
                "change",
                "95% interval",
                "p",
                "q",
                "battles changed",
            ],
            rows,
            classes,
        )
    )
    if report.no_effect:
        out.append(
            "<p>These never changed a single battle (no measurable effect): "
            + escape(", ".join(report.no_effect))
            + "</p>"
        )
    moved = [p for p in report.rules if p.changed][:20]
    if moved:
        out.append(_svg(_rules_figure(moved)))
    if report.plan.skipped:
        out.append('<p class="note">Not swept: ' + escape("; ".join(report.plan.skipped)) + "</p>")
    out.append("</section>")
    return "".join(out)


def _rule_row(part: RulePart) -> list[Any]:
    lead = max(part.comparison.sides, key=lambda c: abs(c.difference))
    return [
        part.option,
        part.value,
        part.scenario,
        lead.side,
        f"{100 * lead.difference:+.1f}",
        f"{100 * lead.low:+.0f} to {100 * lead.high:+.0f}",
        f"{part.p_value:.3g}",
        f"{part.q_value:.3g}",
        f"{part.changed} of {part.comparison.battles}",
    ]


def _rules_figure(parts: list[RulePart]) -> Any:
    import matplotlib.pyplot as plt

    labels, values, lows, highs = [], [], [], []
    for part in parts:
        lead = max(part.comparison.sides, key=lambda c: abs(c.difference))
        labels.append(f"{part.option}={part.value} ({part.scenario}, {lead.side})")
        values.append(100 * lead.difference)
        lows.append(100 * (lead.difference - lead.low))
        highs.append(100 * (lead.high - lead.difference))
    figure, axes = plt.subplots(figsize=(8, 0.32 * len(labels) + 1.2))
    y = list(range(len(labels)))
    axes.barh(y, values, xerr=[lows, highs], color="#3b6fb6", capsize=3)
    axes.set_yticks(y, labels=labels)
    axes.invert_yaxis()
    axes.axvline(0, color="#888", linewidth=0.8)
    axes.set_xlabel("change in win rate, points (95% interval)")
    axes.set_title("Rule changes ranked by effect")
    return figure


def _what_was_run(report: Report) -> str:
    plan = report.plan
    rows: list[list[Any]] = [
        ["dogfight version", report.version],
        ["ruleset", plan.ruleset],
        ["players (both sides)", plan.players],
        ["seed", plan.seed],
        [
            "battles per pairing / orientation / arm",
            f"{plan.battles['units']} / {plan.battles['scenarios']} / {plan.battles['rules']}",
        ],
        ["scenarios", ", ".join(plan.scenarios)],
        ["battles played", report.battles_played],
        ["wall time", f"{report.wall_seconds:.0f} s"],
        ["made", datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")],
        ["to rerun", report.command],
    ]
    return f'<section id="run"><h2>What was run</h2>{_table(["", ""], rows)}</section>'
