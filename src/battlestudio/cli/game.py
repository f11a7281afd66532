"""Commands on the recorded game: orders (standing orders, budgets, out of command), log, replay."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from battlestudio.cli.common import (
    AT_HELP,
    EXIT_OK,
    Problem,
    UsageError,
    check_at_syntax,
    check_width,
    check_writable,
    load_battle,
    terminal_text,
)

if TYPE_CHECKING:
    pass


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
    battle = load_battle(args.file)
    scenario = battle.scenario
    try:
        ruleset = get_ruleset(scenario.info.ruleset)
    except RuleRefused as exc:
        raise Problem(f"{args.file}: {exc}") from None
    if args.turn is not None and args.turn > battle.turns_logged:
        raise Problem(f"{args.file}: --turn {args.turn}: the game log runs to turn {battle.turns_logged}")
    try:
        state = state_at_turn(GameState.from_scenario(scenario), battle.events, args.turn)
        text = ruleset.orders_report(state, scenario.info.parameters, {k: s.name for k, s in scenario.sides.items()})
    except (RuleRefused, ValueError) as exc:  # ValueError: an event the game cannot replay
        raise Problem(f"{args.file}: {exc}") from None
    if text is None:
        raise Problem(f"{args.file}: ruleset {ruleset.id!r} ({ruleset.describe().name}) has no orders report")
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
    battle = load_battle(args.file)
    if not battle.events:
        raise Problem(f"{args.file}: no game is recorded in this file")
    try:
        lines = list(log_lines(battle, args.turn))
    except ValueError as exc:
        raise Problem(f"{args.file}: {exc}") from None
    if not lines:
        raise Problem(f"{args.file}: no events in turn {args.turn}; the game log runs to turn {battle.turns_logged}")
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

    check_at_syntax(args.at)
    check_width(args.width, 200)
    if not args.png.lower().endswith(".png"):
        raise UsageError(f"--png {args.png!r}: the picture's name must end in .png")
    check_writable(args.png)
    battle = load_battle(args.file)
    try:
        log = GameLog.from_battle(battle)
        pos = position_at(log, args.at)
    except ValueError as exc:
        raise Problem(f"{args.file}: {exc}") from None
    from battlestudio.ui.export import render_map_png  # Qt is imported only here

    print(f"wrote {render_map_png(battle, pos, args.png, args.width, log=log)}")
    return EXIT_OK
