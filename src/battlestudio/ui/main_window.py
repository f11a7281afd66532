"""MainWindow: the scenario editor's window around one Document.

It owns the map (``MapView``) as the central widget, the Order of battle, Properties, Layers and
Problems docks, the status bar (cursor in table cm and ground metres, zoom, tool hint), the
file commands (new, open, save, recent files, drag-and-drop of documents, export image), the
unsaved-changes prompt and autosave/recovery. Files go through ``battlestudio.store``; a file
that cannot be read or written is reported in a dialog and the open document is untouched.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QWidget

from battlestudio.document import Document
from battlestudio.edits import copy_records, paste_edit
from battlestudio.model.scenario import Scenario, ScenarioInfo, Side
from battlestudio.replay.battle import Battle
from battlestudio.ui.actions import Actions, app_icon, build_actions
from battlestudio.ui.file_commands import FileCommands
from battlestudio.ui.map_view import MapView
from battlestudio.ui.panels.layers_panel import LayersPanel
from battlestudio.ui.panels.oob_panel import OobPanel
from battlestudio.ui.panels.problems_panel import ProblemsPanel
from battlestudio.ui.panels.properties_panel import PropertiesPanel
from battlestudio.ui.recovery import Autosaver, RecoveryStore
from battlestudio.ui.settings import Settings
from battlestudio.ui.tools import delete_selection, make_tool, place_records

APP_NAME = "BattleStudio"
FIRST_START_SCREEN_SHARE = 0.9
"""Share of the screen's available width and height the window takes on first start."""
BOTTOM_DOCK_HEIGHT = 200
"""Default height (px) of the bottom dock area (Problems, Analysis, Replay) on first start."""


def new_battle() -> Battle:
    """An empty scenario on the default 240 × 180 cm table with two sides to start from."""
    s = Scenario(info=ScenarioInfo(title="Untitled"))
    s.sides = {"blue": Side("blue", "Blue", (), "#2a4fb0"), "red": Side("red", "Red", (), "#c03030")}
    return Battle(s)


