"""Orders of battle in, interchange formats out: import-oob, export (GeoJSON, ORBAT Mapper)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from battlestudio.cli.common import (
    AT_HELP,
    EXIT_OK,
    GEOREF_HELP,
    Problem,
    UsageError,
    check_at_syntax,
    check_suffix,
    check_writable,
    load_battle,
    parse_georef,
    terminal_text,
)

if TYPE_CHECKING:
    pass


# -- import-oob -------------------------------------------------------------------------------
def _args_import_oob(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="order-of-battle files (fogofwar: the tables' folder)")
    p.add_argument(
        "--format", required=True, choices=["oob", "csv", "xlsx", "fogofwar", "orbat-mapper"], help="input format"
    )
    p.add_argument(
        "--map", help="TOML column mapping (csv and xlsx; without it the columns are guessed from the header)"
    )
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
        raise Problem(f"{args.out}: already exists; use --force to replace it")
    check_writable(args.out)  # before the whole import, not after it
    res = import_oob(
        args.files,
        args.format,
        mapping=args.map,
        scenario_id=args.scenario_id,
        convert=not args.no_convert,
        georef=parse_georef(args.georef),
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
    check_suffix(args.out, suffixes)
    georef = parse_georef(args.georef)
    if args.format == "geojson":
        check_at_syntax(args.at)
    check_writable(args.out)
    battle = load_battle(args.file)
    try:
        written = write(battle, args.out, georef, args)
    except ValueError as exc:  # a missing georeference, a bad cursor, an invalid document: nothing written
        raise Problem(f"{args.file}: {exc}") from None
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
