"""File ▸ Import…: an order of battle of any format ``import-oob`` reads, previewed, into a new
document or into a side of the open one.

``ImportDialog`` takes the files, the format (detected from the files or chosen), for CSV/XLSX
the column mapping — a table of the file's columns, each with what it holds, guessed from the
header and editable, loaded from and saved as the TOML file of ``docs/import-mapping.md``, with
the first rows as they import — and whether to convert to the target's ruleset scale (Torden
over Europa's for a new document, the open document's ruleset's when importing into it); it runs
``store.importers.import_oob`` and previews the result (the order of battle with each unit's
men, figures and guns; the importer's warnings as ``file:line``). The
target is a new document or the open document: the sides as imported, an existing side, or a new
side. Importing into the open document is one undo step (``edits.merge.merge_edit``). A file that
cannot be imported leaves the document as it was and the dialog says why.
"""

from __future__ import annotations

import dataclasses

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QBrush
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QRadioButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlestudio.document import import_edit
from battlestudio.model.scenario import Scenario, Side
from battlestudio.replay.battle import Battle
from battlestudio.rules import DEFAULT_RULESET, RuleRefused, available_rulesets, resolve_ruleset_id
from battlestudio.rules.switch import conform_import
from battlestudio.store.importers import FORMATS, ImportResult, ImportWarning, OobImportError, import_oob
from battlestudio.store.importers.common import slug
from battlestudio.store.importers.tabular import import_table, read_header
from battlestudio.rules.toe.scale import year_of
from battlestudio.store.importers.tabular_mapping import (
    FIELDS,
    as_spec,
    dump_mapping,
    fields_of,
    guess_fields,
    load_mapping,
    spec_from_fields,
)
from battlestudio.model.side_colours import side_colour
from battlestudio.ui import dialogs
from battlestudio.ui.play.param_form import WheelGuard, guard_wheel

if TYPE_CHECKING:
    from battlestudio.document import Document
    from battlestudio.ui.main_window import MainWindow

FORMAT_LABELS = {
    "oob": "republique5 order of battle (.oob)",
    "csv": "CSV table with a column mapping",
    "xlsx": "XLSX workbook with a column mapping",
    "fogofwar": "fogofwar tables (folder of force.csv, force_unit.csv, …)",
    "orbat-mapper": "ORBAT Mapper scenario (.json)",
}
FILE_FILTER = (
    "Orders of battle (*.oob *.csv *.xlsx *.json);;republique5 (*.oob);;CSV (*.csv);;XLSX (*.xlsx);;"
    "ORBAT Mapper (*.json);;All files (*)"
)
FOGOFWAR_TABLES = {"force.csv", "force_unit.csv", "scenario.csv"}
AS_IMPORTED = "__as_imported__"
FIELD_LABELS = {
    "": "(not read)",
    "name": "name",
    "commander": "commander (person)",
    "men": "men (added up)",
    "horses": "horses",
    "guns": "guns (real pieces)",
    "bases": "bases (battalions…)",
    "figures": "figures",
    "arm": "arm (inf/cav/art/hq)",
    "subtype": "subtype (line, light, horse…)",
    "quality": "quality",
    "nation": "nation",
    "side": "side",
    "echelon": "echelon",
    "year": "year",
    "path": "nesting: path (a.b.c)",
    "prefix": "nesting: path prefix",
    "id": "nesting: row id",
    "parent": "nesting: parent id",
    **{f"level {i}": f"nesting: level {i}" + (" (top)" if i == 1 else "") for i in range(1, 9)},
}
"""How each mapping field (``tabular_mapping.FIELDS``) is offered in a column's combo."""
PREVIEW_ROWS = 12
"""Rows of the table shown as they import."""
NEW_SIDE = "__new_side__"


