"""Errors the store raises when a file cannot be read or written as a BattleStudio document.

``DocumentError`` is raised while decoding a document (JSON or SQLite rows) and carries the
path inside the document; the file layer turns it into a ``BattleFileError`` naming the file.
"""

from __future__ import annotations

import os


class DocumentError(ValueError):
    """A value inside a document is wrong.

    Parameters
    ----------
    where : str
        JSON-style path of the bad value, e.g. ``units[3].facing`` ("" for the whole document).
    what : str
        what is wrong, e.g. ``expected a number, got "north"``.
    """

    def __init__(self, where: str, what: str) -> None:
        self.where = where
        self.what = what
        super().__init__(f"{where}: {what}" if where else what)


class BattleFileError(ValueError):
    """A file is not a readable BattleStudio document, or could not be written.

    ``str(error)`` is one line: ``FILE: WHERE: WHAT`` (``FILE: WHAT`` when there is no place
    inside the file to point at), e.g.
    ``jena.battle.json: units[3].facing: expected a number, got "north"``.

    Attributes
    ----------
    path : str
        the file, as the user named it.
    what : str
        what is wrong.
    where : str
        path inside the document ("" when the whole file is at fault).
    """

    def __init__(self, path: str | os.PathLike[str], what: str, where: str = "") -> None:
        self.path = os.fspath(path)
        self.what = " ".join(what.split())  # one line, whatever a driver's message holds
        self.where = " ".join(where.split())
        middle = f"{self.where}: " if self.where else ""
        super().__init__(f"{self.path}: {middle}{self.what}")

    @classmethod
    def from_document(cls, path: str | os.PathLike[str], err: DocumentError) -> BattleFileError:
        """Wrap a ``DocumentError`` raised while decoding ``path``."""
        return cls(path, err.what, err.where)


class UnreadableEvents(BattleFileError):
    """A battle holding recorded events that cannot be read was to be saved where they cannot
    be kept as they are (a ``.battle.json`` file): nothing was written.

    Saving to a ``.battle`` file copies such events' rows unchanged; saving with
    ``without_game=True`` writes the scenario alone.

    Attributes
    ----------
    unreadable : list[tuple[int, ValueError]]
        ``(position, error)`` of each unreadable event, in log order (at least one).
    total : int
        how many events the battle holds.
    """

    def __init__(self, path: str | os.PathLike[str], unreadable: list[tuple[int, ValueError]], total: int) -> None:
        self.unreadable, self.total = unreadable, total
        k, first = len(unreadable), unreadable[0][1]
        super().__init__(
            path,
            f"{k} of the {total} recorded events cannot be read (the first: {first}); a .battle.json file "
            "cannot hold an event that cannot be read: save as .battle to keep the recorded game as it is, "
            "or save the scenario without its recorded game (not saved)",
        )
