"""File ▸ Import…: an order of battle of any format ``import-oob`` reads, previewed, into a new
document or into a side of the open one.

``ImportDialog`` takes the files, the format (detected from the files or chosen), for CSV/XLSX
the TOML column mapping (``docs/import-mapping.md``), and whether to convert to Torden over
Europa's scale; it runs ``store.importers.import_oob`` and previews the result (the order of
battle with each unit's men, figures and guns; the importer's warnings as ``file:line``). The
target is a new document or the open document: the sides as imported, an existing side, or a new
side. Importing into the open document is one undo step (``edits.merge.merge_edit``). A file that
cannot be imported leaves the document as it was and the dialog says why.
"""

from __future__ import annotations

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
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlestudio.document import import_edit
from battlestudio.model.scenario import Scenario, Side
from battlestudio.replay.battle import Battle
from battlestudio.store.importers import FORMATS, ImportResult, OobImportError, import_oob
from battlestudio.store.importers.common import slug
from battlestudio.model.side_colours import side_colour
from battlestudio.ui import dialogs

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
        convert to Torden over Europa's scale (as ``import-oob`` without ``--no-convert``).
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
        the last successful preview (None: OK is disabled).
    """

    def __init__(self, scenario: Scenario, start_dir: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("import_dialog")
        self.setWindowTitle("Import order of battle")
        self.target_scenario = scenario
        self.start_dir = start_dir
        self.imported: ImportResult | None = None
        self.resize(900, 640)

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
        self.mapping_edit.setPlaceholderText("TOML column mapping, see docs/import-mapping.md")
        self.mapping_browse = QPushButton("Browse…")
        self.mapping_browse.clicked.connect(self.browse_mapping)
        mrow = QHBoxLayout()
        mrow.addWidget(self.mapping_edit, 1)
        mrow.addWidget(self.mapping_browse)
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
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.tree)
        split.addWidget(self.warnings)
        split.setSizes([380, 160])

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
        self.mapping_edit.editingFinished.connect(self._inputs_changed)
        self.format_box.currentIndexChanged.connect(self._inputs_changed)
        self.convert.toggled.connect(self._inputs_changed)
        for w in (self.new_doc, self.into_doc):
            w.toggled.connect(self._update_target)
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
        """Set the TOML mapping and preview again."""
        self.mapping_edit.setText(str(path))
        self._inputs_changed()

    def browse_files(self) -> None:
        names, _ = QFileDialog.getOpenFileNames(self, "Import order of battle", self.start_dir, FILE_FILTER)
        if names:
            self.set_files(names)

    def browse_mapping(self) -> None:
        start = str(self.paths()[0].parent) if self.paths() else self.start_dir
        name, _ = QFileDialog.getOpenFileName(self, "Column mapping", start, "TOML mapping (*.toml)")
        if name:
            self.set_mapping(name)

    def _inputs_changed(self) -> None:
        fmt = self.format()
        tabular = fmt in ("csv", "xlsx")
        for w in (self.mapping_edit, self.mapping_browse, self.mapping_label):
            w.setEnabled(tabular)
        self.convert.setEnabled(fmt != "orbat-mapper")
        if self.paths() and fmt is not None and (not tabular or self.mapping_edit.text().strip()):
            self.preview()
        else:
            self.imported = None
            self.tree.clear()
            self.warnings.clear()
            if not self.paths():
                self.status.setText("Choose the files to import.")
            elif fmt is None:
                self.status.setText("The format cannot be told from the file names: choose it.")
            else:
                self.status.setText(f"A {fmt.upper()} table needs a column mapping (a TOML file): choose it.")
        self._update_target()

    # -- preview -------------------------------------------------------------------------
    def preview(self) -> ImportResult | None:
        """Run the import with the dialog's settings and show it; None (and why) on failure."""
        self.imported = None
        self.tree.clear()
        self.warnings.clear()
        fmt = self.format()
        try:
            if fmt is None:
                raise OobImportError("the format cannot be told from the file names: choose it")
            mapping = (self.mapping_edit.text().strip() or None) if fmt in ("csv", "xlsx") else None
            convert = self.convert.isChecked() and fmt != "orbat-mapper"
            res = import_oob(self.paths(), fmt, mapping=mapping, convert=convert)
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
    edit, nodes = import_edit(doc.scenario, dialog.imported.scenario, side_map, new_sides)
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
