"""Write a game report: HTML (self-contained: charts as inline SVG, map snapshots as embedded
PNG) or PDF (the same page printed through ``QTextDocument`` on a ``QPdfWriter``).

Gathers the numbers from ``battlestudio.analysis``, the charts from ``reports.charts``, map
snapshots with the command overlay from ``ui.map_export`` at the chosen turns (default: the
deployment, the middle turn and the last), and the highlights of the log, then renders the
page with ``reports.html``.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from collections.abc import Sequence

from battlestudio.analysis import highlights
from battlestudio.analysis.common import turn_end_positions
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.reports.html import Picture, ReportParts, render_html
from battlestudio.reports.sides import side_summaries

FORMATS = ("html", "htm", "pdf")


def default_turns(log: GameLog) -> list[int]:
    """Deployment, middle turn and last turn (fewer when the game is short)."""
    turns = [t for t, _ in turn_end_positions(log)]
    last = turns[-1]
    return sorted({0, last // 2, last})


def _parts(
    battle: Battle, log: GameLog, turns: Sequence[int], width: int, for_pdf: bool, resources: dict[str, bytes]
) -> ReportParts:
    from battlestudio.session.turns import game_time
    from battlestudio.reports.charts import game_charts
    from battlestudio.ui.map_export import MapPage, PageSpec, page_title, resolve_at

    s = battle.scenario
    info = s.info
    ends = dict(turn_end_positions(log))
    last = max(ends)
    sides = side_summaries(s, log)
    times = {t: game_time(info, t) for t in ends if t >= 1}
    facts = [
        ("ruleset", info.ruleset),
        ("table", f"{info.table_width:g} × {info.table_height:g} cm, 1 cm = {info.ground_scale:g} m"),
        ("turns played", f"{last} ({info.first_turn}–{times.get(last, info.first_turn)}), {len(log):,} events"),
    ]
    notes = []
    if not len(log):
        notes.append("This file holds no recorded game yet: the map shows the deployment and the charts are empty.")

    def ref(name: str, data: bytes, mime: str) -> str:
        if for_pdf:
            resources[name] = data
            return name
        return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"

    maps = []
    for t in turns:
        pos = resolve_at(log, t)
        page = MapPage(battle, pos, PageSpec(width_px=width), log=log)
        try:
            png = page.png_bytes()
            if page.overlay is not None and page.overlay.message and not any("command overlay" in n for n in notes):
                notes.append("The command overlay is incomplete: " + page.overlay.message)
        finally:
            page.close()
        title, sub = page_title(battle, log, pos)
        maps.append(Picture(f"Turn {t}" if t else "Deployment", ref(f"map-{t}.png", png, "image/png"), caption=sub))
    charts = []
    for c in game_charts(log, s):
        if for_pdf:
            charts.append(Picture(c.title, ref(f"chart-{c.key}.png", c.png(), "image/png")))
        else:
            charts.append(Picture(c.title, svg=c.svg()))
    head, _ = page_title(battle, log, 0)
    return ReportParts(
        head,
        f"{info.date}{', ' + info.place if info.place else ''} — game report",
        facts,
        sides,
        maps,
        charts,
        highlights(log, limit=40),
        times,
        notes,
    )


def write_report(battle: Battle, out: str | Path, turns: Sequence[int] | None = None, width: int = 1400) -> Path:
    """Write the report of ``battle`` to ``out`` (``.html`` or ``.pdf``) with map snapshots
    at ``turns`` (default ``default_turns``).

    Raises
    ------
    ValueError
        for another suffix, a turn the game does not have, or a log that cannot be replayed;
        OSError when the file cannot be written (both name the file).
    """
    from battlestudio.ui.map_export import ensure_app

    path = Path(out)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ValueError(f"{path}: reports are written as .html or .pdf, not {path.suffix or 'no suffix'!r}")
    from battlestudio.store.atomic import atomic_write, check_output_folder
    from battlestudio.ui.map_export import MAX_WIDTH_PX, MIN_WIDTH_PX

    if not MIN_WIDTH_PX <= width <= MAX_WIDTH_PX:
        raise ValueError(f"--width must be {MIN_WIDTH_PX} to {MAX_WIDTH_PX} pixels, got {width}")
    check_output_folder(path)
    ensure_app()
    log = GameLog.from_battle(battle)
    turns = list(turns) if turns else default_turns(log)
    ends = dict(turn_end_positions(log))
    for t in turns:
        if t not in ends:
            raise ValueError(f"--turns {t}: the game log has turns 0 (deployment) to {max(ends)}")
    resources: dict[str, bytes] = {}
    parts = _parts(battle, log, turns, width, fmt == "pdf", resources)
    if fmt != "pdf":
        text = render_html(parts)

        def fill_html(tmp: str) -> None:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)

        atomic_write(path, fill_html)
        return path
    from PySide6.QtCore import QMarginsF, QSizeF
    from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter

    def fill_pdf(tmp: str) -> None:
        writer = QPdfWriter(tmp)
        writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)
        writer.setResolution(96)
        writer.setTitle(parts.title)
        page = writer.pageLayout().paintRectPixels(96)
        doc = text_document(parts, resources, QSizeF(page.width(), page.height()))
        doc.print_(writer)
        del writer  # closes the file before it replaces the old one
        if os.path.getsize(tmp) == 0:
            raise OSError(f"{path}: could not write the PDF")

    atomic_write(path, fill_pdf)  # a failure leaves an existing report as it was
    return path


def text_document(parts: ReportParts, resources: dict[str, bytes], page_size):
    """The report as a paginated ``QTextDocument`` (what the PDF prints): pictures as image
    resources, each scaled to the page width."""
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QImage, QTextDocument

    doc = QTextDocument()
    doc.setPageSize(page_size)
    for name, data in resources.items():
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), QImage.fromData(data))
    doc.setHtml(render_html(parts, image_width=int(page_size.width()) - 4))
    return doc
