"""A real PostgreSQL server for the club tests (``pgserver``), started once per session.

Where no server can be started the club tests are skipped with one line saying why — except
under ``CI=true``, where that is an error: CI installs Debian's ``postgresql`` (``.ci/run``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from tests.club import pgserver

ROOT = Path(__file__).resolve().parents[2]
JENA = ROOT / "scenarios" / "jena-1806.battle.json"

UMPIRES = ("anne", "ben", "carl")
"""Login roles granted battlestudio_umpire."""
PLAYERS = {"pierre": "french", "karl": "prussian"}
"""Login roles granted battlestudio_player_<side>."""
SPECTATOR = "sam"


@pytest.fixture(scope="session")
def pg() -> Iterator[pgserver.Server]:
    """The running throwaway server, with ``serve_init`` done on its ``club`` database and the
    test's login roles made."""
    from battlestudio.store.club import serve_init

    try:
        server = pgserver.start()
    except pgserver.NoServer as exc:
        if os.environ.get("CI") == "true" or os.environ.get("BATTLESTUDIO_REQUIRE_PG") == "1":
            pytest.fail(f"CI=true (or BATTLESTUDIO_REQUIRE_PG=1) but no PostgreSQL server could be started: {exc}")
        pytest.skip(f"club tests need a PostgreSQL server: {exc}")
    try:
        serve_init(server.url())
        logins = [*UMPIRES, *PLAYERS, SPECTATOR]
        server.psql("; ".join(f"CREATE ROLE {name} LOGIN" for name in logins))
        server.psql("; ".join(f"GRANT battlestudio_umpire TO {name}" for name in UMPIRES))
        server.psql(f"GRANT battlestudio_spectator TO {SPECTATOR}")
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def jena() -> Battle:
    """The bundled Jena 1806 battle with its recorded game (3586 events)."""
    return store.load(JENA)


def publish(pg: pgserver.Server, battle: Battle, hidden: bool = False) -> str:
    """Publish ``battle`` (as the server's superuser) and return its URL as umpire ``anne``;
    ``hidden`` sets the house rule ``hidden_positions``; grants the player roles."""
    from dataclasses import replace

    from battlestudio.store.club import HIDDEN_POSITIONS, ClubURL
    from battlestudio.store.club.battles import publish_battle

    if hidden:
        scenario = battle.scenario.copy()
        scenario.info = replace(scenario.info, parameters={**scenario.info.parameters, HIDDEN_POSITIONS: True})
        battle = Battle(scenario, list(battle.events))
    battle_id = publish_battle(battle, ClubURL.parse(pg.url()))
    pg.psql("; ".join(f"GRANT battlestudio_player_{side} TO {name}" for name, side in PLAYERS.items()))
    return pg.url(user="anne", battle=battle_id)
