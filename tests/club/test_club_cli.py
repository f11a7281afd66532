"""The club commands of the CLI against a real server: serve-init, publish, fetch, and info,
check, log reading a battle by URL; every error names the URL without its password and says
what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.cli import main
from battlestudio.store.codec import battle_to_doc
from tests.club import pgserver
from tests.club.conftest import JENA


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out.strip(), out.err.strip()


def test_serve_init_publish_then_info_check_log_and_fetch_by_url(
    pg: pgserver.Server, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    secret = pg.url().replace("bs_admin@", "bs_admin:s3cret@")  # trust auth: the password is not needed
    code, out, _ = _run(capsys, "serve-init", secret)
    assert code == 0 and "club tables and roles ready" in out and "s3cret" not in out
    code, url, _ = _run(capsys, "publish", str(JENA), secret)
    assert code == 0 and url.startswith(pg.url() + "?battle=") and "s3cret" not in url
    code, out, _ = _run(capsys, "info", url)
    assert code == 0 and f"{url}: Jena 1806 (1806-10-14, Jena, Thuringia), ruleset toe" in out
    assert "game log: 3586 events" in out
    code, out, err = _run(capsys, "check", url.replace("bs_admin@", "bs_admin:s3cret@"))
    assert code == 0 and "s3cret" not in out + err
    code, out, _ = _run(capsys, "log", url, "--turn", "1")
    assert code == 0 and "T1  06:00 french    orders" in out
    code, out, _ = _run(capsys, "fetch", url, str(tmp_path / "copy.battle"))
    assert code == 0 and "3586 events" in out
    assert battle_to_doc(store.load(tmp_path / "copy.battle")) == battle_to_doc(store.load(JENA))


def test_errors_name_the_url_without_its_password_and_say_what_to_do(
    pg: pgserver.Server, capsys: pytest.CaptureFixture[str]
) -> None:
    port = pgserver.free_port()  # nothing listens there
    cases = [
        (f"postgresql://anne:s3cret@127.0.0.1:{port}/club?battle=1", "start PostgreSQL or check the host and port"),
        (pg.url(database="nosuch", battle=1).replace("@", ":s3cret@"), "createdb nosuch"),
        (pg.url(user="nobody_here", battle=1), "CREATE ROLE nobody_here LOGIN"),
        (pg.url(database="postgres", battle=1), "run battlestudio serve-init"),
        (pg.url(battle=999), "no battle 999 on this server"),
        (pg.url(), "no battle in the URL: add ?battle=N"),
    ]
    for url, hint in cases:
        code, out, err = _run(capsys, "info", url)
        assert code == 1 and hint in err, (url, err)
        assert "s3cret" not in err + out and url.split("@")[1].split("/")[0] in err


def test_fetch_refuses_an_unknown_file_type_before_asking_the_server(
    pg: pgserver.Server, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = _run(capsys, "fetch", pg.url(battle=1), str(tmp_path / "copy.txt"))
    assert code == 1 and "unknown file type" in err
    code, _, err = _run(capsys, "publish", str(JENA), str(tmp_path / "x.battle"))
    assert code == 2 and "not a club URL" in err