def detect_format(paths: list[Path]) -> str | None:
    """The format of ``paths`` from their names (a folder or a fogofwar table is ``fogofwar``),
    or None when the names do not say (or disagree)."""
    found: set[str] = set()
    for p in paths:
        name = p.name.lower()
        if p.is_dir() or name in FOGOFWAR_TABLES or name.startswith("lookup_"):
            found.add("fogofwar")
        elif name.endswith(".oob"):
            found.add("oob")
        elif name.endswith(".csv"):
            found.add("csv")
        elif name.endswith(".xlsx"):
            found.add("xlsx")
        elif name.endswith(".json"):
            found.add("orbat-mapper")
        else:
            return None
    return found.pop() if len(found) == 1 else None


class ImportDialog(QDialog):
    """Choose files, format, mapping and target; preview; OK imports.

    Attributes
    ----------
    files_edit, mapping_edit : QLineEdit
        the input paths (separated by ``;``) and the TOML mapping (CSV/XLSX only).
    format_box : QComboBox
        "Detect from the files" or one of ``FORMATS`` (item data).
    convert : QCheckBox
        convert to the target's ruleset scale: Torden over Europa's for a new document (as
        ``import-oob`` without ``--no-convert``), the open document's ruleset's (always applied,
        so checked and disabled) when importing into a document of another ruleset.
    tree : QTreeWidget
        the preview: name, side, arm, men, figures, guns per commander and unit.
    warnings : QListWidget
        the importer's warnings and notes, ``file:line: severity: message``.
    status : QLabel
        the summary, or why nothing can be imported.
    new_doc, into_doc : QRadioButton
        the target; with ``into_doc``, ``side_box`` picks the sides (item data: ``AS_IMPORTED``,
        an existing side id or ``NEW_SIDE``, named in ``side_name``).
    imported : ImportResult | None
        the last successful preview (None: OK is disabled), at the target's ruleset scale.
    unconverted : Scenario | None
        for a target of another ruleset than Torden over Europa, the preview's scenario before
        that ruleset's conversion (``import_into`` gives it to ``document.import_edit``, which
        converts it and counts the conversion in the undo step); None otherwise.
    """

    def __init__(self, scenario: Scenario, start_dir: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("import_dialog")
        self.setWindowTitle("Import order of battle")
        self._wheel_guard = WheelGuard(self)
        self.target_scenario = scenario
        self.start_dir = start_dir
        self.imported: ImportResult | None = None
        self.unconverted: Scenario | None = None
        self._previewed_for = DEFAULT_RULESET
        self.resize(1100, 860)

        src = QGroupBox("Source")
        form = QFormLayout(src)
        self.files_edit = QLineEdit()
        self.files_edit.setPlaceholderText("one or more files (separated by ;), or a fogofwar folder")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self.browse_files)
        row = QHBoxLayout()
        row.addWidget(self.files_edit, 1)
        row.addWidget(browse)
        files_label = QLabel("&Files:")
        files_label.setBuddy(self.files_edit)
        form.addRow(files_label, row)
        self.format_box = QComboBox()
        self.format_box.addItem("Detect from the files", "")
        for f in FORMATS:
            self.format_box.addItem(FORMAT_LABELS[f], f)
        format_label = QLabel("F&ormat:")
        format_label.setBuddy(self.format_box)
        form.addRow(format_label, self.format_box)
        self.mapping_edit = QLineEdit()
        self.mapping_edit.setPlaceholderText("guessed from the header; or load a TOML mapping (docs/import-mapping.md)")
        self.mapping_browse = QPushButton("&Load…")
        self.mapping_browse.clicked.connect(self.browse_mapping)
        self.mapping_save = QPushButton("&Save…")
        self.mapping_save.setToolTip("Save the column mapping below as a TOML file (import-oob reads it too)")
        self.mapping_save.clicked.connect(lambda: self.save_mapping())
        mrow = QHBoxLayout()
        mrow.addWidget(self.mapping_edit, 1)
        mrow.addWidget(self.mapping_browse)
        mrow.addWidget(self.mapping_save)
        self.mapping_label = QLabel("&Mapping:")
        self.mapping_label.setBuddy(self.mapping_edit)
        form.addRow(self.mapping_label, mrow)
        self.convert = QCheckBox("Convert to Torden over Europa scale (figures, gun models)")
        self.convert.setChecked(True)
        form.addRow("", self.convert)
        self.preview_button = QPushButton("&Preview")
        self.preview_button.clicked.connect(self.preview)
        form.addRow("", self.preview_button)

        self.tree = QTreeWidget()
        self.tree.setObjectName("import_preview")
        self.tree.setHeaderLabels(["Name", "Side", "Arm", "Men", "Figures", "Guns"])
        self.tree.setColumnWidth(0, 320)
        self.warnings = QListWidget()
        self.warnings.setObjectName("import_warnings")
        self.status = QLabel("Choose the files to import.")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.columns_table = QTableWidget(0, 3)
        self.columns_table.setObjectName("import_columns")
        self.columns_table.setHorizontalHeaderLabels(["Column of the file", "Read as", "First values"])
        self.columns_table.verticalHeader().hide()
        row_h = self.fontMetrics().height() + 10  # a combo's height: compact rows, more of them seen
        self.columns_table.verticalHeader().setDefaultSectionSize(row_h)
        self.columns_table.horizontalHeader().setStretchLastSection(True)
        self.rows_table = QTableWidget(0, 9)
        self.rows_table.setObjectName("import_rows")
        self.rows_table.setHorizontalHeaderLabels(
            ["Row", "Read as", "Name", "Side", "Arm", "Subtype", "Men", "Figures", "Guns"]
        )
        self.rows_table.verticalHeader().hide()
        self.rows_table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.rows_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.mapping_box = QGroupBox("Columns (what each holds) and the first rows as they import")
        mlay = QHBoxLayout(self.mapping_box)
        msplit = QSplitter(Qt.Orientation.Horizontal)
        msplit.addWidget(self.columns_table)
        msplit.addWidget(self.rows_table)
        msplit.setSizes([420, 480])
        mlay.addWidget(msplit)
        self.mapping_box.hide()
        self.header: list[str] = []
        """The columns of the table file shown in ``columns_table``."""
        self._header_of: tuple[str, str] | None = None
        self.mapping_keep: dict[str, object] = {}
        """The loaded mapping (``as_spec``): its values, defaults and source are kept."""
        self._filling = False
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.mapping_box)
        split.addWidget(self.tree)
        split.addWidget(self.warnings)
        split.setSizes([340, 240, 120])

        tgt = QGroupBox("Import into")
        tl = QFormLayout(tgt)
        self.new_doc = QRadioButton("a &new document")
        self.into_doc = QRadioButton("the &open document, side:")
        self.new_doc.setChecked(True)
        self.side_box = QComboBox()
        self.side_box.addItem("the sides as imported", AS_IMPORTED)
        for sid, side in scenario.sides.items():
            self.side_box.addItem(f"{side.name} ({sid})", sid)
        self.side_box.addItem("a new side named…", NEW_SIDE)
        self.side_name = QLineEdit()
        self.side_name.setPlaceholderText("name of the new side")
        trow = QHBoxLayout()
        trow.addWidget(self.side_box, 1)
        trow.addWidget(self.side_name, 1)
        tl.addRow(self.new_doc)
        tl.addRow(self.into_doc, trow)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Import")
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)

        lay = QVBoxLayout(self)
        lay.addWidget(src)
        lay.addWidget(split, 1)
        lay.addWidget(self.status)
        lay.addWidget(tgt)
        lay.addWidget(self.buttons)

        self.files_edit.editingFinished.connect(self._inputs_changed)
        self.mapping_edit.editingFinished.connect(self._mapping_path_changed)
        self.format_box.currentIndexChanged.connect(self._inputs_changed)
        self.convert.toggled.connect(self._inputs_changed)
        for w in (self.new_doc, self.into_doc):
            w.toggled.connect(self._target_changed)
        self.side_box.currentIndexChanged.connect(self._update_target)
        self.side_name.textChanged.connect(self._update_target)
        self._inputs_changed()

    # -- inputs --------------------------------------------------------------------------
    def paths(self) -> list[Path]:
        """The input paths typed or picked."""
        return [Path(p.strip()) for p in self.files_edit.text().split(";") if p.strip()]

    def format(self) -> str | None:
        """The chosen format, else the detected one, else None."""
        return self.format_box.currentData() or detect_format(self.paths())

    def set_files(self, paths: list[str | Path]) -> None:
        """Set the input files (as Browse does) and preview when the format is known."""
        self.files_edit.setText("; ".join(str(p) for p in paths))
        self._inputs_changed()

    def set_mapping(self, path: str | Path) -> None:
        """Load the TOML mapping ``path`` into the column table and preview again."""
        self.mapping_edit.setText(str(path))
        self._mapping_path_changed()

    def browse_files(self) -> None:
        names, _ = QFileDialog.getOpenFileNames(self, "Import order of battle", self.start_dir, FILE_FILTER)
        if names:
            self.set_files(names)

    def browse_mapping(self) -> None:
        start = str(self.paths()[0].parent) if self.paths() else self.start_dir
        name, _ = QFileDialog.getOpenFileName(self, "Load column mapping", start, "TOML mapping (*.toml)")
        if name:
            self.set_mapping(name)

    def save_mapping(self, path: str | Path | None = None) -> bool:
        """Write the column table's mapping as TOML (asking where when ``path`` is None);
        False when cancelled or it cannot be written (the status says why)."""
        if path is None:
            first = self.paths()[0] if self.paths() else None
            start = str(first.with_suffix(".toml")) if first else self.start_dir
            path, _ = QFileDialog.getSaveFileName(self, "Save column mapping", start, "TOML mapping (*.toml)")
            if not path:
                return False
        target = Path(path)
        names = ", ".join(p.name for p in self.paths()) or "a table"
        try:
            target.write_text(dump_mapping(self.mapping_spec(), f"Column mapping of {names} (docs/import-mapping.md)"))
        except OSError as exc:
            self.status.setText(
                f"<span style='color:#b00020'>Cannot save {_html(str(target))}: "
                f"{_html(exc.strerror or str(exc))}</span>"
            )
            return False
        self.mapping_edit.setText(str(target))
        self.mapping_keep = self.mapping_spec()
        return True

    # -- the column mapping ---------------------------------------------------------------
    def fields(self) -> dict[str, str]:
        """Column of the file → what it is read as (``tabular_mapping.FIELDS``), as the table says."""
        out: dict[str, str] = {}
        for r, col in enumerate(self.header):
            box = self.columns_table.cellWidget(r, 1)
            if isinstance(box, QComboBox):
                out[col] = str(box.currentData() or "")
        return out

    def field_box(self, column: str) -> QComboBox:
        """The combo saying what ``column`` holds."""
        box = self.columns_table.cellWidget(self.header.index(column), 1)
        assert isinstance(box, QComboBox)
        return box

    def set_field(self, column: str, field: str) -> None:
        """Read ``column`` as ``field`` (one of ``tabular_mapping.FIELDS``) and preview again."""
        box = self.field_box(column)
        box.setCurrentIndex(box.findData(field))

    def mapping_spec(self) -> dict[str, object]:
        """The mapping the column table gives (with the loaded file's values, defaults, source)."""
        return spec_from_fields(self.fields(), self.mapping_keep)

    def _load_header(self) -> None:
        """Read the table file's header and first rows into the column table, guessed or as the
        loaded mapping says; an unreadable file is said in the status."""
        paths, fmt = self.paths(), self.format()
        key = (str(paths[0]) if paths else "", fmt or "")
        if key == self._header_of:
            return
        self._header_of = key
        self.header = []
        self.columns_table.setRowCount(0)
        if not paths or fmt not in ("csv", "xlsx"):
            return
        try:
            sheet = self.mapping_keep.get("hierarchy", {}).get("sheet")  # type: ignore[union-attr]
            header, first = read_header(paths[0], fmt, sheet, rows=3)
        except (OobImportError, ValueError, OSError):
            return  # the preview says why
        self.header = [h for h in header if h]
        loaded = fields_of(load_mapping(self.mapping_keep)) if self.mapping_keep.get("columns") else {}
        fill = {h: loaded.get(h, "") for h in self.header} if loaded else guess_fields(self.header)
        self._filling = True
        self.columns_table.setRowCount(len(self.header))
        for r, col in enumerate(self.header):
            name = QTableWidgetItem(col)
            name.setFlags(name.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.columns_table.setItem(r, 0, name)
            box = QComboBox()
            box.setObjectName(f"field:{col}")
            guard_wheel(box, self._wheel_guard)  # scrolling the list changes no "Read as" (a tester's)
            for f in FIELDS:
                box.addItem(FIELD_LABELS.get(f, f), f)
            box.setCurrentIndex(max(0, box.findData(fill.get(col, ""))))
            box.currentIndexChanged.connect(self._mapping_changed)
            self.columns_table.setCellWidget(r, 1, box)
            sample = "; ".join(v.strip() for v in (row.get(col, "") for row in first) if v and v.strip())
            cell = QTableWidgetItem(sample[:80])
            cell.setFlags(cell.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.columns_table.setItem(r, 2, cell)
        self.columns_table.resizeColumnsToContents()
        self._filling = False

    def _mapping_changed(self) -> None:
        if not self._filling:
            self.preview()

    def _mapping_path_changed(self) -> None:
        """Load the mapping file named in ``mapping_edit`` into the column table."""
        text = self.mapping_edit.text().strip()
        if not text:
            self.mapping_keep = {}
            self._header_of = None
            self._inputs_changed()
            return
        try:
            self.mapping_keep = as_spec(load_mapping(text))
        except OobImportError as exc:
            self.status.setText(f"<span style='color:#b00020'>Cannot read the mapping: {_html(str(exc))}</span>")
            self.imported = None
            self._update_target()
            return
        self._header_of = None  # refill the table from the loaded mapping
        self._inputs_changed()
        missing = [c for c in fields_of(load_mapping(self.mapping_keep)) if self.header and c not in self.header]
        if missing:
            self.status.setText(
                self.status.text()
                + "<br><span style='color:#b00020'>"
                + _html(f"{text}: column(s) {', '.join(map(repr, missing))} not in the file's header; not read")
                + "</span>"
            )

    def _mapping_problem(self) -> str | None:
        """What the column table lacks before rows can be read, said for the dialog."""
        fields = set(self.fields().values())
        nesting = {"path", "id", "parent"} & fields or any(f.startswith("level ") for f in fields)
        if not nesting:
            return (
                "Say how the rows nest: read one column as the row id and one as its parent id, or the "
                "columns of the army, corps, division… as nesting levels 1, 2, 3…, or a path column."
            )
        if ("id" in fields) != ("parent" in fields):
            return "A row id column needs a parent id column (and the other way round)."
        if "name" not in fields and not any(f.startswith("level ") for f in fields):
            return "Choose the column holding the names (read as: name)."
        return None

    def _inputs_changed(self) -> None:
        fmt = self.format()
        tabular = fmt in ("csv", "xlsx")
        for w in (self.mapping_edit, self.mapping_browse, self.mapping_save, self.mapping_label):
            w.setEnabled(tabular)
        self.mapping_box.setVisible(tabular)
        self._update_convert()
        if tabular:
            self._load_header()
        if self.paths() and fmt is not None:
            self.preview()
        else:
            self.imported = None
            self.tree.clear()
            self.warnings.clear()
            self.rows_table.setRowCount(0)
            if not self.paths():
                self.status.setText("Choose the files to import.")
            else:
                self.status.setText("The format cannot be told from the file names: choose it.")
        self._update_target()

    def target_ruleset(self) -> tuple[str, str]:
        """(id, name) of the ruleset whose scale the import takes: the open document's when
        importing into it, else the default (Torden over Europa) of a new document."""
        rid = resolve_ruleset_id(self.target_scenario.info.ruleset) if self.into_doc.isChecked() else DEFAULT_RULESET
        try:
            rs = available_rulesets().get(rid)
        except RuleRefused:
            rs = None
        return rid, (rs.describe().name if rs is not None else rid)

    def _update_convert(self) -> None:
        """The convert box names the target ruleset's conversion; an import into a document of
        another ruleset always takes that ruleset's scale (``document.import_edit``)."""
        rid, name = self.target_ruleset()
        if rid == DEFAULT_RULESET:
            self.convert.setText("Convert to Torden over Europa scale (figures, gun models)")
            self.convert.setToolTip("")
            self.convert.setEnabled(self.format() != "orbat-mapper")
        else:
            self.convert.setText(f"Convert to the {name} scale (as every import into this document)")
            self.convert.setToolTip(f"Units imported into a {name} document always take its scale.")
            self.convert.blockSignals(True)
            self.convert.setChecked(True)
            self.convert.blockSignals(False)
            self.convert.setEnabled(False)

    def _target_changed(self) -> None:
        """New or open document: the preview again when the target's ruleset changes with it."""
        if self.target_ruleset()[0] != self._previewed_for:
            self._inputs_changed()
        else:
            self._update_convert()
            self._update_target()

    # -- preview -------------------------------------------------------------------------
    def preview(self) -> ImportResult | None:
        """Run the import with the dialog's settings and show it; None (and why) on failure."""
        self.imported = None
        self.unconverted = None
        self.tree.clear()
        self.warnings.clear()
        self.rows_table.setRowCount(0)
        fmt = self.format()
        rid, name = self.target_ruleset()
        self._previewed_for = rid
        try:
            if fmt is None:
                raise OobImportError("the format cannot be told from the file names: choose it")
            mapping = self._mapping_for_import() if fmt in ("csv", "xlsx") else None
            info = self.target_scenario.info  # 1.3's Prussian brigade: the document's year and parameters
            into = self.into_doc.isChecked() and fmt != "orbat-mapper"
            when = {"year": year_of(info.date), "parameters": info.parameters} if into else {}
            if rid == DEFAULT_RULESET or fmt == "orbat-mapper":
                convert = self.convert.isChecked() and fmt != "orbat-mapper"
                res = import_oob(self.paths(), fmt, mapping=mapping, convert=convert, **when)
            else:  # into a document of another ruleset: its conversion, read with its parameters
                res = import_oob(self.paths(), fmt, mapping=mapping, convert=False, ruleset=rid, **when)
                self.unconverted = res.scenario
                conf = conform_import(res.scenario, self.target_scenario.info)
                what = f"conversion to the {conf.ruleset_name or name} scale"
                files = ", ".join(str(p) for p in self.paths())
                res = dataclasses.replace(
                    res,
                    scenario=conf.scenario,
                    warnings=res.warnings
                    + [ImportWarning(what, 0, n, "", "note") for n in conf.notes]
                    + [ImportWarning(files, 0, f"{what}: {w}") for w in conf.warnings],
                )
            if mapping is not None:
                self._fill_rows(import_table(self.paths()[0], mapping, fmt=fmt).scenario)
        except (OobImportError, ValueError, OSError) as exc:
            self.status.setText(f"<span style='color:#b00020'>Cannot import: {_html(str(exc))}</span>")
            self._update_target()
            return None
        self.imported = res
        self._fill_tree(res.scenario)
        for w in res.warnings:
            self.warnings.addItem(str(w))
            if w.severity == "warning":
                self.warnings.item(self.warnings.count() - 1).setForeground(QBrush(QColor("#a05000")))
        lines = res.summary.lines()
        n_warn = len(res.problems())
        self.status.setText(
            "<br>".join(_html(x) for x in lines) + f"<br>{n_warn} warning(s), {len(res.warnings) - n_warn} note(s)"
        )
        self._update_target()
        return res

    def _mapping_for_import(self) -> str | dict[str, object]:
        """The loaded TOML file when the table still says what it says (so messages name the
        file), else the table's mapping; ``OobImportError`` when the table lacks something."""
        if not self.header:
            path = self.paths()[0]
            read_header(path, self.format())  # the file's own error (missing, not a table…), if any
            raise OobImportError(f"{path}: row 1: no header (the file or sheet is empty): no columns to read")
        problem = self._mapping_problem()
        if problem:
            raise OobImportError(problem)
        spec = self.mapping_spec()
        text = self.mapping_edit.text().strip()
        if text and self.mapping_keep and as_spec(load_mapping(self.mapping_keep)) == as_spec(load_mapping(spec)):
            return text
        return spec

    def _fill_rows(self, sc: Scenario) -> None:
        """The first ``PREVIEW_ROWS`` rows of the table as read through the mapping (before
        the conversion): what each row became, with its strengths; ``est.`` marks an estimate."""
        recs: list[tuple[int, list[str]]] = []
        for c in sc.commanders.values():
            row = c.attributes.get("source_row")
            if isinstance(row, int):
                men = c.attributes.get("stated_men")
                guns = c.attributes.get("stated_guns")
                est = " (est.)" if c.attributes.get("stated_estimated") else ""
                recs.append(
                    (
                        row,
                        [
                            str(row),
                            f"command ({c.echelon})",
                            c.attributes.get("formation", c.name),
                            c.side,
                            "",
                            "",
                            f"{men:,}{est} stated" if men else "",
                            "",
                            f"{guns:,} stated" if guns else "",
                        ],
                    )
                )
        for u in sc.units.values():
            row = u.attributes.get("source_row")
            if isinstance(row, int):
                est = " (est.)" if u.attributes.get("men_estimated") else ""
                recs.append(
                    (
                        row,
                        [
                            str(row),
                            "unit",
                            u.name,
                            u.side,
                            u.arm.value,
                            u.subtype.value if u.subtype else "",
                            f"{u.men:,}{est}",
                            str(u.figures or (f"{u.bases} bases" if u.bases else "")),
                            str(u.guns),
                        ],
                    )
                )
        recs.sort(key=lambda r: r[0])
        recs = recs[:PREVIEW_ROWS]
        self.rows_table.setRowCount(len(recs))
        for r, (_row, cols) in enumerate(recs):
            for c, text in enumerate(cols):
                self.rows_table.setItem(r, c, QTableWidgetItem(text))
        self.rows_table.resizeColumnsToContents()

    def _fill_tree(self, sc: Scenario) -> None:
        def item(node: str) -> QTreeWidgetItem:
            rec = sc.record(node)
            assert rec is not None
            if node in sc.units:
                u = sc.units[node]
                estimated = " (est.)" if u.attributes.get("men_estimated") else ""
                cols = [u.name, u.side, u.arm.value, f"{u.men:,}{estimated}", str(u.figures), str(u.guns)]
            else:
                c = sc.commanders[node]
                cols = [c.name, c.side, c.echelon, "", "", ""]
            it = QTreeWidgetItem(cols)
            it.setData(0, Qt.ItemDataRole.UserRole, node)
            for col in (3, 4, 5):
                it.setTextAlignment(col, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return it

        made: dict[str, QTreeWidgetItem] = {}
        for root in sc.oob.roots():
            for node, _depth in sc.oob.walk(root):
                if sc.record(node) is None:
                    continue
                it = item(node)
                sup = sc.oob.superior(node)
                if sup in made:
                    made[sup].addChild(it)
                else:
                    self.tree.addTopLevelItem(it)
                made[node] = it
        for node in (*sc.commanders, *sc.units):
            if node not in made:
                self.tree.addTopLevelItem(item(node))
        self.tree.expandToDepth(1)

    # -- target --------------------------------------------------------------------------
    def _update_target(self) -> None:
        into = self.into_doc.isChecked()
        self.side_box.setEnabled(into)
        self.side_name.setEnabled(into and self.side_box.currentData() == NEW_SIDE)
        ok = self.imported is not None
        if ok and into and self.side_box.currentData() == NEW_SIDE and not self.side_name.text().strip():
            ok = False
        if ok and into and isinstance(self.imported, ImportResult) and getattr(self.imported, "events", None):
            self.status.setText(
                self.status.text() + "<br>The recorded game of an ORBAT Mapper file comes in only as a new document."
            )
            ok = False
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def side_mapping(self) -> tuple[dict[str, str], dict[str, Side]]:
        """Imported side id → open document's side id, and the sides to add to it."""
        assert self.imported is not None
        imported = self.imported.scenario
        target = self.target_scenario
        used_sides = sorted({r.side for r in (*imported.units.values(), *imported.commanders.values())})
        choice = self.side_box.currentData()
        if choice == AS_IMPORTED:
            new: dict[str, Side] = {}
            for sid in used_sides:
                if sid not in target.sides:
                    side = imported.sides.get(sid) or Side(sid, sid)
                    taken = [s.colour for s in (*target.sides.values(), *new.values())]
                    new[sid] = _with_colour(side, taken)
            return {sid: sid for sid in used_sides}, new
        if choice == NEW_SIDE:
            name = self.side_name.text().strip()
            sid, n = slug(name), 2
            while sid in target.sides:
                sid, n = f"{slug(name)}-{n}", n + 1
            nations = tuple(sorted({n for s in used_sides for n in imported.sides.get(s, Side(s, s)).nations}))
            side = _with_colour(Side(sid, name, nations), [s.colour for s in target.sides.values()])
            return {s: sid for s in used_sides}, {sid: side}
        return {s: str(choice) for s in used_sides}, {}

    def _accept(self) -> None:
        if self.imported is not None:
            self.accept()


def _with_colour(side: Side, taken: list[str]) -> Side:
    from dataclasses import replace

    nation = side.nations[0] if side.nations else side.name
    return replace(side, colour=side_colour(nation, taken))


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def import_into(doc: Document, dialog: ImportDialog) -> list[str]:
    """Push the dialog's import onto ``doc`` as one undo step; the new node ids.

    Raises
    ------
    ValueError
        when the import cannot be merged (nothing is changed then).
    """
    assert dialog.imported is not None
    from battlestudio.play.document import PlayDocument

    if isinstance(doc, PlayDocument):  # a game is shown: the order of battle is the scenario's
        raise ValueError(
            "a game is shown, and units come into a game only as reinforcements: "
            "Game ▸ Back to Scenario Editor first, or import into a new document"
        )
    side_map, new_sides = dialog.side_mapping()
    raw = dialog.unconverted if dialog.unconverted is not None else dialog.imported.scenario
    edit, nodes = import_edit(doc.scenario, raw, side_map, new_sides)
    if not doc.push(edit):
        raise ValueError("the document refused the import")
    return nodes


def import_file(window: MainWindow, paths: list[str | Path] | None = None) -> bool:
    """File ▸ Import…: run the dialog on ``window``'s document; True when something came in."""
    doc = window.document
    start = str(doc.path.parent) if doc.path else ""
    dialog = ImportDialog(doc.scenario, start, window)
    if paths:
        dialog.set_files(paths)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return False
    return finish_import(window, dialog)


def finish_import(window: MainWindow, dialog: ImportDialog) -> bool:
    """Bring the accepted ``dialog``'s import into ``window``: a new document or the open one."""
    res = dialog.imported
    if res is None:
        return False
    names = ", ".join(p.name for p in dialog.paths())
    what = (
        f"Imported {names}: {len(res.scenario.commanders)} commanders, {len(res.scenario.units)} units "
        f"({len(res.problems())} warnings)"
    )
    if dialog.new_doc.isChecked():
        return window.files.open_imported(Battle(res.scenario, list(getattr(res, "events", []))), what)
    try:
        nodes = import_into(window.document, dialog)
    except ValueError as exc:
        dialogs.show_error(window, "Could not import", f"{names}: {exc}\nThe document is as it was.")
        return False
    window.document.set_selection(nodes)
    window.statusBar().showMessage(what, 10_000)
    return True
