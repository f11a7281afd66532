"""MainWindow: the scenario editor's window around one Document.

It owns the map (``MapView``) as the central widget, the Order of battle, Properties, Layers and
Problems docks, the status bar (cursor in table cm and ground metres, zoom, tool hint), the edit
and view commands, the unsaved-changes prompt on close and autosave/recovery, and composes the
rest: ``FileCommands`` (new, open, save, recent files, export image, recovery copies; files go
through ``battlestudio.store``), ``CommandView`` (command overlay, Odds and Analysis docks) and
``PlayView`` (Game menu, Replay dock). Each gets what it uses — the map view, a ``DockHost``, a
status callback — never the window. The window shows a document with ``set_document`` and
announces it (``document_changed``); every view and controller follows that signal, and asks for
a document to be shown through its own signals (``document_opened``, ``document_requested``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QGuiApplication
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMenu

from battlestudio.document import Document, paste_into
from battlestudio.edits import MAP_KINDS, copy_records, paste_edit
from battlestudio.ui.actions import Actions, app_icon, build_actions
from battlestudio.ui.club.view import ClubView
from battlestudio.ui.command_view import CommandView
from battlestudio.ui.dock_host import DockHost
from battlestudio.ui.file_commands import FileCommands, document_name, dropped_file, new_battle
from battlestudio.ui.layouts import Layouts
from battlestudio.ui.map_view import MapView
from battlestudio.ui.panels.layers_panel import LayersPanel
from battlestudio.ui.panels.oob_panel import OobPanel
from battlestudio.ui.panels.places_panel import PlacesPanel
from battlestudio.ui.panels.problems_panel import ProblemsPanel
from battlestudio.ui.panels.properties_panel import PropertiesPanel
from battlestudio.ui.panels.sides_panel import SidesPanel
from battlestudio.ui.play.controller import PlayView
from battlestudio.ui.recovery import Autosaver, RecoveryStore
from battlestudio.ui.settings import Settings
from battlestudio.ui.play.cursor_memory import CursorMemory
from battlestudio.ui.tools import delete_selection, make_tool, place_records

APP_NAME = "BattleStudio"
FIRST_START_SCREEN_SHARE = 0.9
"""Share of the screen's available width and height the window takes on first start."""
BOTTOM_DOCK_HEIGHT = 200
"""Default height (px) of the bottom dock area (Problems, Analysis, Replay) on first start."""


