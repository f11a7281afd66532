"""File ▸ Export GeoJSON…: the window's battle as a GeoJSON FeatureCollection (``store.geojson``).

The troops are written where the window shows them: at the replay cursor while a game is
replayed or recorded, else as the editor has them (the deployment). In WGS84 when the
scenario is georeferenced (Edit ▸ Georeference…), else in table cm with the CRS stated.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog

from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from battlestudio.store.geojson import feature_collection, write_geojson
from battlestudio.ui import dialogs

if TYPE_CHECKING:
    from battlestudio.ui.main_window import MainWindow

GEOJSON_FILTER = "GeoJSON (*.geojson *.json)"


def export_geojson(window: MainWindow, path: str | Path | None = None) -> Path | None:
    """Write the window's battle to ``path`` (asked for when None); the written path, or None
    when cancelled or it failed (the failure shown in a message box; nothing written)."""
    doc = window.document
    if path is None:
        start = doc.path.with_suffix("") if doc.path else Path(doc.scenario.info.title)
        start = start.with_suffix(".geojson") if start.suffix in (".battle", "") else Path(f"{start}.geojson")
        name, _ = QFileDialog.getSaveFileName(window, "Export GeoJSON", str(start), GEOJSON_FILTER)
        if not name:
            return None
        path = name if name.lower().endswith((".geojson", ".json")) else name + ".geojson"
    try:
        if isinstance(doc, PlayDocument):
            data = feature_collection(Battle(doc.scenario, []), doc.log, doc.timeline.position)
        else:
            data = feature_collection(Battle(doc.scenario, []), None, 0)
        written = write_geojson(data, path)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        dialogs.show_error(window, "Could not export GeoJSON", f"{path}: {reason}")
        return None
    window.statusBar().showMessage(f"Exported {written} ({len(data['features'])} features)", 5_000)
    return written
