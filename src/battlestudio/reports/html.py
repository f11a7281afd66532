"""The game report as one HTML page: summary per side, map snapshots at chosen turns, the
charts, and the annotated highlights of the log.

``render_html`` is pure: it is handed the pictures already made (each as a reference the page
can load: a ``data:`` URI for a self-contained HTML file, a resource name for Qt's
``QTextDocument`` when printing a PDF), so it needs no Qt and is tested on text alone.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from collections.abc import Sequence

from battlestudio.analysis.highlights import Highlight


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side's line of the summary table (men at the start and at the end, men lost,
    command rolls passed, expected successes); ``lost`` is ``casualties`` plus the men lost
    with ``eliminated`` units, ``left`` the men of units that left the table alive, ``other``
    any other change (so ``men_start - men_end == lost + left + other``)."""

    name: str
    colour: str
    men_start: int
    men_end: int
    lost: int
    rolls: int
    passed: int
    expected: float
    casualties: int = 0
    eliminated: int = 0
    left: int = 0
    other: int = 0


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture on the page: ``title``, ``src`` (URI or resource name) or inline ``svg`` text,
    and a ``caption``."""

    title: str
    src: str = ""
    svg: str = ""
    caption: str = ""


@dataclass(frozen=True, slots=True)
class ReportParts:
    """Everything the report shows."""

    title: str
    subtitle: str
    facts: Sequence[tuple[str, str]]
    sides: Sequence[SideSummary]
    maps: Sequence[Picture]
    charts: Sequence[Picture]
    highlights: Sequence[Highlight]
    times: dict[int, str] = field(default_factory=dict)  # turn → game time "HH:MM"
    notes: Sequence[str] = ()


STYLE = """
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #1d1d1d; max-width: 1100px;
       margin: 24px auto; padding: 0 16px; line-height: 1.4; }
h1 { margin-bottom: 0; } .sub { color: #555; margin-top: 4px; }
h2 { border-bottom: 2px solid #c9b98f; padding-bottom: 3px; margin-top: 32px; }
table { border-collapse: collapse; margin: 8px 0; } td, th { padding: 4px 10px; border-bottom: 1px solid #ddd; }
th { text-align: left; background: #f4efe1; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 16px 0; } figure img, figure svg { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { color: #555; font-size: 90%; }
.hl { margin: 6px 0; } .hl b { color: #6a3a00; } .kind { font-size: 80%; color: #777; text-transform: uppercase; }
.swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid #333; margin-right: 6px; }
.note { color: #8a3a00; font-size: 90%; }
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _picture(p: Picture, width: int | None = None) -> str:
    w = f' width="{width}"' if width else ""
    body = p.svg if p.svg else f'<img src="{_e(p.src)}" alt="{_e(p.title)}"{w}>'
    cap = f"<figcaption>{_e(p.caption)}</figcaption>" if p.caption else ""
    return f"<figure><h3>{_e(p.title)}</h3>{body}{cap}</figure>"


def render_html(parts: ReportParts, image_width: int | None = None) -> str:
    """The report page (a complete HTML document, UTF-8)."""
    out = [
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{_e(parts.title)} — game report</title>'
        f"<style>{STYLE}</style></head><body>",
        f'<h1>{_e(parts.title)}</h1><p class="sub">{_e(parts.subtitle)}</p>',
    ]
    if parts.facts:
        out.append(
            "<table>" + "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in parts.facts) + "</table>"
        )
    out.append(
        "<h2>The sides</h2><table><tr><th>side</th><th>men at the start</th><th>men at the end</th>"
        "<th>men lost</th><th>left the table</th><th>command rolls passed</th><th>expected</th></tr>"
    )
    for s in parts.sides:
        how = f"{s.casualties:,} casualties, {s.eliminated:,} with eliminated units"
        out.append(
            f'<tr><td><span class="swatch" style="background:{_e(s.colour)}"></span>{_e(s.name)}</td>'
            f'<td class="n">{s.men_start:,}</td><td class="n">{s.men_end:,}</td>'
            f'<td class="n" title="{how}">{s.lost:,}</td><td class="n">{s.left:,}</td>'
            f'<td class="n">{s.passed} of {s.rolls}</td><td class="n">{s.expected:.2f}</td></tr>'
        )
    out.append("</table>")
    if parts.sides:
        lines = "; ".join(
            f"{_e(s.name)}: {s.casualties:,} casualties and {s.eliminated:,} with eliminated units"
            + (f", {s.other:+,} otherwise" if s.other else "")
            for s in parts.sides
        )
        out.append(
            '<p class="sub">Men lost are the casualties recorded and the men still in units when they were '
            "eliminated; men at the start − men at the end = men lost + men who left the table alive (routed "
            f"or retreated off it). {lines}.</p>"
        )
    for n in parts.notes:
        out.append(f'<p class="note">{_e(n)}</p>')
    if parts.highlights:
        out.append("<h2>Highlights</h2>")
        for h in parts.highlights:
            when = f"turn {h.turn}" + (f" ({parts.times[h.turn]})" if h.turn in parts.times else "")
            out.append(
                f'<div class="hl"><span class="kind">{_e(h.kind)}</span> · {_e(when)} · '
                f"<b>{_e(h.title)}</b> — {_e(h.text)}</div>"
            )
    if parts.maps:
        out.append("<h2>The map</h2>")
        out += [_picture(p, image_width) for p in parts.maps]
    if parts.charts:
        out.append("<h2>Charts</h2>")
        out += [_picture(p, image_width) for p in parts.charts]
    out.append('<p class="sub">Made with BattleStudio.</p></body></html>')
    return "\n".join(out)