class MainWindow(FileCommands, QMainWindow):
    """The editor window.

    Parameters
    ----------
    settings : Settings | None
        layout, recent files and autosave timing (default: the user's QSettings).
    recovery : RecoveryStore | None
        where autosaves go (default: the user's recovery folder).
    document : Document | None
        what to show first (default: a new empty scenario).
    """

    def __init__(self, settings: Settings | None = None, recovery: RecoveryStore | None = None,
                 document: Document | None = None) -> None:
        super().__init__()
        self.settings = settings or Settings()
        self.recovery = recovery or RecoveryStore()
        self.document = document or Document(new_battle())
        self.clip = None
        self.setObjectName("main_window")
        self.setWindowIcon(app_icon())
        self.setAcceptDrops(True)  # documents dropped on the window open (FileCommands)
        self.setDockNestingEnabled(True)

        self.map_view = MapView(self.document)
        self.setCentralWidget(self.map_view)
        self.oob_panel = OobPanel(self.document)
        self.properties_panel = PropertiesPanel(self.document)
        self.layers_panel = LayersPanel(self.map_view.set_layer_visible)
        self.problems_panel = ProblemsPanel(self.document)
        self.actions: Actions = build_actions(self)
        self.docks = {
            "oob": self.add_dock("dock_oob", "Order of battle", self.oob_panel, Qt.DockWidgetArea.LeftDockWidgetArea),
            "layers": self.add_dock("dock_layers", "Layers", self.layers_panel, Qt.DockWidgetArea.LeftDockWidgetArea),
            "properties": self.add_dock("dock_properties", "Properties", self.properties_panel,
                                     Qt.DockWidgetArea.RightDockWidgetArea),
            "problems": self.add_dock("dock_problems", "Problems", self.problems_panel,
                                   Qt.DockWidgetArea.BottomDockWidgetArea),
        }
        self.tabifyDockWidget(self.docks["oob"], self.docks["layers"])
        self.docks["oob"].raise_()

        self.cursor_label, self.zoom_label, self.hint_label = QLabel(), QLabel(), QLabel()
        self.problems_label = QLabel()
        self.cursor_label.setMinimumWidth(300)
        sb = self.statusBar()
        sb.addWidget(self.hint_label, 1)
        sb.addPermanentWidget(self.problems_label)
        sb.addPermanentWidget(self.cursor_label)
        sb.addPermanentWidget(self.zoom_label)

        self.map_view.cursor_moved.connect(self._on_cursor_moved)
        self.map_view.zoom_changed.connect(self._on_zoom_changed)
        self.map_view.hint_changed.connect(self.hint_label.setText)
        self.oob_panel.centre_requested.connect(self.centre_on)
        self.oob_panel.place_requested.connect(self.place_in_view)
        self.problems_panel.count_changed.connect(self._on_problem_count)
        self.problems_panel.centre_requested.connect(self.centre_on)
        self._on_problem_count(*self._problem_counts())

        self.autosaver = Autosaver(self.recovery, self.settings.autosave_interval_s(),
                                   self.settings.autosave_idle_s(), self)
        self.autosaver.failed.connect(lambda msg: self.statusBar().showMessage(msg, 10_000))
        self._bind(self.document)
        self.set_tool("select")
        from battlestudio.ui.command_view import CommandView

        self.command_view = CommandView(self)  # command overlay, Odds and Analysis docks
        from battlestudio.ui.play.controller import PlayView

        self.play_view = PlayView(self)  # Game menu and toolbar, Replay dock, recorded games
        self._restore_layout()

    @staticmethod
    def new_battle() -> Battle:
        """What New starts from."""
        return new_battle()

    def add_dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        """Put ``widget`` in a dock named ``name`` (its layout is kept with the window's) and list
        it in View ▸ Docks."""
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.docks_menu.addAction(dock.toggleViewAction())
        return dock

    # -- document binding ----------------------------------------------------------------
    def _bind(self, doc: Document, recovered: bool = False) -> None:
        doc.history_changed.connect(self._update_history)
        doc.path_changed.connect(self._update_title)
        doc.changed.connect(self._on_doc_changed)
        self.autosaver.set_document(doc, written=False)
        if recovered:
            self.autosaver.save_now()
        self._update_layers()
        self._update_history()

    def set_document(self, doc: Document, recovered: bool = False) -> None:
        """Show ``doc`` in every view (the previous document is dropped); a battle holding a
        recorded game opens ready to replay (``PlayView.wrap``)."""
        play = getattr(self, "play_view", None)  # None while the window is being built
        if play is not None:
            doc = play.wrap(doc)
        old = self.document
        old.history_changed.disconnect(self._update_history)
        old.path_changed.disconnect(self._update_title)
        old.changed.disconnect(self._on_doc_changed)
        self.document = doc
        self.map_view.set_document(doc)
        self.oob_panel.set_document(doc)
        self.properties_panel.set_document(doc)
        self.problems_panel.set_document(doc)
        self._bind(doc, recovered)
        self.command_view.set_document(doc)
        if play is not None:
            play.document_set(doc)  # Replay dock, map marks, Game actions
        self.map_view.fit_table()
        self._on_zoom_changed(self.map_view.zoom())

    def _on_doc_changed(self, changes: list) -> None:
        if any(c.kind in ("sides", "info") for c in changes):
            self._update_layers()

    def _update_layers(self) -> None:
        sides = {sid: s.name for sid, s in self.document.scenario.sides.items()}
        self.layers_panel.set_layers(self.map_view.layer_names(), sides)
        self.layers_panel.set_target(self.map_view.set_layer_visible)

    def _update_history(self) -> None:
        d, a = self.document, self.actions
        a["undo"].setEnabled(d.can_undo)
        a["undo"].setText(f"&Undo {d.undo_text}" if d.can_undo else "&Undo")
        a["redo"].setEnabled(d.can_redo)
        a["redo"].setText(f"&Redo {d.redo_text}" if d.can_redo else "&Redo")
        self._update_title()

    def document_name(self) -> str:
        """File name of the document, or "Untitled"."""
        return self.document.path.name if self.document.path else "Untitled"

    def _update_title(self) -> None:
        self.setWindowTitle(f"{self.document_name()}[*] — {APP_NAME}")
        self.setWindowModified(self.document.is_modified)

    # -- status bar ----------------------------------------------------------------------
    def _on_cursor_moved(self, x: float, y: float) -> None:
        m = self.document.scenario.info.ground_scale
        self.cursor_label.setText(f"x {x:.1f} cm, y {y:.1f} cm  ·  ground {x * m:,.0f} m, {y * m:,.0f} m")

    def _on_zoom_changed(self, px_per_cm: float) -> None:
        hundred = self.map_view.logicalDpiX() / 2.54
        self.zoom_label.setText(f"Zoom {100.0 * px_per_cm / hundred:.0f} %")

    def _problem_counts(self) -> tuple[int, int]:
        errors = sum(p.severity == "error" for p in self.problems_panel.problems)
        return errors, len(self.problems_panel.problems) - errors

    def _on_problem_count(self, errors: int, warnings: int) -> None:
        self.problems_label.setText(f"{errors} errors, {warnings} warnings" if errors or warnings else "No problems")

    # -- edit commands -------------------------------------------------------------------
    def undo(self) -> None:
        self.document.undo()

    def redo(self) -> None:
        self.document.redo()

    def copy(self) -> None:
        clip = copy_records(self.document.scenario, self.document.selection)
        if len(clip):
            self.clip = clip

    def cut(self) -> None:
        self.copy()
        delete_selection(self.document)

    def paste(self) -> None:
        made = paste_edit(self.document.scenario, self.clip) if self.clip is not None else None
        if made is not None:
            edit, ids = made
            self.document.push(edit)
            self.document.set_selection(ids)

    def duplicate(self) -> None:
        made = paste_edit(self.document.scenario, copy_records(self.document.scenario, self.document.selection))
        if made is not None:
            edit, ids = made
            edit.text = edit.text.replace("Paste", "Duplicate", 1)
            self.document.push(edit)
            self.document.set_selection(ids)

    def delete(self) -> None:
        delete_selection(self.document)

    def select_all(self) -> None:
        s = self.document.scenario
        self.document.set_selection({*s.units, *s.commanders, *s.terrain, *s.towns, *s.objectives})

    # -- view commands -------------------------------------------------------------------
    def zoom_in(self) -> None:
        self.map_view.zoom_by(1.25)

    def zoom_out(self) -> None:
        self.map_view.zoom_by(1 / 1.25)

    def zoom_fit(self) -> None:
        self.map_view.fit_table()

    def zoom_100(self) -> None:
        self.map_view.actual_size()

    def set_snap(self, on: bool) -> None:
        self.map_view.snap_to_grid = bool(on)

    def set_tool(self, name: str) -> None:
        """Make tool ``name`` current (see ``battlestudio.ui.tools.tool_names``)."""
        self.map_view.set_tool(make_tool(name))
        self.actions.tools[name].setChecked(True)

    def centre_on(self, rid: str) -> None:
        """Centre the map on a record: a unit's or commander's position, else its shape's centre."""
        s = self.document.scenario
        rec = s.record(rid) or s.terrain.get(rid) or s.towns.get(rid) or s.objectives.get(rid)
        if rec is None:
            return
        if hasattr(rec, "position"):
            self.map_view.centre_on_table(rec.position)
        else:
            c = getattr(rec, "geometry", None) or rec.polygon
            self.map_view.centre_on_table((c.centroid.x, c.centroid.y))

    def place_in_view(self, ids: list[str]) -> None:
        centre = self.map_view.table_pos(self.map_view.viewport().rect().center())
        place_records(self.document, ids, centre)

    def about(self) -> None:
        from battlestudio.ui.about import show_about

        show_about(self, self.document.scenario)

    # -- window --------------------------------------------------------------------------
    def _restore_layout(self) -> None:
        geometry, state = self.settings.window_state()
        if geometry is None or not self.restoreGeometry(geometry):
            self._first_geometry()
        self._default_layout = state is None or not self.restoreState(state)

    def _first_geometry(self) -> None:
        """First start (no saved layout): ``FIRST_START_SCREEN_SHARE`` of the screen's available
        area, centred on it (1280 × 820 px when no screen is known)."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            self.resize(1280, 820)
            return
        area = screen.availableGeometry()
        w, h = round(area.width() * FIRST_START_SCREEN_SHARE), round(area.height() * FIRST_START_SCREEN_SHARE)
        self.resize(w, h)
        self.move(area.x() + (area.width() - w) // 2, area.y() + (area.height() - h) // 2)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if self._default_layout:  # first start: docks at a sensible size around the map
            self._default_layout = False
            self._size_default_docks()
            QTimer.singleShot(0, self._size_default_docks)  # again once the layout has its size

    def _size_default_docks(self) -> None:
        """Side docks about 300 px wide, the bottom (Problems/Analysis/Replay) area
        ``BOTTOM_DOCK_HEIGHT`` px high; the map gets the rest."""
        self.resizeDocks([self.docks["oob"], self.docks["properties"]], [300, 320], Qt.Orientation.Horizontal)
        self.resizeDocks([self._bottom_dock()], [BOTTOM_DOCK_HEIGHT], Qt.Orientation.Vertical)

    def _bottom_dock(self) -> QDockWidget:
        """The bottom dock shown on top of its tab group (the one the dock area sizes by)."""
        area = Qt.DockWidgetArea.BottomDockWidgetArea
        shown = [d for d in self.findChildren(QDockWidget)
                 if self.dockWidgetArea(d) == area and d.isVisible() and not d.visibleRegion().isEmpty()]
        return shown[0] if shown else self.docks["problems"]

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if not self.maybe_save():
            event.ignore()
            return
        self.settings.set_window_state(self.saveGeometry(), self.saveState())
        self.recovery.discard()
        event.accept()
