"""File ▸ Import ORBAT Mapper… and File ▸ Export ORBAT Mapper…: ORBAT Mapper scenario JSON in
and out of the window (``store.importers.orbat_mapper``, ``store.orbat_mapper_export``).

Import reads the file once, then ``OrbatMapperImportDialog`` sets the clock-to-turn mapping
(the deployment's clock time in UTC, minutes per turn) and the georeference (typed, or derived
from the units' extent; the table outline of a BattleStudio export when the file has one) and
previews what comes in (sides, commanders, units, recorded events) with the import's warnings;
OK hands the battle to ``FileCommands.open_imported`` (a new unsaved document). A file that
cannot be imported is shown in an error naming the file and the JSON path of the bad field, and
the open document stays as it was.

Export writes the shown battle (its recorded game turn by turn) with the scenario's
georeference; without one it says so and offers the Georeference dialog, writing nothing.
The file is replaced atomically, after the document passed the ORBAT Mapper 3.4.0 schema.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QDate, QDateTime, QTime, Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMessageBox,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from battlestudio.model.georef import Georeference, GeoreferenceError
from battlestudio.store.importers.common import OobImportError
from battlestudio.store.importers.orbat_mapper import (
    DEFAULT_GROUND_SCALE,
    DEFAULT_TURN_MINUTES,
    OrbatMapperImport,
    embedded_georef,
    import_orbat_mapper_data,
)
from battlestudio.store.importers.orbat_mapper_read import read_orbat_mapper
from battlestudio.store.orbat_mapper_export import VERSION, OrbatMapperExportError, SchemaError, write_orbat_mapper
from battlestudio.ui import dialogs
from battlestudio.ui.georef_dialog import GeorefDialog, georef_text

if TYPE_CHECKING:
    from battlestudio.ui.file_commands import FileCommands

JSON_FILTER = "ORBAT Mapper scenario (*.json)"


def _qt_time(t: datetime) -> QDateTime:
    u = t.astimezone(UTC)
    return QDateTime(QDate(u.year, u.month, u.day), QTime(u.hour, u.minute, u.second))


def _degrees(lo: float, hi: float, decimals: int, suffix: str, value: float) -> QDoubleSpinBox:
    s = QDoubleSpinBox()
    s.setRange(lo, hi)
    s.setDecimals(decimals)
    s.setSuffix(suffix)
    s.setValue(value)
    s.setKeyboardTracking(False)
    return s


def _py_time(q: QDateTime) -> datetime:
    d, t = q.date(), q.time()
    return datetime(d.year(), d.month(), d.day(), t.hour(), t.minute(), t.second(), tzinfo=UTC)


class OrbatMapperImportDialog(QDialog):
    """The clock-to-turn mapping and georeference of an ORBAT Mapper import, with its preview.

    Parameters
    ----------
    path : Path
        the file (named in the title and the warnings).
    doc : dict
        its parsed JSON (``read_orbat_mapper``).
    first : OrbatMapperImport
        the import with the defaults (the file's start time, 15-minute turns, derived georef).

    Attributes
    ----------
    start : QDateTimeEdit
        the clock time of the deployment (UTC).
    minutes : QSpinBox
        minutes per turn.
    derive, given : QRadioButton
        georeference derived from the units' extent (or the file's BattleStudio outline), or typed
        in ``lon``, ``lat``, ``bearing`` (degrees).
    summary : QLabel
        what comes in; ``warnings`` lists the import's warnings and notes.
    result_import : OrbatMapperImport | None
        the import with the dialog's settings (None when they cannot be imported: OK is disabled).
    """

    def __init__(self, path: Path, doc: dict[str, Any], first: OrbatMapperImport, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Import ORBAT Mapper: {path.name}")
        self.setObjectName("orbat_mapper_import_dialog")
        self.path = path
        self.doc = doc
        self.result_import: OrbatMapperImport | None = first

        clock = QGroupBox("Clock to turns")
        form = QFormLayout(clock)
        self.start = QDateTimeEdit(_qt_time(first.start or datetime(1800, 1, 1, tzinfo=UTC)))
        self.start.setDisplayFormat("yyyy-MM-dd HH:mm:ss 'UTC'")
        self.start.setCalendarPopup(True)
        self.minutes = QSpinBox()
        self.minutes.setRange(1, 24 * 60)
        self.minutes.setSuffix(" min")
        self.minutes.setValue(DEFAULT_TURN_MINUTES)
        for edit in (self.start, self.minutes):
            edit.setKeyboardTracking(False)  # the preview imports again once the typing is done
        form.addRow("Deployment at", self.start)
        form.addRow("Each turn lasts", self.minutes)

        where = QGroupBox("Where the table lies")
        box = QVBoxLayout(where)
        embedded = embedded_georef(doc) is not None
        self.derive = QRadioButton(
            "From the file's BattleStudio table outline" if embedded else "Derive from the units' extent"
        )
        self.given = QRadioButton("Table origin and +x bearing:")
        group = QButtonGroup(self)
        group.addButton(self.derive)
        group.addButton(self.given)
        self.derive.setChecked(True)
        g = first.georef or Georeference(0.0, 0.0, 90.0)
        self.lon = _degrees(-180.0, 180.0, 7, "° lon", g.lon)
        self.lat = _degrees(-90.0, 90.0, 7, "° lat", g.lat)
        self.bearing = _degrees(0.0, 360.0, 3, "° bearing", g.bearing % 360.0)
        row = QHBoxLayout()
        row.addWidget(self.given)
        for s in (self.lon, self.lat, self.bearing):
            row.addWidget(s)
        box.addWidget(self.derive)
        box.addLayout(row)

        self.summary = QLabel()
        self.summary.setObjectName("orbat_mapper_summary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.warnings_label = QLabel()
        self.warnings = QListWidget()
        self.warnings.setObjectName("orbat_mapper_warnings")
        self.warnings.setWordWrap(True)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        lay = QVBoxLayout(self)
        lay.addWidget(clock)
        lay.addWidget(where)
        lay.addWidget(QLabel("<b>What comes in</b>"))
        lay.addWidget(self.summary)
        lay.addWidget(self.warnings_label)
        lay.addWidget(self.warnings, 1)
        lay.addWidget(self.buttons)
        self.resize(720, 560)

        self.start.dateTimeChanged.connect(self.update_preview)
        self.minutes.valueChanged.connect(self.update_preview)
        group.buttonToggled.connect(self.update_preview)
        for s in (self.lon, self.lat, self.bearing):
            s.valueChanged.connect(self.update_preview)
        self._show(first)

    def georeference(self) -> Georeference | None:
        """The typed georeference, or None to derive one (or take the file's outline)."""
        if not self.given.isChecked():
            return None
        return Georeference(self.lon.value(), self.lat.value(), self.bearing.value())

    def update_preview(self, *_args: object) -> OrbatMapperImport | None:
        """Import again with the dialog's settings and show the result (or why it cannot be)."""
        for s in (self.lon, self.lat, self.bearing):
            s.setEnabled(self.given.isChecked())
        try:
            res = import_orbat_mapper_data(
                self.doc,
                str(self.path),
                self.georeference(),
                turn_minutes=self.minutes.value(),
                start=_py_time(self.start.dateTime()),
            )
        except (OobImportError, GeoreferenceError) as exc:
            self.result_import = None
            self.summary.setText(f"Cannot be imported so: {exc}")
            self.summary.setStyleSheet("color: #b00000;")
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
            return None
        self._show(res)
        return res

    def _show(self, res: OrbatMapperImport) -> None:
        self.result_import = res
        sc = res.scenario
        turns = max((e.turn for e in res.events), default=0)
        per_side = res.summary.per_side
        sides = "; ".join(
            f"{s.name}: {per_side.get(sid, {}).get('commanders', 0)} commanders, "
            f"{per_side.get(sid, {}).get('units', 0)} units"
            for sid, s in sc.sides.items()
        )
        lines = [
            f"Sides: {len(sc.sides)} ({sides})",
            f"Commanders: {len(sc.commanders)}, units: {len(sc.units)} (of {res.units_in} ORBAT Mapper units)",
            f"Recorded events: {len(res.events)} in {turns} turns of {res.turn_minutes} min",
            f"Georeference: {georef_text(res.georef)}; table {sc.info.table_width:.0f} × "
            f"{sc.info.table_height:.0f} cm at {sc.info.ground_scale:g} m/cm"
            + (
                f" (1 m = {sc.info.ground_scale / 10:g} km, Torden over Europa 1.1)"
                if sc.info.ground_scale == DEFAULT_GROUND_SCALE
                else ""
            ),
        ]
        self.summary.setText("\n".join(lines))
        self.summary.setStyleSheet("")
        self.warnings.clear()
        self.warnings.addItems([str(w) for w in res.warnings])
        problems = len(res.problems())
        self.warnings_label.setText(f"Warnings: {problems}, notes: {len(res.warnings) - problems}")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(True)


def import_orbat_mapper_file(files: FileCommands, path: str | Path | None = None) -> bool:
    """File ▸ Import ORBAT Mapper…: ask for the file (when ``path`` is None), read it, let the
    dialog set the mapping, and open the result as a new unsaved document; True when opened.
    A file that cannot be imported is shown in an error and nothing else changes."""
    parent = files.map_view
    if path is None:
        start = str(files.document.path.parent) if files.document.path else ""
        name, _ = QFileDialog.getOpenFileName(parent, "Import ORBAT Mapper", start, JSON_FILTER)
        if not name:
            return False
        path = name
    path = Path(path)
    try:
        doc = read_orbat_mapper(path)
        first = import_orbat_mapper_data(doc, str(path))
    except OobImportError as exc:  # names the file and the JSON path of the bad field
        files.show_status(f"Could not import {path.name}", 10_000)
        dialogs.show_error(parent, "Could not import ORBAT Mapper file", str(exc))
        return False
    dialog = OrbatMapperImportDialog(path, doc, first, parent)
    if dialog.exec() != QDialog.DialogCode.Accepted or dialog.result_import is None:
        return False
    res = dialog.result_import
    what = (
        f"Imported {path.name}: {len(res.scenario.commanders)} commanders, {len(res.scenario.units)} units, "
        f"{len(res.events)} recorded events ({len(res.problems())} warnings)"
    )
    return files.open_imported(res.battle(), what)


def export_orbat_mapper_file(files: FileCommands, path: str | Path | None = None) -> Path | None:
    """File ▸ Export ORBAT Mapper…: write the shown battle to ``path`` (asked for when None)
    with the scenario's georeference; the written path, or None when cancelled, refused (no
    georeference: the user is offered the Georeference dialog) or failed (shown in a message)."""
    doc = files.document
    parent = files.map_view
    battle = doc.battle
    georef = battle.scenario.info.georef
    if georef is None:
        b = QMessageBox.StandardButton
        answer = QMessageBox.question(
            parent,
            "No georeference",
            "The scenario has no georeference, so its places cannot be put on ORBAT Mapper's map "
            "and nothing is exported.\n\nSet where the table lies (Edit ▸ Georeference…) now?",
            b.Yes | b.No,
            b.Yes,
        )
        files.show_status("Not exported: the scenario has no georeference", 10_000)
        if answer == b.Yes:
            dialog = GeorefDialog(doc, files.map_view, parent)
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
            dialog.show()
        return None
    if path is None:
        stem = doc.path.name.split(".")[0] if doc.path else doc.scenario.info.title
        start = (doc.path.parent if doc.path else Path.home()) / f"{stem}.json"
        name, _ = QFileDialog.getSaveFileName(parent, "Export ORBAT Mapper", str(start), JSON_FILTER)
        if not name:
            return None
        path = name if name.lower().endswith(".json") else name + ".json"
    try:
        written = write_orbat_mapper(battle, path, georef)
    except (OSError, OrbatMapperExportError, SchemaError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        dialogs.show_error(parent, "Could not export ORBAT Mapper", f"{path}: {reason}")
        return None
    sc = battle.scenario
    files.show_status(
        f"Exported {written} (ORBAT Mapper {VERSION}: {len(sc.sides)} sides, {len(sc.commanders)} commanders, "
        f"{len(sc.units)} units, {len(battle.events)} recorded events)",
        5_000,
    )
    return written
