"""Application entry: ``run(path)`` creates the QApplication and the MainWindow.

The CLI calls ``run`` (importing Qt only then). With no path the bundled default scenario is
opened (``ui.resources.default_scenario``), unless a recovery copy from an editor that did not
close normally is restored first.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from battlestudio.store.club import is_club_url
from battlestudio.ui.actions import app_icon
from battlestudio.ui.main_window import APP_NAME, MainWindow
from battlestudio.ui.resources import default_scenario
from battlestudio.ui.recovery import RecoveryStore
from battlestudio.ui.settings import APPLICATION, ORGANIZATION, Settings

DESKTOP_ID = "io.github.battlestudio.BattleStudio"
"""The freedesktop application id: name of the .desktop entry, AppStream id and icon name
(packaging/linux/); on Wayland it ties the window to its launcher."""


def create(
    path: str | None = None,
    argv: list[str] | None = None,
    settings: Settings | None = None,
    recovery: RecoveryStore | None = None,
) -> tuple[QApplication, MainWindow]:
    """The application and its shown main window, with ``path`` (or the default scenario) open.

    Recovery copies are offered before anything is opened; a file given on the command line
    is not opened when a copy was restored. ``settings`` and ``recovery`` default to the
    user's own (tests pass isolated ones). A file that cannot be opened is reported in a
    dialog and the window starts with a new, empty scenario.
    """
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName(APP_NAME)
    app.setDesktopFileName(DESKTOP_ID)
    app.setWindowIcon(app_icon())
    given = {"settings": settings, "recovery": recovery}
    window = MainWindow(**{k: v for k, v in given.items() if v is not None})
    window.show()
    restored = window.files.offer_recovery()
    if not restored and path and is_club_url(path):
        window.club.open_url(path)  # postgresql://host/db?battle=N: a club game
    elif not restored:
        target = Path(path) if path else default_scenario()
        if target is not None:
            window.files.open_path(target, ask=False)
    window.map_view.fit_table()
    return app, window


def run(path: str | None = None) -> int:
    """Start the editor on ``path`` (a ``.battle`` or ``.battle.json`` file, or a club URL
    ``postgresql://host/db?battle=N``) and run it.

    Returns
    -------
    int
        the Qt event loop's exit code.
    """
    app, window = create(path)
    code = app.exec()
    del window
    return int(code)
