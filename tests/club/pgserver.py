"""A throwaway PostgreSQL server for the club tests and ``bench/bench_club.py``.

``start()`` runs ``initdb`` on a temporary folder and ``pg_ctl start`` on a free port of
127.0.0.1 (trust authentication, nothing listening elsewhere), ``stop()`` stops it and removes
the folder. As root (initdb refuses to run as root) both run as the ``postgres`` user if there
is one, else ``nobody``, through ``runuser``. Binaries: ``$PG_BIN``, ``pg_config --bindir``,
``/usr/lib/postgresql/<newest>/bin`` or the PATH.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass

ADMIN = "bs_admin"
"""The server's superuser."""


class NoServer(RuntimeError):
    """No PostgreSQL server can be started here; the message says why."""


def find_bin() -> str:
    """The folder holding ``initdb`` and ``pg_ctl``, or NoServer."""
    candidates = [os.environ.get("PG_BIN", "")]
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        candidates.append(out.stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True)
    which = shutil.which("initdb")
    candidates.append(os.path.dirname(which) if which else "")
    for c in candidates:
        if c and os.path.isfile(os.path.join(c, "initdb")) and os.path.isfile(os.path.join(c, "pg_ctl")):
            return c
    raise NoServer("no PostgreSQL server binaries (initdb, pg_ctl): install Debian's postgresql package")


def _runuser() -> str | None:
    """util-linux's ``runuser`` (in /usr/sbin, often not on a user's PATH)."""
    found = shutil.which("runuser")
    return found or next((p for p in ("/usr/sbin/runuser", "/sbin/runuser") if os.path.exists(p)), None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    bin: str
    root: str
    port: int
    run_as: str | None

    @property
    def data(self) -> str:
        return os.path.join(self.root, "data")

    def url(self, database: str = "club", user: str = ADMIN, battle: int | None = None) -> str:
        tail = f"?battle={battle}" if battle is not None else ""
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}{tail}"

    def _cmd(self, *args: str) -> list[str]:
        prefix = [_runuser() or "runuser", "-u", self.run_as, "--"] if self.run_as else []
        return [*prefix, *args]

    def psql(self, sql: str, database: str = "club", user: str = ADMIN) -> str:
        """Run ``sql`` with psql; its output (unaligned, tuples only), or CalledProcessError."""
        out = subprocess.run(
            [
                os.path.join(self.bin, "psql"),
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                user,
                "-d",
                database,
                "-c",
                sql,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout

    def stop(self) -> None:
        subprocess.run(
            self._cmd(os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "immediate", "stop"), capture_output=True
        )
        shutil.rmtree(self.root, ignore_errors=True)


def start(databases: tuple[str, ...] = ("club",)) -> Server:
    """A running server with ``databases`` created (owned by ``ADMIN``); NoServer if not possible."""
    pg_bin = find_bin()
    run_as = None
    if os.geteuid() == 0:
        for name in ("postgres", "nobody"):
            try:
                pwd.getpwnam(name)
            except KeyError:
                continue
            run_as = name
            break
        if run_as is None or _runuser() is None:
            raise NoServer("running as root without a postgres or nobody user and runuser: initdb refuses root")
    root = tempfile.mkdtemp(prefix="bs-pg-")
    if run_as:
        entry = pwd.getpwnam(run_as)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    server = Server(pg_bin, root, free_port(), run_as)
    try:
        init = subprocess.run(
            server._cmd(
                os.path.join(pg_bin, "initdb"),
                "-D",
                server.data,
                "-U",
                ADMIN,
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
                "--no-sync",
            ),
            capture_output=True,
            text=True,
        )
        if init.returncode != 0:
            raise NoServer(f"initdb failed: {init.stderr.strip()[-400:]}")
        options = f"-p {server.port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60"
        started = subprocess.run(
            server._cmd(
                os.path.join(pg_bin, "pg_ctl"),
                "-D",
                server.data,
                "-o",
                options,
                "-l",
                os.path.join(root, "log"),
                "-w",
                "-t",
                "30",
                "start",
            ),
            capture_output=True,
            text=True,
        )
        if started.returncode != 0:
            log = open(os.path.join(root, "log")).read()[-400:] if os.path.exists(os.path.join(root, "log")) else ""
            raise NoServer(f"pg_ctl start failed: {started.stderr.strip()[-300:]} {log}")
        for db in databases:
            server.psql(f'CREATE DATABASE "{db}"', database="postgres")
    except BaseException:
        server.stop()
        raise
    return server
