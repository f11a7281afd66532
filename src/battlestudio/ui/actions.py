"""The main window's actions, menus and toolbars, declared in one place.

``build_actions`` creates every ``QAction`` (with standard shortcuts from ``QKeySequence``),
connects it to a command of the window or of its ``FileCommands``, and lays out the menu bar and
toolbars. The window keeps the returned ``Actions`` to enable, disable and relabel them; View ▸
Docks (``Actions.docks_menu``) is where its ``DockHost`` lists the docks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QIcon, QKeySequence
from PySide6.QtWidgets import QMenu, QStyle, QToolBar, QToolButton

from battlestudio.ui.geojson_export import export_geojson
from battlestudio.ui.georef_dialog import edit_georeference
from battlestudio.ui.import_dialog import import_file
from battlestudio.ui.orbat_mapper_dialogs import export_orbat_mapper_file, import_orbat_mapper_file
from battlestudio.ui.tool_icons import tool_icon
from battlestudio.ui.tools import SETUP_TOOLS, tool_names
from battlestudio.ui.tools.deploy import ask_interval

if TYPE_CHECKING:
    from battlestudio.ui.file_commands import FileCommands
    from battlestudio.ui.main_window import MainWindow

SK = QKeySequence.StandardKey
INTERVAL_TIP = "Interval between units, and gap in column, that the deployment tools leave (cm)"
IMPORT_TIP = "Import an order of battle (republique5, CSV, XLSX, fogofwar, ORBAT Mapper) into a new or open document"

TOOL_LABELS = {
    "select": ("Select / move", "S"),
    "rotate": ("Rotate", "R"),
    "vertices": ("Edit vertices", "V"),
    "town": ("Town zone", "T"),
    "measure": ("Measure", "M"),
    "delete": ("Delete tool", "X"),
    "zone": ("Deployment zone", "Z"),
    "objective": ("Objective", "O"),
    "reinforcement": ("Reinforcement", "E"),
    "deploy_line": ("Deploy on line", "L"),
    "deploy_zone": ("Deploy in zone", "D"),
    "march_column": ("March column", "C"),
}
"""Label and single-key shortcut of each non-drawing tool."""


def tool_label(name: str) -> str:
    """Menu label of tool ``name`` (``draw:woods`` → ``Draw woods``)."""
    if name.startswith("draw:"):
        return "Draw " + name.split(":", 1)[1].replace("_", " ")
    return TOOL_LABELS.get(name, (name.capitalize(), ""))[0]


@dataclass
class Actions:
    """Every action of the main window, by name (e.g. ``actions["undo"]``)."""

    by_name: dict[str, QAction] = field(default_factory=dict)
    tools: dict[str, QAction] = field(default_factory=dict)
    tool_group: QActionGroup | None = None
    recent_menu: QMenu | None = None
    docks_menu: QMenu | None = None

    def __getitem__(self, name: str) -> QAction:
        return self.by_name[name]


def build_actions(w: MainWindow, files: FileCommands) -> Actions:
    """Create the actions of ``w`` (edit, view, tool commands) and of ``files`` (file commands),
    ``w``'s menus and its toolbars."""
    acts = Actions()
    style = w.style()
    standard_actions: list[QAction] = []
    explicit_keys: list[QAction] = []

    def make(
        name: str,
        text: str,
        slot: Callable,
        keys=None,
        icon: QStyle.StandardPixmap | None = None,
        tip: str = "",
        checkable: bool = False,
    ) -> QAction:
        a = QAction(text, w)
        a.setObjectName(f"action_{name}")
        if keys is not None:
            standard = isinstance(keys, QKeySequence.StandardKey)
            a.setShortcuts(QKeySequence.keyBindings(keys) if standard else [QKeySequence(keys)])
            (standard_actions if standard else explicit_keys).append(a)
        if icon is not None:
            a.setIcon(style.standardIcon(icon))
        a.setStatusTip(tip or text.replace("&", "").rstrip("…"))
        a.setCheckable(checkable)
        if checkable:
            a.toggled.connect(slot)
        else:
            a.triggered.connect(lambda _checked=False: slot())
        acts.by_name[name] = a
        return a

    P = QStyle.StandardPixmap
    make("new", "&New", files.new_document, SK.New, P.SP_FileIcon, "Start a new, empty scenario")
    make("open", "&Open…", files.open_dialog, SK.Open, P.SP_DialogOpenButton, "Open a .battle or .battle.json file")
    make("save", "&Save", files.save, SK.Save, P.SP_DialogSaveButton)
    make("save_as", "Save &As…", files.save_as, SK.SaveAs)
    make(
        "export_image",
        "&Export Map Image…",
        files.export_image,
        None,
        None,
        "Save the map as PNG, SVG or PDF: region, paper, scale, DPI",
    )
    make("quit", "&Quit", w.close, SK.Quit)
    make("undo", "&Undo", w.undo, SK.Undo, P.SP_ArrowBack)
    make("redo", "&Redo", w.redo, SK.Redo, P.SP_ArrowForward)
    make("cut", "Cu&t", w.cut, SK.Cut)
    make("copy", "&Copy", w.copy, SK.Copy)
    make("paste", "&Paste", w.paste, SK.Paste)
    make("duplicate", "&Duplicate", w.duplicate, "Ctrl+D")
    make("delete", "&Delete", w.delete, SK.Delete, P.SP_TrashIcon)
    make("select_all", "Select &All", w.select_all, SK.SelectAll)
    make("zoom_in", "Zoom &In", w.zoom_in, SK.ZoomIn)
    make("zoom_out", "Zoom &Out", w.zoom_out, SK.ZoomOut)
    make("zoom_fit", "&Fit Table", w.zoom_fit, "Ctrl+0")
    make("zoom_100", "Zoom &100 %", w.zoom_100, "Ctrl+1", None, "One table centimetre is one centimetre on screen")
    make("snap", "S&nap to Grid", w.set_snap, None, None, "Snap placed and moved points to a 5 cm grid", checkable=True)

    m = w.menuBar()
    file_menu = m.addMenu("&File")
    file_menu.addActions([acts["new"], acts["open"]])
    acts.recent_menu = file_menu.addMenu("Open &Recent")
    acts.recent_menu.setObjectName("menu_recent")
    recent = acts.recent_menu
    recent.aboutToShow.connect(lambda: files.fill_recent_menu(recent))
    file_menu.addSeparator()
    file_menu.addActions([acts["save"], acts["save_as"], acts["export_image"]])
    file_menu.addAction(make("export_geojson", "Export &GeoJSON…", lambda: export_geojson(w)))
    file_menu.addAction(make("import", "&Import…", lambda: import_file(w), "Ctrl+I", None, IMPORT_TIP))
    file_menu.addAction(make("import_orbat_mapper", "&Import ORBAT Mapper…", lambda: import_orbat_mapper_file(files)))
    file_menu.addAction(make("export_orbat_mapper", "Export ORBAT &Mapper…", lambda: export_orbat_mapper_file(files)))
    file_menu.addSeparator()
    file_menu.addAction(acts["quit"])
    edit_menu = m.addMenu("&Edit")
    edit_menu.addActions([acts["undo"], acts["redo"]])
    edit_menu.addSeparator()
    edit_menu.addActions([acts[n] for n in ("cut", "copy", "paste", "duplicate", "delete")])
    edit_menu.addSeparator()
    edit_menu.addAction(acts["select_all"])
    edit_menu.addAction(make("georeference", "&Georeference…", lambda: edit_georeference(w)))
    view_menu = m.addMenu("&View")
    view_menu.addActions([acts[n] for n in ("zoom_in", "zoom_out", "zoom_fit", "zoom_100")])
    view_menu.addSeparator()
    view_menu.addAction(acts["snap"])
    view_menu.addSeparator()
    acts.docks_menu = view_menu.addMenu("&Docks")

    tools_menu = m.addMenu("&Tools")
    draw_menu = QMenu("&Draw Terrain", w)
    setup_menu = QMenu("Scenario &Set-up", w)
    group = QActionGroup(w)
    group.setExclusive(True)
    for name in tool_names():
        a = QAction(tool_label(name), w)
        a.setObjectName(f"tool_{name}")
        a.setCheckable(True)
        a.setData(name)
        a.setIcon(tool_icon(name))
        a.setToolTip(tool_label(name))
        key = TOOL_LABELS.get(name, ("", ""))[1]
        if key:
            a.setShortcut(QKeySequence(key))
        a.triggered.connect(lambda _c=False, n=name: w.set_tool(n))
        group.addAction(a)
        acts.tools[name] = a
        menu = draw_menu if name.startswith("draw:") else setup_menu if name in SETUP_TOOLS else tools_menu
        menu.addAction(a)
    tools_menu.addSeparator()
    tools_menu.addMenu(draw_menu)
    tools_menu.addMenu(setup_menu)
    tools_menu.addAction(
        make("deploy_interval", "Deployment &Interval…", lambda: ask_interval(w), None, None, INTERVAL_TIP)
    )
    acts.tool_group = group

    help_menu = m.addMenu("&Help")
    make("about", "&About BattleStudio", w.about)
    help_menu.addAction(acts["about"])

    main_bar = QToolBar("Main", w)
    main_bar.setObjectName("toolbar_main")
    main_bar.addActions([acts[n] for n in ("new", "open", "save")])
    main_bar.addSeparator()
    main_bar.addActions([acts["undo"], acts["redo"]])
    w.addToolBar(main_bar)
    tool_bar = QToolBar("Tools", w)
    tool_bar.setObjectName("toolbar_tools")
    tool_bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    for name in ("select", "rotate", "vertices"):
        tool_bar.addAction(acts.tools[name])
    draw_button = QToolButton(tool_bar)
    draw_button.setMenu(draw_menu)
    draw_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
    draw_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    _steady_width(draw_button, draw_menu, acts.tools["draw:woods"])
    tool_bar.addWidget(draw_button)
    for name in ("town", "measure", "delete"):
        tool_bar.addAction(acts.tools[name])
    setup_button = QToolButton(tool_bar)  # one drop-down: the toolbar stays within 1600 px
    setup_button.setObjectName("setup_button")
    setup_button.setMenu(setup_menu)
    setup_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
    setup_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    _steady_width(setup_button, setup_menu, acts.tools["zone"])
    tool_bar.addWidget(setup_button)
    tool_bar.addSeparator()
    tool_bar.addActions([acts[n] for n in ("zoom_in", "zoom_out", "zoom_fit")])
    w.addToolBar(tool_bar)
    _drop_clashing_bindings(standard_actions, [*explicit_keys, *acts.tools.values()])
    return acts


