"""The command table and the dispatch: parse, run, and turn every failure into one line and an exit code."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from battlestudio import __version__
from battlestudio.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    Command,
    Problem,
    UsageError,
    fail,
    hide_passwords,
    is_club_arg,
    one_line,
    silence_stdout,
)

if TYPE_CHECKING:
    pass


from battlestudio.cli.club import (
    _args_fetch,
    _args_publish,
    _args_serve_init,
    _cmd_fetch,
    _cmd_publish,
    _cmd_serve_init,
)
from battlestudio.cli.files import (
    _args_check,
    _args_convert,
    _args_info,
    _args_open,
    _cmd_check,
    _cmd_convert,
    _cmd_info,
    _cmd_open,
)
from battlestudio.cli.game import _args_log, _args_orders, _args_replay, _cmd_log, _cmd_orders, _cmd_replay
from battlestudio.cli.interchange import _args_export, _args_import_oob, _cmd_export, _cmd_import_oob
from battlestudio.cli.pictures import _args_export_map, _args_report, _cmd_export_map, _cmd_report

COMMANDS: list[Command] = [
    Command("open", "open the BattleStudio window (the default command)", _args_open, _cmd_open),
    Command(
        "check",
        "report every problem in a battle file (errors and warnings); exit 1 if there is an error",
        _args_check,
        _cmd_check,
    ),
    Command("info", "count sides, commanders, units, men, guns, terrain, towns, turns, events", _args_info, _cmd_info),
    Command("convert", "convert between .battle and .battle.json", _args_convert, _cmd_convert),
    Command(
        "orders",
        "standing orders, order budgets and who is out of command (rulesets with an orders report)",
        _args_orders,
        _cmd_orders,
    ),
    Command("log", "print the recorded game, one line per event, every roll with its explanation", _args_log, _cmd_log),
    Command(
        "replay",
        "render the map at a point of the recorded game (TURN[:SIDE[:PHASE]][:start|:end]) as a PNG",
        _args_replay,
        _cmd_replay,
    ),
    Command(
        "import-oob",
        "import orders of battle (republique5 .oob, CSV/XLSX, fogofwar, ORBAT Mapper) into a battle file",
        _args_import_oob,
        _cmd_import_oob,
    ),
    Command(
        "export",
        "export a battle for other programs: GeoJSON for GIS, ORBAT Mapper JSON (order of battle, moves per turn)",
        _args_export,
        _cmd_export,
    ),
    Command(
        "report",
        "write a game report (HTML or PDF): maps at chosen turns, charts, highlights",
        _args_report,
        _cmd_report,
    ),
    Command(
        "export-map",
        "export the map at a turn as PNG, SVG or PDF with legend, scale bar and north arrow",
        _args_export_map,
        _cmd_export_map,
    ),
    Command("serve-init", "create the club tables and roles on a PostgreSQL server", _args_serve_init, _cmd_serve_init),
    Command(
        "publish", "put a battle file on a club server (PostgreSQL) and print its URL", _args_publish, _cmd_publish
    ),
    Command("fetch", "save a copy of a battle on a club server to a file", _args_fetch, _cmd_fetch),
]
"""Every subcommand, in the order ``--help`` lists them."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # usage errors: one line plus the usage, exit 2
        self.print_usage(sys.stderr)
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command of ``COMMANDS``."""
    parser = _Parser(
        prog="battlestudio",
        description="Scenario editor and battle replayer for Napoleonic grand-tactical wargames. "
        "With no command, or just FILE, opens the window.",
        epilog="Run 'battlestudio COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"battlestudio {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for c in COMMANDS:
        c.arguments(sub.add_parser(c.name, help=c.help, description=c.help))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    names = {c.name for c in COMMANDS}
    try:
        if args_list and not args_list[0].startswith("-") and args_list[0] not in names:
            first = args_list[0]
            if (
                not os.path.exists(first)
                and not first.lower().endswith((".battle", ".json"))
                and not is_club_arg(first)
            ):
                raise UsageError(f"unknown command or file {first!r} (commands: {', '.join(sorted(names))})")
        if not args_list or (not args_list[0].startswith("-") and args_list[0] not in names):
            args_list.insert(0, "open")  # `battlestudio` and `battlestudio FILE` open the window
        try:
            args = build_parser().parse_args(args_list)
        except SystemExit as exc:  # --help, --version
            return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
        hide_passwords(args)
        command = next(c for c in COMMANDS if c.name == (args.command or "open"))
        code = command.run(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handlers below, not at exit
        return code
    except UsageError as exc:
        fail(str(exc))
        return EXIT_USAGE
    except KeyboardInterrupt:
        fail("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `battlestudio info --json FILE | head`: the reader is gone
        silence_stdout()
        return EXIT_OK
    except (Problem, ValueError, OSError) as exc:  # BattleFileError is a ValueError
        fail(one_line(exc))
        return EXIT_PROBLEMS
    except Exception as exc:  # noqa: BLE001 - never show a traceback to a user
        if os.environ.get("BATTLESTUDIO_DEBUG"):
            raise
        fail(f"internal error: {type(exc).__name__}: {exc} (set BATTLESTUDIO_DEBUG=1 for details)")
        return EXIT_PROBLEMS


if __name__ == "__main__":
    raise SystemExit(main())