class MainWindow(QMainWindow):
    """The editor window.

    Parameters
    ----------
    settings : Settings | None
        layout, recent files and autosave timing (default: the user's QSettings).
    recovery : RecoveryStore | None
        where autosaves go (default: the user's recovery folder).
    document : Document | None
        what to show first (default: a new empty scenario); one holding a recorded game opens
        ready to replay.

    Signals
    -------
    document_changed(object)
        the window shows this ``Document`` now (once per ``set_document``, after which every
        view shows it).
    """

    document_changed = Signal(object)

    def __init__(
        self, settings: Settings | None = None, recovery: RecoveryStore | None = None, document: Document | None = None
    ) -> None:
        super().__init__()
        self.settings = settings or Settings()
        self.recovery = recovery or RecoveryStore()
        self.document = document or Document(new_battle())
        self.clip = None
        self.clip_ruleset: str | None = None
        self.setObjectName("main_window")
        self.setWindowIcon(app_icon())
        self.setAcceptDrops(True)  # documents dropped on the window open (dropEvent)
        self.setDockNestingEnabled(True)
        show_status = self.statusBar().showMessage

        self.map_view = MapView(self.document)
        self.setCentralWidget(self.map_view)
        self.oob_panel = OobPanel(self.document)
        self.properties_panel = PropertiesPanel(self.document)
        self.layers_panel = LayersPanel(self.map_view.set_layer_visible)
        self.problems_panel = ProblemsPanel(self.document)
        self.sides_panel = SidesPanel(self.document)
        self.places_panel = PlacesPanel(self.document)
        self.files = FileCommands(self.document, self.map_view, self.settings, self.recovery, show_status, self)
        self.actions: Actions = build_actions(self, self.files)
        assert self.actions.docks_menu is not None
        self.dock_host = DockHost(self, self.actions.docks_menu)
        view_menu = self.actions.docks_menu.parentWidget()
        assert isinstance(view_menu, QMenu)
        self.layouts = Layouts(self, self.settings, view_menu)  # View ▸ Layout ▸ Analysis
        add = self.dock_host.add_dock
        area = Qt.DockWidgetArea
        self.docks = {
            "oob": add("dock_oob", "Order of battle", self.oob_panel, area.LeftDockWidgetArea),
            "layers": add("dock_layers", "Layers", self.layers_panel, area.LeftDockWidgetArea),
            "properties": add("dock_properties", "Properties", self.properties_panel, area.RightDockWidgetArea),
            "problems": add("dock_problems", "Problems", self.problems_panel, area.BottomDockWidgetArea),
            "sides": add("dock_sides", "Sides", self.sides_panel, area.LeftDockWidgetArea),
            "places": add("dock_places", "Places", self.places_panel, area.LeftDockWidgetArea),
        }
        self.dock_host.tabify("dock_oob", self.docks["layers"])
        self.dock_host.tabify("dock_oob", self.docks["sides"])
        self.dock_host.tabify("dock_oob", self.docks["places"])

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
        self.problems_panel.waiting.connect(lambda: self.problems_label.setText("Checking…"))
        self.problems_panel.centre_requested.connect(self.centre_on)
        self.places_panel.centre_requested.connect(self.centre_on)
        self._on_problem_count(*self._problem_counts())

        self.autosaver = Autosaver(
            self.recovery, self.settings.autosave_interval_s(), self.settings.autosave_idle_s(), self
        )
        self.autosaver.failed.connect(lambda msg: show_status(msg, 10_000))
        self.set_tool("select")
        self.command_view = CommandView(self.map_view, self.dock_host, self.document)
        self.play_view = PlayView(self.map_view, self.dock_host, show_status, self.document, self)
        self.play_view.check.keyframe_checked.connect(self._game_checked_to_cursor)
        self.cursor_memory = CursorMemory(self.settings, self)  # a game reopens where it was last shown
        self.club = ClubView(self.map_view, self.dock_host, show_status, self.settings, self.play_view.toolbar, self)
        self.club.maybe_save = self.files.maybe_save
        sb.insertPermanentWidget(0, self.club.status_label)  # who umpires, who is busy (a club game only)
        self.oob_panel.menu_hooks.append(self.club.context_entries)
        recent = self.actions.recent_menu
        assert recent is not None
        recent.parentWidget().insertAction(recent.menuAction(), self.club.open_action)  # File ▸ Open Club Game…
        recent.aboutToShow.connect(lambda: self.club.fill_recent_menu(recent))  # after the files

        # attributes down: every view follows the shown document, in this order
        for follow in (
            self.map_view.set_document,
            self.oob_panel.set_document,
            self.properties_panel.set_document,
            self.problems_panel.set_document,
            self.sides_panel.set_document,
            self.places_panel.set_document,
            self.files.set_document,
            self.command_view.set_document,
            self.play_view.document_set,
            self.cursor_memory.follow,
            self.club.follow,
        ):
            self.document_changed.connect(follow)
        # messages up: what the controllers ask of the window
        self.files.document_opened.connect(self.set_document)
        self.play_view.document_requested.connect(self.set_document)
        self.club.document_opened.connect(self.set_document)
        self.play_view.centre_requested.connect(self.centre_on)
        self.play_view.problems_found.connect(self.problems_panel.set_extra_problems)
        analysis = self.command_view.analysis_panel
        self.play_view.frame_pending.connect(analysis.hold)
        self.play_view.frame_done.connect(analysis.release)
        self.play_view.frame_done.connect(self.problems_panel.release)  # a game's scenario: after the map
        self.play_view.frame_done.connect(self.command_view.release)  # a game's command overlay: after the map
        self.play_view.frame_done.connect(self.oob_panel.release)  # a game's tree expanded: after the map

        self._bind(self.document)
        wrapped = self.play_view.wrap(self.document)
        if wrapped is not self.document:
            self.set_document(wrapped)
        self._restore_layout()

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
        """Show ``doc`` (the previous document is dropped) and announce it (``document_changed``);
        a battle holding a recorded game opens ready to replay (``PlayView.wrap``)."""
        doc = self.play_view.wrap(doc)
        old = self.document
        old.history_changed.disconnect(self._update_history)
        old.path_changed.disconnect(self._update_title)
        old.changed.disconnect(self._on_doc_changed)
        self.document = doc
        self.document_changed.emit(doc)
        self._bind(doc, recovered)
        self.map_view.fit_table()
        self._on_zoom_changed(self.map_view.zoom())
        QTimer.singleShot(0, self.dock_host.hide_stale_tab_bars)  # play shows docks of its own

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
        return document_name(self.document)

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
            self.clip_ruleset = self.document.scenario.info.ruleset  # a paste elsewhere converts

    def cut(self) -> None:
        self.copy()
        delete_selection(self.document)

    def paste(self) -> None:
        if self.clip is None:
            return
        from battlestudio.edits.clipboard import side_mapping
        from battlestudio.ui.paste_sides_dialog import ask_paste_sides

        sc = self.document.scenario
        sides, unmatched = side_mapping(sc, self.clip)
        new_sides: dict = {}
        if unmatched:  # another document's sides: the user says where they go
            answer = ask_paste_sides(self, sc, self.clip, sides, unmatched)
            if answer is None:
                return
            sides, new_sides = answer
        made = paste_into(sc, self.clip, self.clip_ruleset, sides=sides, new_sides=new_sides)
        if made is not None:
            edit, ids = made
            self.document.push(edit)
            self.document.set_selection(ids)
            moved = [f"{self.clip.sides[a].name} → {sc.sides[b].name}" for a, b in sides.items() if a != b]
            if moved:
                self.statusBar().showMessage("Pasted onto the sides of this document: " + ", ".join(moved), 10_000)

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
        self.document.set_selection({i for kind in MAP_KINDS for i in getattr(s, kind)})

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
        rec = s.record(rid) or next((getattr(s, k)[rid] for k in MAP_KINDS if rid in getattr(s, k)), None)
        if rec is None:
            return
        if hasattr(rec, "position"):
            self.map_view.centre_on_table(rec.position)
        elif hasattr(rec, "entry_point"):
            self.map_view.centre_on_table(rec.entry_point)
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
        QTimer.singleShot(0, self.dock_host.hide_stale_tab_bars)  # once the docks have their places
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
        shown = [
            d
            for d in self.findChildren(QDockWidget)
            if self.dockWidgetArea(d) == area and d.isVisible() and not d.visibleRegion().isEmpty()
        ]
        return shown[0] if shown else self.docks["problems"]

    def _game_checked_to_cursor(self, _play: object) -> None:
        """The idle check replayed the events before the stored keyframe: the tree lists the
        units eliminated and removed before the cursor now."""
        if self.oob_panel.model is not None:
            self.oob_panel.model.rebuild()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if not self.files.maybe_save():
            event.ignore()
            return
        self.cursor_memory.write()
        self.club.close()
        self.settings.set_window_state(self.saveGeometry(), self.saveState())
        self.recovery.discard()
        event.accept()

    # -- dropping files on the window ----------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt API
        if dropped_file(event) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt API
        path = dropped_file(event)
        if path is None:
            event.ignore()
            return
        event.acceptProposedAction()
        self.files.open_path(path)