def _drop_clashing_bindings(standard: list[QAction], explicit: list[QAction]) -> None:
    """Remove from the platform's standard bindings of ``standard`` every key another action
    was given explicitly: the X11 table binds Delete to Ctrl+D too, which made Ctrl+D an
    "Ambiguous shortcut overload" between Delete and Duplicate on xcb."""
    taken = {k.toString() for a in explicit for k in a.shortcuts()}
    for a in standard:
        keep = [k for k in a.shortcuts() if k.toString() not in taken]
        if len(keep) != len(a.shortcuts()):
            a.setShortcuts(keep)


def app_icon() -> QIcon:
    """The application icon from resources/ (an empty icon when none is installed)."""
    from battlestudio.ui.resources import resource

    p = resource("icons", "battlestudio.svg") or resource("icons", "battlestudio.png")
    return QIcon(str(p)) if p else QIcon()


def _steady_width(button: QToolButton, menu: QMenu, first: QAction) -> None:
    """Make ``button`` show the last tool picked from ``menu``, at the width of its widest
    label: the buttons after it never move under the pointer when the label changes."""
    widest = 0
    for action in menu.actions():
        button.setDefaultAction(action)
        widest = max(widest, button.sizeHint().width())
    button.setDefaultAction(first)
    button.setFixedWidth(widest)
    menu.triggered.connect(button.setDefaultAction)
