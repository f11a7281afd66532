"""What every order-of-battle importer returns: the scenario built, warnings, and a summary.

An importer never drops a line or row silently: whatever it does not understand becomes an
``ImportWarning`` naming the file and the line (or row), and whatever it understood but had to
transform (a mixed-arm row split in two, an echelon demoted) becomes a warning with a ``note``
severity. ``ImportSummary`` counts what was imported (commanders per echelon, units per arm,
men, horses, guns) so the user can check it against the source.
"""

from __future__ import annotations

import csv
import os
import re
import stat
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterable, Iterator, Sequence

from battlestudio.model.scenario import Scenario
from battlestudio.model.units import Echelon


class OobImportError(ValueError):
    """A file cannot be imported at all (missing, unreadable, wrong format); names the file."""


MAX_FILE_BYTES = 50_000_000
"""Largest order-of-battle file read (50 MB; the largest real one is under 1 MB)."""
MAX_ROWS = 100_000
"""Most rows (lines) read from one table or ``.oob`` file; an army's order of battle is a few thousand."""
MAX_DEPTH = 64
"""Deepest nesting read (``.oob`` indentation levels, JSON objects, path parts)."""
MAX_STRENGTH = 10_000_000
"""Largest men, horses or guns count a cell may give."""
MAX_NAME = 500
"""Longest name or id kept from a cell (characters)."""


def check_input_file(path: str | os.PathLike[str], limit: int | None = None) -> int:
    """The size in bytes of the regular file ``path``, refused (``OobImportError`` naming it)
    when missing, not a regular file (a FIFO, a device), or larger than ``limit``."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise OobImportError(f"{path}: cannot read file ({e.strerror or e})") from e
    if not stat.S_ISREG(st.st_mode):
        raise OobImportError(f"{path}: not a regular file")
    limit = MAX_FILE_BYTES if limit is None else limit
    if st.st_size > limit:
        raise OobImportError(f"{path}: {st.st_size:,} bytes is more than the {limit:,} bytes an import reads")
    return st.st_size


MAX_JSON_DEPTH = 200
"""Deepest nesting of lists and objects read from a JSON file (a real ORBAT Mapper file nests under 40)."""

_JSON_STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_BRACKET_RE = re.compile(r"[\[\]{}]")


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> str | None:
    """The JSON path (``$[0][0]``-style prefix, shortened) where ``text`` nests deeper than
    ``limit`` lists and objects, or None; one linear pass, before ``json.loads`` would recurse."""
    depth = 0
    for m in _JSON_BRACKET_RE.finditer(_JSON_STRING_RE.sub('""', text)):
        depth += 1 if m.group() in "[{" else -1
        if depth > limit:
            return f"more than {limit} levels of nested lists and objects"
    return None


def whole_number(text: str) -> int | None:
    """``text`` (stripped) as a non-negative whole number of ASCII digits, or None (empty,
    not digits, or more than 18 digits)."""
    t = text.strip()
    if not t or len(t) > 18 or not t.isascii() or not t.isdigit():
        return None
    return int(t)


def strength(text: str) -> int | None:
    """A men/horses/guns cell as a whole number in 0..``MAX_STRENGTH``: ASCII digits, with
    an optional fraction (``"120.0"``) and thousands separators (``,`` ``_``); None when not."""
    t = text.strip().replace(",", "").replace("_", "")
    if re.fullmatch(r"[0-9]{1,12}(\.[0-9]{0,6})?", t) is None:
        return None
    v = int(float(t))
    return v if v <= MAX_STRENGTH else None


def clean_text(text: str) -> str:
    """A cell as kept in a name: control characters and lone surrogates replaced by a space,
    whitespace collapsed, at most ``MAX_NAME`` characters."""
    out = "".join(" " if (unicodedata.category(c) in ("Cc", "Cs")) else c for c in text)
    return " ".join(out.split())[:MAX_NAME]


def csv_rows(
    path: Path,
    required: Sequence[str] = (),
    max_rows: int | None = None,
    warnings: list[ImportWarning] | None = None,
) -> tuple[list[str], Iterator[tuple[int, dict[str, str]]]]:
    """The header and a row-by-row iterator of ``(row number, row)`` of a UTF-8 CSV file (the
    header is row 1); every header column is in each row (a missing cell reads ``""``, extra
    cells are dropped). A row with fewer cells than the header adds a warning to ``warnings``
    naming the row and the columns read as empty (without ``warnings`` it is an error).

    Raises
    ------
    OobImportError
        naming the file: unreadable, not a regular file or too large, not UTF-8, no header, a
        ``required`` column missing (naming it and the header), a malformed row (naming the
        row), or more than ``max_rows`` rows (naming the limit). The iterator raises the row
        errors while it is read.
    """
    check_input_file(path)
    limit = MAX_ROWS if max_rows is None else max_rows
    try:
        f = open(path, encoding="utf-8-sig", newline="")
    except OSError as e:
        raise OobImportError(f"{path}: cannot read ({e.strerror or e})") from e
    reader = csv.reader(f, strict=True)  # an unclosed quote is an error, not the rest of the file in one cell
    try:
        header = [clean_text(h) for h in next(reader, [])]
    except UnicodeDecodeError as e:  # decoded ahead of the parser: find the row in the bytes
        f.close()
        row, reason = _bad_utf8(path, e)
        if row > 1:
            raise OobImportError(f"{path}: row {row}: not readable CSV ({reason})") from e
        raise OobImportError(f"{path}: row 1: not a readable CSV header ({reason})") from e
    except csv.Error as e:
        f.close()
        raise OobImportError(f"{path}: row 1: not a readable CSV header ({_reason(e)})") from e
    missing = [c for c in required if c not in header]
    if missing and not any(header):
        f.close()
        raise OobImportError(
            f"{path}: row 1: no header (the file is empty); expected the columns {', '.join(required)}"
        )
    if missing:
        f.close()
        raise OobImportError(
            f"{path}: row 1: column(s) {', '.join(map(repr, missing))} missing from the header "
            f"({', '.join(header)}); expected {', '.join(required)}"
        )

    def rows() -> Iterator[tuple[int, dict[str, str]]]:
        n = 1
        with f:
            while True:
                try:
                    r = next(reader, None)
                except UnicodeDecodeError as e:
                    row, reason = _bad_utf8(path, e)
                    raise OobImportError(f"{path}: row {max(row, n + 1)}: not readable CSV ({reason})") from e
                except csv.Error as e:
                    raise OobImportError(f"{path}: row {n + 1}: not readable CSV ({_reason(e)})") from e
                if r is None:
                    return
                n += 1
                if n - 1 > limit:
                    raise OobImportError(f"{path}: row {n}: more than {limit:,} rows (the most an import reads)")
                if not any(c.strip() for c in r):
                    continue
                if len(r) < len(header):
                    short = f"{len(r)} cell(s), the header has {len(header)}"
                    gone = ", ".join(repr(c) for c in header[len(r) :][:5]) + (
                        ", ..." if len(header) - len(r) > 5 else ""
                    )
                    if warnings is None:
                        raise OobImportError(f"{path}: row {n}: {short} (missing: {gone})")
                    warnings.append(
                        ImportWarning(str(path), n, f"{short}: column(s) {gone} read as empty", ",".join(r)[:120])
                    )
                cells = r + [""] * (len(header) - len(r))
                yield n, dict(zip(header, cells, strict=False))

    return header, rows()


def _bad_utf8(path: str | Path, e: UnicodeDecodeError) -> tuple[int, str]:
    """The line (1-based) holding the file's first byte that is not UTF-8, and the reason; the
    text reader decodes a block ahead of the CSV parser, so the parser's row is not that line."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        return raw[: err.start].count(b"\n") + 1, f"not UTF-8 text: byte 0x{raw[err.start]:02x}; save it as UTF-8"
    except OSError:
        pass
    return 1, _reason(e)


