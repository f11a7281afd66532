"""What every order-of-battle importer returns: the scenario built, warnings, and a summary.

An importer never drops a line or row silently: whatever it does not understand becomes an
``ImportWarning`` naming the file and the line (or row), and whatever it understood but had to
transform (a mixed-arm row split in two, an echelon demoted) becomes a warning with a ``note``
severity. ``ImportSummary`` counts what was imported (commanders per echelon, units per arm,
men, horses, guns) so the user can check it against the source.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterable

from battlestudio.model.scenario import Scenario
from battlestudio.model.units import Echelon


class OobImportError(ValueError):
    """A file cannot be imported at all (missing, unreadable, wrong format); names the file."""


@dataclass(frozen=True, slots=True)
class ImportWarning:
    """One thing an importer did not understand, or understood but changed.

    Attributes
    ----------
    file : str
        path of the source file as given.
    line : int
        1-based line number (text formats) or row number counting the header as row 1
        (tables); 0 when the warning concerns the file as a whole.
    message : str
        what was wrong and what the importer did about it.
    text : str
        the offending line or a short rendering of the row.
    severity : str
        ``"warning"`` for input not understood (or rejected values), ``"note"`` for a
        transformation of understood input.
    """

    file: str
    line: int
    message: str
    text: str = ""
    severity: str = "warning"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        tail = f"  [{self.text.strip()}]" if self.text.strip() else ""
        return f"{where}: {self.severity}: {self.message}{tail}"


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """Counts of what a scenario holds.

    Attributes
    ----------
    commanders_by_echelon : dict[str, int]
        echelon value → number of commanders.
    units_by_arm : dict[str, int]
        arm value → number of units.
    men, horses, guns : int
        historical totals over all units (guns are real pieces).
    batteries : int
        number of artillery units.
    per_side : dict[str, dict[str, int]]
        side id → {"units", "commanders", "men", "guns"}.
    """

    commanders_by_echelon: dict[str, int]
    units_by_arm: dict[str, int]
    men: int
    horses: int
    guns: int
    batteries: int
    per_side: dict[str, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def of(cls, scenario: Scenario) -> ImportSummary:
        """Count ``scenario``'s commanders and units."""
        echelons = Counter(c.echelon for c in scenario.commanders.values())
        arms = Counter(u.arm.value for u in scenario.units.values())
        per_side: dict[str, dict[str, int]] = {}
        for u in scenario.units.values():
            s = per_side.setdefault(u.side, {"units": 0, "commanders": 0, "men": 0, "guns": 0})
            s["units"] += 1
            s["men"] += u.men
            s["guns"] += u.guns
        for c in scenario.commanders.values():
            s = per_side.setdefault(c.side, {"units": 0, "commanders": 0, "men": 0, "guns": 0})
            s["commanders"] += 1
        order = {e.value: i for i, e in enumerate(Echelon)}
        return cls(
            commanders_by_echelon=dict(sorted(echelons.items(), key=lambda kv: order.get(kv[0], 99))),
            units_by_arm=dict(sorted(arms.items())),
            men=sum(u.men for u in scenario.units.values()),
            horses=sum(u.horses for u in scenario.units.values()),
            guns=sum(u.guns for u in scenario.units.values()),
            batteries=arms.get("artillery", 0),
            per_side=dict(sorted(per_side.items())),
        )

    def lines(self) -> list[str]:
        """Human-readable summary lines."""
        ech = ", ".join(f"{k} {v}" for k, v in self.commanders_by_echelon.items()) or "none"
        arms = ", ".join(f"{k} {v}" for k, v in self.units_by_arm.items()) or "none"
        out = [
            f"commanders: {sum(self.commanders_by_echelon.values())} ({ech})",
            f"units: {sum(self.units_by_arm.values())} ({arms})",
            f"men: {self.men:,}  horses: {self.horses:,}  guns: {self.guns:,}  batteries: {self.batteries}",
        ]
        for side, s in self.per_side.items():
            out.append(
                f"  {side}: {s['commanders']} commanders, {s['units']} units, {s['men']:,} men, {s['guns']:,} guns"
            )
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())


@dataclass
class ImportResult:
    """What an importer returns: the ``scenario`` built, its ``warnings`` and ``summary``.

    ``roots`` lists the ids of the top commanders the import created (one per file or force),
    so a caller can merge several imports under a commander of its own.
    """

    scenario: Scenario
    warnings: list[ImportWarning] = field(default_factory=list)
    roots: list[str] = field(default_factory=list)

    @property
    def summary(self) -> ImportSummary:
        """Counts of the scenario as it stands now."""
        return ImportSummary.of(self.scenario)

    def problems(self) -> list[ImportWarning]:
        """Only the warnings proper (input not understood), without the notes."""
        return [w for w in self.warnings if w.severity == "warning"]


def slug(text: str) -> str:
    """An id-friendly ASCII slug: ``"1eme Division - Morand"`` → ``"1eme-division-morand"``."""
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    s = re.sub(r"[^A-Za-z0-9]+", "-", norm).strip("-").lower()
    return s or "x"


class IdMaker:
    """Hands out unique ids built from a prefix and a slug, adding ``-2``, ``-3`` on clashes."""

    def __init__(self, used: Iterable[str] = ()) -> None:
        self.used: set[str] = set(used)

    def make(self, *parts: str) -> str:
        """A fresh id from ``parts`` joined by ``/``-free slugs."""
        base = "-".join(slug(p) for p in parts if p)
        cand, n = base, 2
        while cand in self.used:
            cand = f"{base}-{n}"
            n += 1
        self.used.add(cand)
        return cand


def read_text(path: Path) -> str:
    """Read a UTF-8 text file (an optional byte-order mark is dropped).

    Raises
    ------
    OobImportError
        naming the file, when it cannot be read, holds a NUL byte or is not UTF-8 text; the
        message gives the byte offset (0-based) of the first bad byte.
    """
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise OobImportError(f"{path}: cannot read file ({e.strerror or e})") from e
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise OobImportError(f"{path}: not a text file (NUL byte at byte offset {nul})")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        off = e.start + (3 if raw.startswith(b"\xef\xbb\xbf") else 0)
        raise OobImportError(
            f"{path}: not UTF-8 text (byte 0x{raw[off]:02x} at byte offset {off}); save it as UTF-8"
        ) from e
