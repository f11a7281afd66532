"""The ``battlestudio`` command: open the GUI, or check, describe and convert battle files.

Each subcommand is one ``_args_<name>(parser)`` that declares its arguments and one
``_cmd_<name>(args) -> int`` that runs it; both are listed in ``COMMANDS``. To add a command
(``import-oob``, ``replay``, ``report``, …) write those two functions and add one line to
``COMMANDS``; import heavy modules (Qt, rulesets) inside ``_cmd_<name>`` so the others stay
fast and Qt-free.

Exit codes: 0 success, 1 a problem was found (bad file, an error in ``check``), 2 bad usage, 130
interrupted. Bad input never shows a Python traceback: ``main`` turns BattleFileError,
ValueError and OSError into one line on stderr. A reader that closes the pipe early
(``battlestudio log FILE | head``) ends the command quietly with 0, as Unix tools do. Every
command that writes a file checks its folder first (``store.atomic.check_output_folder``). Set
``BATTLESTUDIO_DEBUG=1`` to see the traceback of an unexpected error.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from battlestudio import __version__

if TYPE_CHECKING:
    from battlestudio.ui.map_export import PageSpec

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """Arguments that make no sense together (exit code 2)."""


@dataclass(frozen=True)
class Command:
    """One subcommand: ``name``, one-line ``help``, its argument declarer and its runner."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# -- open (the GUI) ---------------------------------------------------------------------------
def _args_open(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", help="a .battle or .battle.json file to open")


def _cmd_open(args: argparse.Namespace) -> int:
    path = _CLUB_URLS.get(args.file, args.file)
    if path is not None and not os.path.exists(path) and not _is_club_url(path):
        raise _Problem(f"{path}: no such file")
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("QT_QPA_PLATFORM")
    ):
        raise _Problem(
            "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset); "
            "use check/info/convert, or set QT_QPA_PLATFORM=offscreen"
        )
    try:
        from battlestudio.ui import app  # Qt is imported here and nowhere else in the CLI
    except ImportError as exc:
        raise _Problem(f"the BattleStudio window cannot start: {exc}") from None
    return int(app.run(path) or 0)


# -- check ------------------------------------------------------------------------------------
def _args_check(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Validate a battle file with the checks of the editor's Problems dock and replay its "
        "recorded game. Prints one line per problem, errors first: 'FILE: error|warning CHECK: "
        "FIELD: what is wrong'. Exit 1 if there is an error; warnings alone exit 0."
    )
    p.add_argument("file", help="a .battle or .battle.json file")


def _cmd_check(args: argparse.Namespace) -> int:
    from battlestudio import store
    from battlestudio.validate import ERROR, check_battle

    try:
        battle = _load(args.file)
    except store.BattleFileError as err:  # the README's layout, the check being "file"
        where = f"{err.where}: " if err.where else ""
        print(terminal_text(f"{args.file}: error file: {where}{err.what}"))
        return EXIT_PROBLEMS
    problems = check_battle(battle)
    for p in problems:
        print(terminal_text(f"{args.file}: {p}"))
    errors = sum(p.severity == ERROR for p in problems)
    if problems:
        print(f"{args.file}: {errors} error(s), {len(problems) - errors} warning(s)", file=sys.stderr)
    return EXIT_PROBLEMS if errors else EXIT_OK