def _reason(e: Exception) -> str:
    if isinstance(e, UnicodeDecodeError):
        return f"not UTF-8 text: byte 0x{e.object[e.start]:02x}; save it as UTF-8"
    if "unexpected end of data" in str(e):
        return 'a quote (") opened in this row is never closed; close it or remove it'
    if "expected after" in str(e):
        return f"{e}: text follows a closing quote; put the whole cell in quotes"
    return str(e)


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
        """One line (a cell's line breaks shown as spaces): ``FILE:LINE: severity: message  [text]``."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        text = " ".join(self.text.split())
        tail = f"  [{text}]" if text else ""
        return " ".join(f"{where}: {self.severity}: {self.message}".splitlines()) + tail


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
    stated_men, stated_guns : int
        men and guns a table states on command rows (``stated_men``/``stated_guns`` attributes),
        counted once per branch (the topmost stating row); not in ``men``/``guns``.
    """

    commanders_by_echelon: dict[str, int]
    units_by_arm: dict[str, int]
    men: int
    horses: int
    guns: int
    batteries: int
    per_side: dict[str, dict[str, int]] = field(default_factory=dict)
    stated_men: int = 0
    stated_guns: int = 0

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
        stated = {"men": 0, "guns": 0}
        for cid, c in scenario.commanders.items():
            for k in stated:
                v = c.attributes.get(f"stated_{k}")
                if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                    continue
                above = scenario.oob.chain_of_command(cid)
                if not any(f"stated_{k}" in getattr(scenario.commanders.get(a), "attributes", {}) for a in above):
                    stated[k] += v
        return cls(
            commanders_by_echelon=dict(sorted(echelons.items(), key=lambda kv: order.get(kv[0], 99))),
            units_by_arm=dict(sorted(arms.items())),
            men=sum(u.men for u in scenario.units.values()),
            horses=sum(u.horses for u in scenario.units.values()),
            guns=sum(u.guns for u in scenario.units.values()),
            batteries=arms.get("artillery", 0),
            per_side=dict(sorted(per_side.items())),
            stated_men=stated["men"],
            stated_guns=stated["guns"],
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
        if self.stated_men or self.stated_guns:
            out.append(
                f"stated on command rows, not counted in the totals above: {self.stated_men:,} men, "
                f"{self.stated_guns:,} guns (kept as the commanders' stated_men/stated_guns attributes)"
            )
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
        self._next: dict[str, int] = {}  # base -> the suffix to try next (linear time on many clashes)

    def make(self, *parts: str) -> str:
        """A fresh id from ``parts`` joined by ``/``-free slugs (at most ``MAX_NAME`` characters)."""
        base = "-".join(slug(p) for p in parts if p)[:MAX_NAME]
        cand, n = base, self._next.get(base, 2)
        if cand in self.used:
            cand = f"{base}-{n}"
            while cand in self.used:
                n += 1
                cand = f"{base}-{n}"
            self._next[base] = n + 1
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
    check_input_file(path)
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
