"""Charts of a recorded game, drawn with matplotlib (the Qt-free ``analysis`` gives the numbers).

Each ``*_chart`` function builds a ``Chart``: a matplotlib ``Figure`` (no pyplot, so it works
headless for reports) plus what makes it interactive — ``hover(x, y)`` gives the values under
the mouse in words, ``turn_at(x)`` the turn a click at data ``x`` means (None for charts whose
x axis is not turns). ``Chart.save`` writes PNG, SVG or PDF by the file's suffix. No Qt here:
the Analysis dock's ``ui.panels.analysis_panel.ChartView`` shows a chart in Qt (matplotlib's
QtAgg canvas) and the report (``ui.report``) embeds its SVG or PNG.

PySide6-Essentials has no QtCharts module (it ships in PySide6-Addons), and matplotlib exports
SVG and PDF natively, so it was preferred to drawing charts by hand.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable, Mapping, Sequence

from matplotlib.axes import Axes
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from battlestudio.analysis.command_time import CommandTimeResult
from battlestudio.analysis.losses import LossRow, losses_per_phase, losses_per_turn
from battlestudio.analysis.luck import LuckRow
from battlestudio.analysis.order_history import OrderSpan, spans_by_corps
from battlestudio.analysis.strength import StrengthPoint
from battlestudio.model.scenario import Scenario
from battlestudio.replay.game import GameLog

FORMATS = ("png", "svg", "pdf")
"""File types ``Chart.save`` writes."""

SPAN_COLOURS = {"pending": "#c9c9c9", "in force": "#4c8f4c", "failed": "#d0202a"}


@dataclass
class Chart:
    """A figure with its hover and click behaviour (see the module docstring)."""

    key: str
    title: str
    figure: Figure
    hover: Callable[[float, float], str] = lambda x, y: ""
    turn_at: Callable[[float], int | None] = lambda x: None
    turns: Sequence[int] = field(default_factory=tuple)

    def save(self, path: str | Path) -> Path:
        """Write the chart to ``path`` as PNG, SVG or PDF (by suffix).

        Raises
        ------
        ValueError
            for another suffix, naming the file.
        OSError
            when the file cannot be written.
        """
        out = Path(path)
        fmt = out.suffix.lower().lstrip(".")
        if fmt not in FORMATS:
            raise ValueError(f"{out}: charts export as {', '.join(FORMATS)}, not {out.suffix or 'no suffix'!r}")
        self.figure.savefig(out, format=fmt, dpi=150, bbox_inches="tight")
        return out

    def svg(self) -> str:
        """The chart as SVG text (for HTML reports)."""
        buf = io.StringIO()
        self.figure.savefig(buf, format="svg", bbox_inches="tight")
        text = buf.getvalue()
        return text[text.find("<svg") :]

    def png(self, dpi: int = 110) -> bytes:
        """The chart as PNG bytes."""
        buf = io.BytesIO()
        self.figure.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
        return buf.getvalue()


def _figure(title: str, size: tuple[float, float] = (7.5, 3.6)) -> tuple[Figure, Axes]:
    fig = Figure(figsize=size, layout="constrained")
    ax = fig.add_subplot()
    ax.set_title(title, fontsize=11, loc="left", fontweight="bold")
    ax.grid(True, alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)
    return fig, ax


def _turn_of(turns: Sequence[int]) -> Callable[[float], int | None]:
    def at(x: float) -> int | None:
        if not turns or x is None:
            return None
        t = min(turns, key=lambda v: abs(v - x))
        return t if abs(t - x) <= 0.5 else None

    return at


def strength_chart(
    points: Sequence[StrengthPoint],
    colours: Mapping[str, str],
    names: Mapping[str, str],
    what: str = "men",
    title: str = "Strength per side",
) -> Chart:
    """Lines of ``what`` (``men`` or ``figures``) per group over turns (turn 0 = deployment)."""
    fig, ax = _figure(title)
    series: dict[str, dict[int, int]] = {}
    side_of: dict[str, str] = {}
    for p in points:
        series.setdefault(p.group, {})[p.turn] = getattr(p, what)
        side_of[p.group] = p.side
    per_side: dict[str, list[str]] = {}
    for g in series:
        per_side.setdefault(side_of[g], []).append(g)
    markers = ("o", "s", "^", "D", "v", "P", "X", "*")
    for side, groups in per_side.items():
        base = to_rgb(colours.get(side, "#555555"))
        for k, g in enumerate(groups):
            mix = 0.6 * k / max(1, len(groups) - 1) if len(groups) > 1 else 0.0
            colour = tuple(c + (1 - c) * mix for c in base)
            vals = series[g]
            turns = sorted(vals)
            ax.plot(
                turns,
                [vals[t] for t in turns],
                "-",
                marker=markers[k % len(markers)],
                markersize=3,
                color=colour,
                label=names.get(g, g),
            )
    ax.set_xlabel("turn")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel(what)
    if len(series) > 4:
        ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    elif series:
        ax.legend(fontsize=8, frameon=False)
    all_turns = sorted({p.turn for p in points})

    def hover(x: float, y: float) -> str:
        t = _turn_of(all_turns)(x)
        if t is None:
            return ""
        vals = ", ".join(f"{names.get(g, g)} {v.get(t, 0):,}" for g, v in series.items())
        return f"turn {t}: {vals} {what}"

    return Chart("strength" if what == "men" else "strength-figures", title, fig, hover, _turn_of(all_turns), all_turns)


def losses_turn_chart(
    rows: Sequence[LossRow], colours: Mapping[str, str], names: Mapping[str, str], turns: Sequence[int]
) -> Chart:
    """Bars of men lost per turn, one bar per side side by side."""
    fig, ax = _figure("Losses per turn (men)")
    per = losses_per_turn(list(rows))
    sides = sorted({r.side for r in rows})
    width = 0.8 / max(1, len(sides))
    for i, side in enumerate(sides):
        xs = [t + (i - (len(sides) - 1) / 2) * width for t in turns]
        ax.bar(
            xs,
            [per.get(t, {}).get(side, 0) for t in turns],
            width,
            color=colours.get(side, "#777777"),
            label=names.get(side, side),
        )
    ax.set_xlabel("turn")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("men lost")
    if sides:
        ax.legend(fontsize=8, frameon=False)

    def hover(x: float, y: float) -> str:
        t = _turn_of(turns)(x)
        if t is None:
            return ""
        by_phase: dict[str, int] = {}
        for r in rows:
            if r.turn == t:
                by_phase[f"{names.get(r.side, r.side)} in {r.phase}"] = (
                    by_phase.get(f"{names.get(r.side, r.side)} in {r.phase}", 0) + r.men
                )
        parts = ", ".join(f"{k} {v:,}" for k, v in by_phase.items()) or "no losses"
        return f"turn {t}: {parts}"

    return Chart("losses-turn", "Losses per turn", fig, hover, _turn_of(turns), turns)


def losses_phase_chart(rows: Sequence[LossRow], colours: Mapping[str, str], names: Mapping[str, str]) -> Chart:
    """Horizontal bars of men lost per phase (summed over the game), stacked by side."""
    fig, ax = _figure("Losses per phase (men, whole game)", (7.5, 3.0))
    per = losses_per_phase(list(rows))
    phases = list(per)
    sides = sorted({r.side for r in rows})
    left = [0] * len(phases)
    for side in sides:
        vals = [per[p].get(side, 0) for p in phases]
        ax.barh(phases, vals, left=left, color=colours.get(side, "#777777"), label=names.get(side, side))
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.invert_yaxis()
    ax.set_xlabel("men lost")
    if sides:
        ax.legend(fontsize=8, frameon=False)

    def hover(x: float, y: float) -> str:
        i = round(y)
        if not 0 <= i < len(phases):
            return ""
        p = phases[i]
        return f"{p}: " + ", ".join(f"{names.get(s, s)} {v:,}" for s, v in per[p].items())

    return Chart("losses-phase", "Losses per phase", fig, hover)


def luck_chart(
    rows: Sequence[LuckRow],
    colours: Mapping[str, str],
    names: Mapping[str, str],
    title: str = "Command rolls: observed vs expected successes",
) -> Chart:
    """Per group, the expected successes (hatched, ±1 standard deviation) beside the observed."""
    fig, ax = _figure(title)
    labels = [names.get(r.group, r.group or "(no order)") for r in rows]
    xs = list(range(len(rows)))
    ax.bar(
        [x - 0.2 for x in xs],
        [float(r.expected) for r in rows],
        0.4,
        yerr=[r.sd for r in rows],
        color="white",
        edgecolor=[colours.get(r.side, "#555555") for r in rows],
        hatch="//",
        capsize=4,
        label="expected (±1 sd)",
    )
    ax.bar(
        [x + 0.2 for x in xs],
        [r.observed for r in rows],
        0.4,
        color=[colours.get(r.side, "#555555") for r in rows],
        label="observed",
    )
    ax.set_xticks(xs, labels, fontsize=8, rotation=20 if len(rows) > 4 else 0)
    ax.set_ylabel("successful rolls")
    ax.legend(fontsize=8, frameon=False)
    if not rows:
        ax.text(0.5, 0.5, "no command rolls recorded", transform=ax.transAxes, ha="center", color="#777777")

    def hover(x: float, y: float) -> str:
        i = round(x)
        if not 0 <= i < len(rows):
            return ""
        r = rows[i]
        return (
            f"{labels[i]}: {r.observed} of {r.rolls} rolls passed, {float(r.expected):.2f} expected "
            f"(luck {r.luck:+.2f}, {r.z:+.1f} sd)"
        )

    return Chart("luck", title, fig, hover)


def out_of_command_chart(
    result: CommandTimeResult, colours: Mapping[str, str], names: Mapping[str, str], top: int = 25
) -> Chart:
    """Horizontal bars: turns each formation spent out of command, the ``top`` longest first
    (only those that ever were out)."""
    everyone = sorted((r for r in result.rows if r.out or r.exempt), key=lambda r: (-len(r.out), -len(r.exempt)))
    rows = everyone[:top]
    more = f" — the {top} longest of {len(everyone)}" if len(everyone) > top else ""
    fig, ax = _figure(f"Time out of command (turns){more}", (7.5, max(2.4, 0.28 * len(rows) + 1.2)))
    labels = [f"{r.name} ({names.get(r.corps, r.corps)})" for r in rows]
    ax.barh(
        labels, [len(r.out) for r in rows], color=[colours.get(r.side, "#777777") for r in rows], label="out of command"
    )
    ax.barh(
        labels,
        [len(r.exempt) for r in rows],
        left=[len(r.out) for r in rows],
        color="#d08a00",
        label="outside but exempt",
    )
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=7)
    ax.set_xlabel("turns (checked at the end of every turn)")
    if result.refusal:
        ax.text(
            0.02,
            0.5,
            f"not computed: {result.refusal[:110]}…",
            transform=ax.transAxes,
            fontsize=7,
            color="#a00000",
            wrap=True,
        )
    elif not rows:
        ax.text(0.5, 0.5, "every formation stayed in command", transform=ax.transAxes, ha="center", color="#777777")
    else:
        ax.legend(fontsize=8, frameon=False)

    def hover(x: float, y: float) -> str:
        i = round(y)
        if not 0 <= i < len(rows):
            return ""
        r = rows[i]
        return f"{r.name}: out of command in turns {', '.join(map(str, r.out)) or 'none'}" + (
            f"; exempt in turns {', '.join(map(str, r.exempt))}" if r.exempt else ""
        )

    return Chart("out-of-command", "Time out of command", fig, hover)


TYPE_COLOURS = {"A": "#b0201a", "T": "#8a6a3a", "M": "#1f5fa0", "H": "#2f6f2f", "D": "#7a3fb0", "defence": "#6f9f6f"}
"""In-force colour per Torden over Europa order type (others dark grey)."""
TYPE_LABELS = {"A": "A attack", "T": "T retreat", "M": "M march", "H": "H hold", "D": "D detach", "defence": "defence"}


def _lanes(spans: Sequence[OrderSpan], end_of: Callable[[OrderSpan], float]) -> list[list[OrderSpan]]:
    """Spans packed into as few lanes as keep them from overlapping, in the order written."""
    lanes: list[list[OrderSpan]] = []
    for s in sorted(spans, key=lambda s: (s.written, s.written_at)):
        for lane in lanes:
            if end_of(lane[-1]) <= s.written:
                lane.append(s)
                break
        else:
            lanes.append([s])
    return lanes


def order_gantt_chart(spans: Sequence[OrderSpan], names: Mapping[str, str], last_turn: int) -> Chart:
    """One strip per corps (more lanes only where its orders overlap): grey while an order is
    written and pending, a red × for each failed command roll, coloured by type while in force,
    up to completion, cancellation or supersession."""

    def end_of(s: OrderSpan) -> float:
        return float(s.ended if s.ended is not None else last_turn + 1)

    rows: list[tuple[str, list[OrderSpan]]] = []
    for corps, ss in spans_by_corps(list(spans)).items():
        for k, lane in enumerate(_lanes(ss, end_of)):
            rows.append((names.get(corps, corps) if k == 0 else "", lane))
    fig, ax = _figure("Order history per corps", (7.5, max(2.4, 0.24 * len(rows) + 1.4)))
    for i, (_, lane) in enumerate(rows):
        for s in lane:
            got = float(s.delivered) if s.delivered is not None else end_of(s)
            if got > s.written:
                ax.broken_barh([(s.written, got - s.written)], (i - 0.38, 0.76), color=SPAN_COLOURS["pending"])
            if s.delivered is not None and end_of(s) > s.delivered:
                ax.broken_barh(
                    [(s.delivered, end_of(s) - s.delivered)],
                    (i - 0.38, 0.76),
                    color=TYPE_COLOURS.get(s.order_type, "#555555"),
                    edgecolor="white",
                    linewidth=0.5,
                )
                if end_of(s) - s.delivered >= 1.5:
                    ax.text(
                        s.delivered + 0.15,
                        i,
                        "def" if s.order_type == "defence" else s.order_type,
                        va="center",
                        fontsize=6,
                        color="white",
                    )
            for t in s.failed:
                ax.plot([t + 0.5], [i], marker="x", color=SPAN_COLOURS["failed"], markersize=4, linestyle="none")
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, last_turn + 1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("turn   (grey: written, pending · ×: failed roll · colour: in force, by type)")
    if rows:
        fig.legend(
            handles=[Patch(color=c, label=TYPE_LABELS.get(k, k)) for k, c in TYPE_COLOURS.items()],
            fontsize=7,
            frameon=False,
            ncols=6,
            loc="outside lower center",
        )
    else:
        ax.text(0.5, 0.5, "no orders recorded", transform=ax.transAxes, ha="center", color="#777777")
    turns = list(range(0, last_turn + 1))

    def hover(x: float, y: float) -> str:
        i = round(y)
        if x is None or not 0 <= i < len(rows):
            return ""
        here = [s for s in rows[i][1] if s.written <= x < end_of(s)]
        if not here:
            return ""
        s = here[0]
        to = names.get(s.recipient, s.recipient)
        parts = [f"{s.order_type} order {s.order_id} to {to}, written turn {s.written}"]
        if s.failed:
            parts.append(f"failed in turn(s) {', '.join(map(str, s.failed))}")
        parts.append(f"delivered turn {s.delivered}" if s.delivered is not None else "never delivered")
        if s.end:
            parts.append(f"{s.end} turn {s.ended}")
        return "; ".join(parts)

    return Chart("orders", "Order history per corps", fig, hover, lambda x: max(0, min(last_turn, int(x))), turns)


def game_charts(log: GameLog, scenario: Scenario, params: Mapping[str, Any] | None = None) -> list[Chart]:
    """Every chart of a recorded game: strength per side and per corps, losses per turn and per
    phase, luck per side and per chief, time out of command, order history.

    ``log`` is the game's ``GameLog``, ``scenario`` its ``Scenario`` (side colours and names,
    ruleset id and parameters; ``params`` overrides the parameters).
    """
    from battlestudio.analysis import (
        command_luck,
        losses_by_turn_and_phase,
        order_history,
        out_of_command_time,
        strength_over_turns,
    )
    from battlestudio.analysis.command_time import CommandTimeResult
    from battlestudio.analysis.common import turn_end_positions
    from battlestudio.rules import RuleRefused, get_ruleset

    params = scenario.info.parameters if params is None else params
    colours = {sid: s.colour for sid, s in scenario.sides.items()}
    names: dict[str, str] = {sid: s.name for sid, s in scenario.sides.items()}
    names.update({cid: c.name for cid, c in scenario.commanders.items() if c.name})
    names.update({uid: u.name for uid, u in scenario.units.items() if u.name})
    turns = [t for t, _ in turn_end_positions(log)][1:]
    losses = losses_by_turn_and_phase(log)
    try:
        oc = out_of_command_time(log, get_ruleset(scenario.info.ruleset), params)
    except RuleRefused as exc:
        oc = CommandTimeResult((), str(exc))
    return [
        strength_chart(strength_over_turns(log), colours, names),
        _keyed(
            strength_chart(strength_over_turns(log, by="corps"), colours, names, title="Strength per corps"),
            "strength-corps",
        ),
        losses_turn_chart(losses, colours, names, turns),
        losses_phase_chart(losses, colours, names),
        luck_chart(command_luck(log), colours, names),
        _keyed(
            luck_chart(command_luck(log, by="chief"), colours, names, title="Command rolls per chief"), "luck-chief"
        ),
        out_of_command_chart(oc, colours, names),
        order_gantt_chart(order_history(log), names, max(turns, default=0)),
    ]


def _keyed(chart: Chart, key: str) -> Chart:
    chart.key = key
    return chart
