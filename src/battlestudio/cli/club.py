"""Club play on a PostgreSQL server (``store.club``): serve-init, publish, fetch."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from battlestudio.cli.common import (
    CLUB_URLS,
    EXIT_OK,
    UsageError,
    check_writable,
    is_club_arg,
    terminal_text,
)

if TYPE_CHECKING:
    pass


def _args_serve_init(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Create the club tables, roles (battlestudio_umpire, battlestudio_player_<side>, battlestudio_spectator) "
        "and row-level security on a PostgreSQL database; running it again is harmless. Credentials come from "
        "the URL, ~/.pgpass or PG* variables."
    )
    p.add_argument("url", help="postgresql://[user@]host[:port]/database")


def _cmd_serve_init(args: argparse.Namespace) -> int:
    from battlestudio.store.club import serve_init

    serve_init(CLUB_URLS.get(args.url, args.url))
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

    url = CLUB_URLS.get(args.url, args.url)
    if not is_club_arg(url):
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

    url = CLUB_URLS.get(args.url, args.url)
    if not is_club_arg(url):
        raise UsageError(f"{args.url}: not a club URL; expected postgresql://[user@]host[:port]/database?battle=N")
    store.format_of(args.file)  # an unknown suffix before the server is asked
    check_writable(args.file)
    battle = fetch(url, args.file)
    print(terminal_text(f"{args.file}: {battle.scenario.info.title}, {len(battle.events)} events from {args.url}"))
    return EXIT_OK
