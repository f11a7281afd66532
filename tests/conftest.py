"""Shared by every test: lets the Qt-free tests run where pytest-qt is not installed.

``python3 dev.py test-pure`` runs them in a venv without PySide6 and pytest-qt; there the
``qt_api`` setting of pyproject.toml would be an unknown option, so it is declared here. The Qt
tests (``tests/ui``) need pytest-qt's ``qtbot`` and are not collected there.
"""

from __future__ import annotations

import importlib.util

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    if importlib.util.find_spec("pytestqt") is None:
        parser.addini("qt_api", "the Qt binding pytest-qt uses (pytest-qt is not installed here)")
