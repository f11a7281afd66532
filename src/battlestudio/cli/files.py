"""Commands on a battle file as a whole: open (the window), check, info, convert."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from battlestudio.cli.common import (
    CLUB_URLS,
    EXIT_OK,
    EXIT_PROBLEMS,
    Problem,
    UsageError,
    check_writable,
    is_club_arg,
    load_battle,
    terminal_json,
    terminal_text,
)

if TYPE_CHECKING:
    pass


# -- open (the GUI) ---------------------------------------------------------------------------
def _args_open(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", help="a .battle or .battle.json file to open")


def _cmd_open(args: argparse.Namespace) -> int:
    path = CLUB_URLS.get(args.file, args.file)
    if path is not None and not os.path.exists(path) and not is_club_arg(path):
        raise Problem(f"{path}: no such file")
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("QT_QPA_PLATFORM")
    ):
        raise Problem(
            "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset); "
            "use check/info/convert, or set QT_QPA_PLATFORM=offscreen"
        )
    try:
        from battlestudio.ui import app  # Qt is imported here and nowhere else in the CLI
    except ImportError as exc:
        raise Problem(f"the BattleStudio window cannot start: {exc}") from None
    return int(app.run(path) or 0)


# -- check ------------------------------------------------------------------------------------
def _args_check(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Validate a battle file with the checks of the editor's Problems dock and replay its "
        "recorded game. Prints one line per problem, errors first: 'FILE: error|warning CHECK: "
        "FIELD: what is wrong'. Exit 1 if there is an error; warnings alone exit 0. A clean file "
        "says so on stderr."
    )
    p.add_argument("file", help="a .battle or .battle.json file")


def _cmd_check(args: argparse.Namespace) -> int:
    from battlestudio import store
    from battlestudio.validate import ERROR, check_battle

    try:
        battle = load_battle(args.file)
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
    else:
        print(terminal_text(f"{args.file}: no problems ({len(battle.events)} events replayed)"), file=sys.stderr)
    return EXIT_PROBLEMS if errors else EXIT_OK


# -- info -------------------------------------------------------------------------------------
def _args_info(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a .battle or .battle.json file")
    p.add_argument("--json", action="store_true", help="print a JSON object instead of text")


def _cmd_info(args: argparse.Namespace) -> int:
    from battlestudio.rules import resolve_ruleset_id
    from battlestudio.rules.fingerprint import ruleset_changes
    from battlestudio.store.summary import summarize

    battle = load_battle(args.file)
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
    check_writable(args.output)
    store.save(load_battle(args.input), args.output)  # an unknown input type is a bad input file: 1
    print(f"wrote {args.output}")
    return EXIT_OK
