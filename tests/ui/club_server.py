"""A real PostgreSQL club server for the window's club tests (``tests/ui/test_club_*.py``).

``club_server`` (session-scoped) starts a throwaway server with ``tests.club.pgserver`` and runs
``serve_init`` on it; ``club_battle`` publishes the bundled Elchingen 1805 battle on it and gives
its URL. Where no server can be started the tests skip with one line saying why — except under
``CI=true``, where that is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.club import pgserver
from tests.ui.window_helpers import make_window

ELCHINGEN_JSON = os.path.join(os.path.dirname(__file__), "..", "..", "scenarios", "elchingen-1805.battle.json")


@pytest.fixture(scope="session")
def club_server() -> Iterator[pgserver.Server]:
    from battlestudio.store.club import serve_init

    try:
        server = pgserver.start()
    except pgserver.NoServer as exc:
        if os.environ.get("CI") == "true" or os.environ.get("BATTLESTUDIO_REQUIRE_PG") == "1":
            raise  # CI installs the server: no skip there (as tests/club/conftest.py)
        pytest.skip(f"no PostgreSQL server for the club tests: {exc}")
    try:
        serve_init(server.url())
        yield server
    finally:
        server.stop()


@pytest.fixture
def club_battle(club_server: pgserver.Server) -> str:
    """The URL (with ``battle=``) of a fresh copy of Elchingen 1805 on the server."""
    from battlestudio.store.club import publish

    battle = publish(ELCHINGEN_JSON, club_server.url())
    return club_server.url(battle=battle)


def club_window(qtbot, tmp_path, url: str, umpire: str, name: str):
    """A window (settings under ``tmp_path/name``) showing the club game ``url`` as ``umpire``."""
    from battlestudio.ui.club.document import ClubPlayDocument

    folder = tmp_path / name
    folder.mkdir()
    w = make_window(qtbot, folder)
    doc = w.club.open_url(url, umpire)
    assert isinstance(doc, ClubPlayDocument), f"{url} did not open"
    assert w.document is doc
    return w
