"""The ``battlestudio`` command: open the GUI, or check, describe and convert battle files.

Each subcommand is one ``_args_<name>(parser)`` that declares its arguments and one
``_cmd_<name>(args) -> int`` that runs it, in the module of its group (``files``: open, check,
info, convert; ``game``: orders, log, replay; ``interchange``: import-oob, export; ``pictures``:
report, export-map; ``club``: serve-init, publish, fetch); ``main.COMMANDS`` lists them. To add a
command write those two functions and add one line to ``COMMANDS``; import heavy modules (Qt,
rulesets) inside ``_cmd_<name>`` so the others stay fast and Qt-free.

Exit codes: 0 success, 1 a problem was found (bad file, an error in ``check``), 2 bad usage, 130
interrupted. Bad input never shows a Python traceback: ``main`` turns BattleFileError,
ValueError and OSError into one line on stderr. A reader that closes the pipe early
(``battlestudio log FILE | head``) ends the command quietly with 0, as Unix tools do. Every
command that writes a file checks its folder first (``store.atomic.check_output_folder``). Set
``BATTLESTUDIO_DEBUG=1`` to see the traceback of an unexpected error.
"""

from battlestudio.cli.common import UsageError, terminal_json, terminal_text
from battlestudio.cli.main import COMMANDS, build_parser, main

__all__ = ["COMMANDS", "UsageError", "build_parser", "main", "terminal_json", "terminal_text"]
