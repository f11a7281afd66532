"""The About dialog: version, licence, what BattleStudio is built with, and data credits.

The credits are gathered from the ``sources`` of every bundled scenario (``scenarios/``, found
through ``ui.resources``) and of the scenario that is open: each distinct source (same title,
url and licence) is listed once with the scenarios that use it. A bundled scenario that cannot
be read is named in the dialog with the reason; it never stops the dialog from opening.
"""

from __future__ import annotations

import html
import platform
from dataclasses import dataclass
from functools import lru_cache
from collections.abc import Iterable

import PySide6
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QTextBrowser, QVBoxLayout, QWidget

from battlestudio import __version__, store
from battlestudio.model.scenario import Scenario, Source
from battlestudio.ui.resources import bundled_scenarios, resource

APP_NAME = "BattleStudio"
LICENCE = "MIT"
"""BattleStudio's own licence (the ``license`` of pyproject.toml)."""

SUMMARY = "Scenario editor and battle replayer for Napoleonic grand-tactical wargames."

THIRD_PARTY = (
    ("Qt and PySide6", "LGPL-3.0", "pyside6-essentials"),
    ("networkx", "BSD-3-Clause", "networkx"),
    ("Shapely and GEOS", "BSD-3-Clause / LGPL-2.1", "shapely"),
    ("NumPy", "BSD-3-Clause", "numpy"),
    ("SQLModel and SQLAlchemy", "MIT", "sqlmodel"),
    ("psygnal", "BSD-3-Clause", "psygnal"),
    ("openpyxl", "MIT", "openpyxl"),
    ("Matplotlib", "Matplotlib licence (PSF-based)", "matplotlib"),
    ("Pillow", "MIT-CMU", "pillow"),
    ("pyproj and PROJ", "MIT", "pyproj"),
    ("jsonschema", "MIT", "jsonschema"),
    ("defusedxml", "PSF-2.0", "defusedxml"),
    ("psycopg and libpq", "LGPL-3.0 / PostgreSQL licence", "psycopg"),
)
"""(component, licence, PyPI distribution) of the libraries a packaged BattleStudio ships;
every runtime dependency of pyproject.toml is one of them (tests/ui/test_about.py)."""


@dataclass(frozen=True)
class Credit:
    """One data source and the titles of the scenarios whose data come from it."""

    source: Source
    scenarios: tuple[str, ...]


def gather_credits(scenarios: Iterable[Scenario]) -> list[Credit]:
    """Every distinct source of ``scenarios``, in order of first appearance.

    Sources with the same title, url and licence are one credit (their per-scenario notes
    differ: the first is kept); ``scenarios`` lists each scenario title once.
    """
    order: list[tuple[str, str, str]] = []
    first: dict[tuple[str, str, str], Source] = {}
    users: dict[tuple[str, str, str], list[str]] = {}
    for sc in scenarios:
        for src in sc.sources:
            key = (src.title, src.url, src.licence)
            if key not in first:
                order.append(key)
                first[key] = src
                users[key] = []
            if sc.info.title not in users[key]:
                users[key].append(sc.info.title)
    return [Credit(first[k], tuple(users[k])) for k in order]


@lru_cache(maxsize=1)
def _bundled() -> tuple[tuple[Scenario, ...], tuple[str, ...]]:
    found: list[Scenario] = []
    problems: list[str] = []
    for path in bundled_scenarios():
        try:
            found.append(store.load(path).scenario)
        except (store.BattleFileError, ValueError, OSError) as exc:
            problems.append(f"{path.name}: {exc}")
    return tuple(found), tuple(problems)


def bundled_credits() -> tuple[list[Scenario], list[str]]:
    """The bundled scenarios (read once per session) and a message per file that failed to load."""
    found, problems = _bundled()
    return list(found), list(problems)


def about_html(credits: list[Credit], problems: Iterable[str] = ()) -> str:
    """The dialog's body: version, licence, libraries and data credits, as Qt rich text."""
    e = html.escape
    parts = [
        f"<p>{e(SUMMARY)}</p>",
        f"<p>Version {e(__version__)} · Licence: {e(LICENCE)}<br>"
        f"Qt {e(qVersion())} · PySide6 {e(PySide6.__version__)} · Python {e(platform.python_version())}</p>",
        "<h3>Built with</h3><ul>",
        *(f"<li>{e(name)} — {e(lic)}</li>" for name, lic, _ in THIRD_PARTY),
        "</ul><h3>Scenario data</h3>",
    ]
    if not credits:
        parts.append("<p>No scenario sources are installed.</p>")
    else:
        parts.append("<ul>")
        for c in credits:
            s = c.source
            title = f'<a href="{e(s.url, quote=True)}">{e(s.title)}</a>' if s.url else e(s.title)
            licence = f" — {e(s.licence)}" if s.licence else ""
            used = f"<br><small>used in: {e(', '.join(c.scenarios))}</small>" if c.scenarios else ""
            parts.append(f"<li>{title}{licence}{used}</li>")
        parts.append("</ul>")
    problems = list(problems)
    if problems:
        parts.append("<p>Could not read:</p><ul>")
        parts.extend(f"<li>{e(p)}</li>" for p in problems)
        parts.append("</ul>")
    return "".join(parts)


class AboutDialog(QDialog):
    """``Help ▸ About BattleStudio``: icon, name and version, then ``about_html`` in a browser
    whose links open in the user's web browser.

    Parameters
    ----------
    parent : QWidget | None
    scenario : Scenario | None
        the open scenario, whose sources are credited with the bundled ones.
    """

    def __init__(self, parent: QWidget | None = None, scenario: Scenario | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"About {APP_NAME}")
        bundled, problems = bundled_credits()
        extra = [scenario] if scenario is not None and scenario.sources else []
        self.credits = gather_credits([*bundled, *extra])

        icon = QLabel()
        png = resource("icons", "battlestudio-128.png")
        if png is not None:
            icon.setPixmap(
                QPixmap(str(png)).scaled(
                    96, 96, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
                )
            )
        self.heading = QLabel(f"<h2>{APP_NAME} {html.escape(__version__)}</h2>")
        head = QHBoxLayout()
        head.addWidget(icon)
        head.addWidget(self.heading, 1)

        self.body = QTextBrowser()
        self.body.setOpenExternalLinks(True)
        self.body.setHtml(about_html(self.credits, problems))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(head)
        layout.addWidget(self.body, 1)
        layout.addWidget(buttons)
        self.resize(560, 520)


def show_about(parent: QWidget, scenario: Scenario | None = None) -> AboutDialog:
    """Open the About dialog window-modal over ``parent`` without blocking; it deletes itself
    when closed. Returns the dialog (tests inspect it)."""
    dialog = AboutDialog(parent, scenario)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog


__all__ = ["AboutDialog", "Credit", "LICENCE", "about_html", "bundled_credits", "gather_credits", "show_about"]
