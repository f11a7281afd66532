"""Pictures made offscreen with Qt: the game report (HTML, PDF) and the map (PNG, SVG, PDF)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from battlestudio.cli.common import (
    AT_HELP,
    EXIT_OK,
    UsageError,
    about_file,
    check_at_syntax,
    check_suffix,
    check_width,
    check_writable,
    load_battle,
)

if TYPE_CHECKING:
    from battlestudio.ui.map_export import PageSpec


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
    check_width(args.width, 400)
    check_suffix(args.out, (".html", ".pdf"))
    check_writable(args.out)
    battle = load_battle(args.file)
    from battlestudio.ui.report import write_report  # Qt is imported only here

    with about_file(args.file):
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

    check_at_syntax(args.at)
    check_width(args.width, 400)
    check_suffix(args.out, (".png", ".svg", ".pdf"))
    check_writable(args.out)
    battle = load_battle(args.file)  # a bad file or folder is named before Qt is needed (and without it)
    spec = _export_spec(args)
    from battlestudio.ui.map_export import export_map  # Qt is imported only here

    with about_file(args.file):
        written = export_map(battle, args.at, args.out, log=None, spec=spec)
    print(f"wrote {written}")
    return EXIT_OK