# -- info -------------------------------------------------------------------------------------
def _args_info(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a .battle or .battle.json file")
    p.add_argument("--json", action="store_true", help="print a JSON object instead of text")


def _cmd_info(args: argparse.Namespace) -> int:
    from battlestudio.rules import resolve_ruleset_id
    from battlestudio.rules.fingerprint import ruleset_changes
    from battlestudio.store.summary import summarize

    battle = _load(args.file)
    info = summarize(battle)
    record = battle.ruleset_record
    sc = battle.scenario.info
    info["ruleset_recorded"] = record.get("hash") if record else None
    info["ruleset_changes"] = ruleset_changes(record, resolve_ruleset_id(sc.ruleset), sc.parameters)
    if args.json:
        print(terminal_json(json.dumps({"file": args.file, **info}, ensure_ascii=False, indent=2)))
        return EXIT_OK
    print(terminal_text(_info_text(args.file, info)))
    return EXIT_OK


def _info_text(path: str, i: dict[str, Any]) -> str:
    def counts(d: dict[str, Any]) -> str:
        return ", ".join(f"{k} {v}" for k, v in d.items()) or "none"

    place = ", " + i["place"] if i["place"] else ""
    lines = [
        f"{path}: {i['title']} ({i['date'] or 'no date'}{place}), ruleset {i['ruleset']}",
        f"table {i['table_cm'][0]:g} × {i['table_cm'][1]:g} cm",
        _georef_text(i["georef"]),
    ]
    for sid, side in i["sides"].items():
        lines.append(
            f"side {sid} ({side['name']}): {side['commanders']} commanders, {side['units']} units, "
            f"{side['men']} men, {side['guns']} guns; {counts(side['units_per_arm'])}"
        )
    lines.append(f"commanders {i['commanders']}: {counts(i['commanders_per_echelon'])}")
    lines.append(f"units {i['units']}: " + counts({a: v["units"] for a, v in i["arms"].items()}))
    lines.append(f"men {i['men']}, guns {i['guns']}, horses {i['horses']}")
    lines.append(f"terrain features {i['terrain_features']}: {counts(i['terrain_per_kind'])}")
    lines.append(
        f"town zones {i['town_zones']}, objectives {i['objectives']}, deployment zones "
        f"{i['deployment_zones']}, reinforcements {i['reinforcements']}, orders {i['orders']}"
    )
    lines.append(f"turns {i['turns']}; game log: {i['events']} events up to turn {i['turns_logged']}")
    if i.get("ruleset_changes"):
        lines.append("the rule numbers changed since the game was recorded (recorded → now):")
        lines += [f"  {c}" for c in i["ruleset_changes"]]
    elif i.get("ruleset_recorded"):
        lines.append(f"rule numbers as recorded (fingerprint {i['ruleset_recorded'][:12]})")
    return "\n".join(lines)


def _georef_text(g: dict[str, float] | None) -> str:
    """``georeference: origin 11.5000 E 50.9000 N, +x bearing 90.0 deg`` or ``not georeferenced``."""
    if g is None:
        return "not georeferenced"
    lon = f"{abs(g['lon']):.4f} {'E' if g['lon'] >= 0 else 'W'}"
    lat = f"{abs(g['lat']):.4f} {'N' if g['lat'] >= 0 else 'S'}"
    return f"georeference: origin {lon} {lat}, +x bearing {g['bearing']:.1f} deg"


# -- convert ----------------------------------------------------------------------------------
def _args_convert(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="the file to read (.battle or .battle.json)")
    p.add_argument("output", help="the file to write (.battle or .battle.json); replaced atomically")


def _cmd_convert(args: argparse.Namespace) -> int:
    from battlestudio import store

    try:
        store.format_of(args.output)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    _writable(args.output)
    store.save(_load(args.input), args.output)  # an unknown input type is a bad input file: 1
    print(f"wrote {args.output}")
    return EXIT_OK


# -- orders (the rulesets that report them) --------------------------------------------------
def _args_orders(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a .battle or .battle.json file played with a ruleset that has an orders report")
    p.add_argument("--turn", type=int, metavar="N", help="the state after turn N (default: after the whole game log)")


def _cmd_orders(args: argparse.Namespace) -> int:
    from battlestudio.analysis.common import state_at_turn
    from battlestudio.replay.state import GameState
    from battlestudio.rules import RuleRefused, get_ruleset

    if args.turn is not None and args.turn < 0:
        raise UsageError(f"--turn must be 0 or more, got {args.turn}")
    battle = _load(args.file)
    scenario = battle.scenario
    try:
        ruleset = get_ruleset(scenario.info.ruleset)
    except RuleRefused as exc:
        raise _Problem(f"{args.file}: {exc}") from None
    if args.turn is not None and args.turn > battle.turns_logged:
        raise _Problem(f"{args.file}: --turn {args.turn}: the game log runs to turn {battle.turns_logged}")
    try:
        state = state_at_turn(GameState.from_scenario(scenario), battle.events, args.turn)
        text = ruleset.orders_report(state, scenario.info.parameters, {k: s.name for k, s in scenario.sides.items()})
    except (RuleRefused, ValueError) as exc:  # ValueError: an event the game cannot replay
        raise _Problem(f"{args.file}: {exc}") from None
    if text is None:
        raise _Problem(f"{args.file}: ruleset {ruleset.id!r} ({ruleset.describe().name}) has no orders report")
    print(terminal_text(text), end="")
    return EXIT_OK


# -- log and replay (the recorded game) -------------------------------------------------------
def _args_log(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a .battle or .battle.json file with a recorded game")
    p.add_argument("--turn", type=int, metavar="N", help="only the events of turn N")


def _cmd_log(args: argparse.Namespace) -> int:
    from battlestudio.session.text import log_lines

    if args.turn is not None and args.turn < 1:
        raise UsageError(f"--turn must be 1 or more, got {args.turn}")
    battle = _load(args.file)
    if not battle.events:
        raise _Problem(f"{args.file}: no game is recorded in this file")
    try:
        lines = list(log_lines(battle, args.turn))
    except ValueError as exc:
        raise _Problem(f"{args.file}: {exc}") from None
    if not lines:
        raise _Problem(f"{args.file}: no events in turn {args.turn}; the game log runs to turn {battle.turns_logged}")
    print(terminal_text("\n".join(lines)))
    return EXIT_OK


def _args_replay(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a .battle or .battle.json file with a recorded game")
    p.add_argument("--at", required=True, metavar="TURN[:SIDE[:PHASE]][:start|:end]", help=AT_HELP)
    p.add_argument("--png", required=True, metavar="OUT.png", help="the picture to write")
    p.add_argument(
        "--width", type=int, default=1600, metavar="PX", help="picture width in pixels, 200 to 10000 (default 1600)"
    )


def _cmd_replay(args: argparse.Namespace) -> int:
    from battlestudio.replay.game import GameLog
    from battlestudio.session.text import position_at

    _at_syntax(args.at)
    _width(args.width, 200)
    if not args.png.lower().endswith(".png"):
        raise UsageError(f"--png {args.png!r}: the picture's name must end in .png")
    _writable(args.png)
    battle = _load(args.file)
    try:
        log = GameLog.from_battle(battle)
        pos = position_at(log, args.at)
    except ValueError as exc:
        raise _Problem(f"{args.file}: {exc}") from None
    from battlestudio.ui.export import render_map_png  # Qt is imported only here

    print(f"wrote {render_map_png(battle, pos, args.png, args.width, log=log)}")
    return EXIT_OK


# -- import-oob -------------------------------------------------------------------------------
def _args_import_oob(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="order-of-battle files (fogofwar: the tables' folder)")
    p.add_argument(
        "--format", required=True, choices=["oob", "csv", "xlsx", "fogofwar", "orbat-mapper"], help="input format"
    )
    p.add_argument("--map", help="TOML column mapping (csv and xlsx)")
    p.add_argument("--scenario-id", type=int, help="fogofwar scenario whose forces to import")
    p.add_argument("--georef", metavar="LON,LAT[,BEARING]", help=GEOREF_HELP + " (orbat-mapper; default: derived)")
    p.add_argument("--turn-minutes", type=int, help="minutes per turn of the recorded game (orbat-mapper; default 15)")
    p.add_argument("--start", metavar="ISO", help="clock time of the deployment (orbat-mapper; default startTime)")
    p.add_argument("--ground-scale", type=float, help="metres of ground per table cm (orbat-mapper; default 30)")
    p.add_argument("--no-convert", action="store_true", help="keep historical units; no Torden over Europa scale")
    p.add_argument(
        "--ruleset",
        help="ruleset of the scenario written (default toe); its scale replaces Torden over Europa's, "
        "e.g. regimental: bases at 75 men a figure, brigades split into regiments",
    )
    p.add_argument("--out", required=True, help="the .battle or .battle.json file to write")
    p.add_argument("--force", action="store_true", help="replace OUT if it exists")
    p.epilog = (
        "The column mapping (--map) of csv and xlsx is described, every key with an example, "
        "in docs/import-mapping.md (and in the docstring of battlestudio.store.importers.tabular)."
    )


def _cmd_import_oob(args: argparse.Namespace) -> int:
    from battlestudio import store
    from battlestudio.replay.battle import Battle
    from battlestudio.store.importers import import_oob

    try:
        store.format_of(args.out)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.map is not None and args.format not in ("csv", "xlsx"):
        raise UsageError(f"import-oob: --map is only read with --format csv or xlsx, not {args.format}")
    if args.scenario_id is not None and args.format != "fogofwar":
        raise UsageError(f"import-oob: --scenario-id is only read with --format fogofwar, not {args.format}")
    clock = {"georef": args.georef, "turn_minutes": args.turn_minutes, "start": args.start}
    clock["ground_scale"] = args.ground_scale
    given = [k.replace("_", "-") for k, v in clock.items() if v is not None]
    if given and args.format != "orbat-mapper":
        raise UsageError(f"import-oob: --{', --'.join(given)} only read with --format orbat-mapper, not {args.format}")
    if os.path.exists(args.out) and not args.force:
        raise _Problem(f"{args.out}: already exists; use --force to replace it")
    _writable(args.out)  # before the whole import, not after it
    res = import_oob(
        args.files,
        args.format,
        mapping=args.map,
        scenario_id=args.scenario_id,
        convert=not args.no_convert,
        georef=_georef(args.georef),
        turn_minutes=args.turn_minutes,
        start=args.start,
        ground_scale=args.ground_scale,
        ruleset=args.ruleset,
    )
    print(terminal_text("\n".join(res.summary.lines())))
    for w in res.warnings:
        print(terminal_text(str(w)), file=sys.stderr)
    events = list(getattr(res, "events", []))  # orbat-mapper: the timed state as a recorded game
    if events:
        print(f"recorded game: {len(events)} events in {max(e.turn for e in events)} turns")
    store.save(Battle(res.scenario, events), args.out)
    print(f"wrote {args.out} ({len(res.problems())} warning(s), {len(res.warnings) - len(res.problems())} note(s))")
    return EXIT_OK


# -- report and export-map (Qt, offscreen) ---------------------------------------------------
def _args_report(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a .battle or .battle.json file with a recorded game")
    p.add_argument("--out", required=True, help="the report to write: .html (self-contained) or .pdf")
    p.add_argument("--turns", help="map snapshots at these turns, e.g. 0,6,12 (default: start, middle, end)")
    p.add_argument("--width", type=int, default=1400, help="map snapshot width in pixels, 400 to 10000 (default 1400)")


def _cmd_report(args: argparse.Namespace) -> int:

    turns = None
    if args.turns:
        try:
            turns = [int(t) for t in args.turns.split(",") if t.strip()]
        except ValueError:
            raise UsageError(f"--turns {args.turns!r}: give turn numbers separated by commas, e.g. 0,6,12") from None
        if any(t < 0 for t in turns):
            raise UsageError(f"--turns {args.turns!r}: turn numbers are 0 (deployment) or more")
    _width(args.width, 400)
    _suffix(args.out, (".html", ".pdf"))
    _writable(args.out)
    battle = _load(args.file)
    from battlestudio.ui.report import write_report  # Qt is imported only here

    with _about(args.file):
        written = write_report(battle, args.out, turns, args.width)
    print(f"wrote {written}")
    return EXIT_OK


def _args_export_map(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a .battle or .battle.json file")
    p.add_argument("--at", default="end", metavar="TURN[:SIDE[:PHASE]][:start|:end]", help=AT_HELP + " (default end)")
    p.add_argument("--out", required=True, help="the map to write: .png, .svg or .pdf")
    p.add_argument("--width", type=int, default=1800, help="page width in pixels, 400 to 10000 (default 1800)")
    p.add_argument("--no-command", action="store_true", help="leave out the command overlay")
    p.add_argument("--paper", choices=("a4", "a3", "letter"), help="a page of this paper instead of a picture")
    p.add_argument("--landscape", action="store_const", const=True, dest="landscape", help="paper across")
    p.add_argument("--portrait", action="store_const", const=False, dest="landscape", help="paper upright")
    p.add_argument("--scale", metavar="1:N", help="with --paper: 1 cm of paper is N cm of table (default: fitted)")
    p.add_argument("--dpi", type=float, default=96.0, help="PNG resolution, 48 to 600 (default 96)")
    p.add_argument("--region", metavar="X0,Y0,X1,Y1", help="the part of the table to show, in table cm")


def _export_spec(args: argparse.Namespace) -> PageSpec:
    """The ``PageSpec`` of ``export-map``'s options (usage error naming a bad one)."""
    from battlestudio.ui.map_export import PageSpec  # noqa: F811 - Qt is imported only here

    scale = region = None
    if args.scale:
        try:
            scale = float(args.scale.split(":", 1)[1] if ":" in args.scale else args.scale)
        except ValueError:
            raise UsageError(f"--scale {args.scale!r}: give 1:N with N a number, e.g. 1:10") from None
    if args.region:
        try:
            x0, y0, x1, y1 = (float(v) for v in args.region.split(","))
        except ValueError:
            raise UsageError(f"--region {args.region!r}: give X0,Y0,X1,Y1 in table cm, e.g. 0,0,120,90") from None
        region = (x0, y0, x1, y1)
    spec = PageSpec(
        width_px=args.width,
        paper=args.paper,
        landscape=args.landscape,
        scale=scale,
        dpi=args.dpi,
        region=region,
        command_layer=not args.no_command,
    )
    try:
        spec.check()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return spec


def _cmd_export_map(args: argparse.Namespace) -> int:

    _at_syntax(args.at)
    _width(args.width, 400)
    _suffix(args.out, (".png", ".svg", ".pdf"))
    _writable(args.out)
    battle = _load(args.file)  # a bad file or folder is named before Qt is needed (and without it)
    spec = _export_spec(args)
    from battlestudio.ui.map_export import export_map  # Qt is imported only here

    with _about(args.file):
        written = export_map(battle, args.at, args.out, log=None, spec=spec)
    print(f"wrote {written}")
    return EXIT_OK


# -- export (interchange formats) ----------------------------------------------------------
def _args_export(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a .battle or .battle.json file")
    p.add_argument("--format", required=True, choices=sorted(EXPORT_FORMATS), help="what to write")
    p.add_argument("--out", required=True, help="the file to write; replaced atomically")
    p.add_argument(
        "--at", default="end", metavar="TURN[:SIDE[:PHASE]][:start|:end]", help=AT_HELP + " (geojson; default end)"
    )
    p.add_argument(
        "--georef", metavar="LON,LAT[,BEARING]", help=GEOREF_HELP + " (default: the scenario's georeference)"
    )
    p.add_argument(
        "--start",
        metavar="ISO",
        help="orbat-mapper: clock time of the deployment (default: the date at the first turn)",
    )
    p.epilog = (
        "geojson: terrain, towns, objectives, deployment zones, and the units' footprints and commanders at --at, "
        "in WGS84 lon/lat when the scenario is georeferenced, else in table cm with a crs member saying so. "
        "orbat-mapper: the order of battle with symbol codes and every unit's place at each turn's end "
        "(ORBAT Mapper scenario format 3.4.0, checked against its schema before writing)."
    )


def _cmd_export(args: argparse.Namespace) -> int:

    suffixes, write = EXPORT_FORMATS[args.format]
    _suffix(args.out, suffixes)
    georef = _georef(args.georef)
    if args.format == "geojson":
        _at_syntax(args.at)
    _writable(args.out)
    battle = _load(args.file)
    try:
        written = write(battle, args.out, georef, args)
    except ValueError as exc:  # a missing georeference, a bad cursor, an invalid document: nothing written
        raise _Problem(f"{args.file}: {exc}") from None
    print(f"wrote {written}")
    return EXIT_OK


def _export_geojson(battle: Any, out: str, georef: Any, args: argparse.Namespace) -> str:
    from dataclasses import replace

    from battlestudio.replay.game import GameLog
    from battlestudio.session.text import position_at
    from battlestudio.store.geojson import feature_collection, write_geojson

    if georef is not None:
        battle.scenario.info = replace(battle.scenario.info, georef=georef)
    log = GameLog.from_battle(battle)
    doc = feature_collection(battle, log, position_at(log, args.at))
    write_geojson(doc, out)
    return f"{out} ({len(doc['features'])} features, {doc['battlestudio']['coordinates']})"


def _export_orbat_mapper(battle: Any, out: str, georef: Any, args: argparse.Namespace) -> Any:
    from battlestudio.store.orbat_mapper_export import write_orbat_mapper

    return write_orbat_mapper(battle, out, georef, start=args.start)


EXPORT_FORMATS: dict[str, tuple[tuple[str, ...], Callable[[Any, str, Any, argparse.Namespace], Any]]] = {
    "geojson": ((".geojson", ".json"), _export_geojson),
    "orbat-mapper": ((".json",), _export_orbat_mapper),
}
"""``export --format`` name → (suffixes allowed for ``--out``, writer(battle, out, georef, args))."""

GEOREF_HELP = "the table origin's longitude and latitude and the bearing of its x axis (degrees; 90 = east)"


def _georef(text: str | None) -> Any:
    """``LON,LAT[,BEARING]`` as a ``Georeference`` (None for None); usage error when malformed."""
    if text is None:
        return None
    from battlestudio.model.georef import Georeference, GeoreferenceError

    try:
        parts = [float(p) for p in text.split(",")]
        if len(parts) not in (2, 3):
            raise ValueError
    except ValueError:
        raise UsageError(f"--georef {text!r}: give LON,LAT or LON,LAT,BEARING in degrees, e.g. 11.4,50.9,90") from None
    try:
        return Georeference(*parts)
    except GeoreferenceError as exc:
        raise UsageError(f"--georef {text!r}: {exc}") from None


# -- club play on a PostgreSQL server (store.club) -------------------------------------------
_CLUB_URLS: dict[str, str] = {}
"""A club URL as shown (without its password) → as given, for the commands that print it."""


def _is_club_url(text: str | None) -> bool:
    from battlestudio.store.club import is_club_url

    return text is not None and is_club_url(text)


def _load(path: str) -> Any:
    """The Battle in the file ``path``, or on the club server a ``postgresql://`` URL names."""
    from battlestudio import store

    if _is_club_url(path):
        from battlestudio.store.club import load_club

        return load_club(_CLUB_URLS.get(path, path))
    return store.load(path)


def _hide_passwords(args: argparse.Namespace) -> None:
    """Replace every club URL argument by its form without a password (kept in ``_CLUB_URLS``),
    so no message or output of a command shows the password."""
    from battlestudio.store.club import ClubURL

    for key in ("file", "input", "url"):
        value = getattr(args, key, None)
        if isinstance(value, str) and _is_club_url(value):
            shown = ClubURL.parse(value).shown
            _CLUB_URLS[shown] = value
            setattr(args, key, shown)


def _args_serve_init(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Create the club tables, roles (battlestudio_umpire, battlestudio_player_<side>, battlestudio_spectator) "
        "and row-level security on a PostgreSQL database; running it again is harmless. Credentials come from "
        "the URL, ~/.pgpass or PG* variables."
    )
    p.add_argument("url", help="postgresql://[user@]host[:port]/database")


def _cmd_serve_init(args: argparse.Namespace) -> int:
    from battlestudio.store.club import serve_init

    serve_init(_CLUB_URLS.get(args.url, args.url))
    print(
        terminal_text(
            f"{args.url}: club tables and roles ready; publish a battle with: battlestudio publish FILE {args.url}"
        )
    )
    return EXIT_OK


def _args_publish(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Put a battle file on a club server and print its URL. With ?battle=N in the URL that battle is "
        "replaced (refused while its game runs). The house rule hidden_positions (scenario parameters) "
        "hides each side's units from the other side's players."
    )
    p.add_argument("file", help="a .battle or .battle.json file")
    p.add_argument("url", help="postgresql://[user@]host[:port]/database[?battle=N]")


def _cmd_publish(args: argparse.Namespace) -> int:
    from battlestudio.store.club import ClubURL, publish

    url = _CLUB_URLS.get(args.url, args.url)
    if not _is_club_url(url):
        raise UsageError(f"{args.url}: not a club URL; expected postgresql://[user@]host[:port]/database")
    battle = publish(args.file, url)
    print(terminal_text(str(ClubURL.parse(args.url).with_battle(battle))))
    return EXIT_OK


def _args_fetch(p: argparse.ArgumentParser) -> None:
    p.description = "Save a copy of a battle on a club server, with every event recorded so far, to a file."
    p.add_argument("url", help="postgresql://[user@]host[:port]/database?battle=N")
    p.add_argument("file", help="the .battle or .battle.json file to write")


def _cmd_fetch(args: argparse.Namespace) -> int:
    from battlestudio import store
    from battlestudio.store.club import fetch

    url = _CLUB_URLS.get(args.url, args.url)
    if not _is_club_url(url):
        raise UsageError(f"{args.url}: not a club URL; expected postgresql://[user@]host[:port]/database?battle=N")
    store.format_of(args.file)  # an unknown suffix before the server is asked
    _writable(args.file)
    battle = fetch(url, args.file)
    print(terminal_text(f"{args.file}: {battle.scenario.info.title}, {len(battle.events)} events from {args.url}"))
    return EXIT_OK


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


# -- dispatch ---------------------------------------------------------------------------------
class _Problem(Exception):
    """A one-line failure message (exit code 1)."""


AT_HELP = (
    "where in the game: start (or 0, the deployment), end; TURN, TURN:SIDE or TURN:SIDE:PHASE is the end "
    "of that turn, player-turn or phase (every event applied), with :start where it has begun (its first "
    "event applied, where the window's phase and turn steps stop) or :end; TURN:SIDE:PHASE:N after its "
    "Nth event; SIDE is an id or 1, 2 (first, second side to play); e.g. 12, 12:prussian:fire, "
    "14:2:fire:start (the same syntax as the Replay dock's Go to box)"
)

MAX_WIDTH_PX = 10_000
"""Largest ``--width`` of a picture or page (100,000 px needed 21 GB of memory)."""


def _width(width: int, least: int) -> None:
    """Refuse a ``--width`` outside ``least``..``MAX_WIDTH_PX`` (usage error, exit 2)."""
    if not least <= width <= MAX_WIDTH_PX:
        raise UsageError(f"--width must be {least} to {MAX_WIDTH_PX} pixels, got {width}")


@contextmanager
def _about(path: str) -> Iterator[None]:
    """Name the input file in an option's error (``--at 7: …`` → ``FILE: --at 7: …``)."""
    try:
        yield
    except ValueError as exc:
        if str(exc).startswith("--"):
            raise _Problem(f"{path}: {exc}") from None
        raise


def _at_syntax(text: str) -> None:
    """Refuse a malformed ``--at`` (usage error, exit 2); whether the log holds it is checked later."""
    from battlestudio.session.text import parse_at

    if text.strip().lower() in ("start", "end", "0"):
        return
    try:
        parse_at(text)
    except ValueError as exc:
        raise UsageError(f"{exc}; or start, end, 0 (the deployment)") from None


def _suffix(path: str, allowed: tuple[str, ...]) -> None:
    """Refuse, before reading the input, an output whose type is not one of ``allowed``
    (suffixes with the dot, lower case; usage error, exit 2)."""
    suffix = Path(path).suffix.lower()
    if suffix not in allowed:
        names = ", ".join(allowed[:-1]) + " or " + allowed[-1]
        raise UsageError(f"--out {path}: cannot write {suffix or 'a file without a suffix'}; name it {names}")


def _writable(path: str) -> None:
    """Refuse, before any long work, an output whose folder is missing or not writable (exit 1)."""
    from battlestudio.store.atomic import check_output_folder

    check_output_folder(path)


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
                and not _is_club_url(first)
            ):
                raise UsageError(f"unknown command or file {first!r} (commands: {', '.join(sorted(names))})")
        if not args_list or (not args_list[0].startswith("-") and args_list[0] not in names):
            args_list.insert(0, "open")  # `battlestudio` and `battlestudio FILE` open the window
        try:
            args = build_parser().parse_args(args_list)
        except SystemExit as exc:  # --help, --version
            return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
        _hide_passwords(args)
        command = next(c for c in COMMANDS if c.name == (args.command or "open"))
        code = command.run(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handlers below, not at exit
        return code
    except UsageError as exc:
        _fail(str(exc))
        return EXIT_USAGE
    except KeyboardInterrupt:
        _fail("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `battlestudio info --json FILE | head`: the reader is gone
        _silence_stdout()
        return EXIT_OK
    except (_Problem, ValueError, OSError) as exc:  # BattleFileError is a ValueError
        _fail(_one_line(exc))
        return EXIT_PROBLEMS
    except Exception as exc:  # noqa: BLE001 - never show a traceback to a user
        if os.environ.get("BATTLESTUDIO_DEBUG"):
            raise
        _fail(f"internal error: {type(exc).__name__}: {exc} (set BATTLESTUDIO_DEBUG=1 for details)")
        return EXIT_PROBLEMS


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # a captured or closed stdout (tests)
        pass


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        name = f"{exc.filename}: " if exc.filename else ""
        return f"{name}{exc.strerror}"
    return " ".join(str(exc).split()) or type(exc).__name__


def _fail(message: str) -> None:
    message = terminal_text(message)
    print(f"battlestudio: {message}" if not message.startswith("battlestudio") else message, file=sys.stderr)


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Characters a terminal acts on rather than shows (escape sequences, C1 controls, bidi overrides);
tab and newline are kept."""


def terminal_text(text: str) -> str:
    """``text`` with every terminal control character written as a visible escape (``\\x1b``,
    ``\\u202e``), so a name in a file cannot clear the screen or retitle the window."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100 else f"\\u{ord(m[0]):04x}", text)


def terminal_json(text: str) -> str:
    """JSON ``text`` with the control characters ``json.dumps`` leaves (DEL, C1, bidi) as ``\\uXXXX`` escapes."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


if __name__ == "__main__":
    raise SystemExit(main())
