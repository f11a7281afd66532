"""Importer of the republique5 indented-text order of battle (``.oob``).

The format (steveoc64/republique5, BSD 2-Clause; see ``shared/data/oob/SOURCES.md`` §2):

* directive lines: ``!<Nation> <Year>`` (``!French 1806``), a default grade (``!Veteran``),
  ``!Indent N`` (spaces per level), and command-style words (``!Efficient``, ``!Cavalry``…);
* command lines ``Name - Commander`` (or just ``Name`` when no commander is known); a name
  holds letters, digits, spaces and ``.,'’&()[]/+:-``, and no strength (``1400 men``);
* unit lines ``Name - N bases [grade] [type] [(details)]``;
* battery lines ``Name - <code> [grade]`` with codes ``HvF``/``MdF``/``LtF`` (heavy, medium,
  light foot) and ``MdH``/``LtH`` (medium, light horse).

A base is a Republique game element (about a battalion or regiment), not a head count, so units
carry ``bases`` and no men. Every line that is not understood (neither a command nor a unit line)
yields an ``ImportWarning`` naming file and line and is skipped; the rest of the file still
imports. A file that is not UTF-8 text (or holds a NUL byte) is refused whole.
"""

from __future__ import annotations

import re
from pathlib import Path
from collections.abc import Iterable, Sequence
from typing import Any

from battlestudio.model.side_colours import side_colour
from battlestudio.model.scenario import Scenario, Side, Source
from battlestudio.model.units import Arm, Commander, Echelon, Quality, Subtype, Unit
from battlestudio.store.importers.common import (
    MAX_DEPTH,
    MAX_ROWS,
    IdMaker,
    ImportResult,
    ImportWarning,
    OobImportError,
    read_text,
    slug,
    whole_number,
)
from battlestudio.store.importers.republique5_words import (
    BATTERY_CODES,
    CAVALRY_NAME,
    COMMAND_STYLES,
    GRADES,
    NATIONS,
    TYPE_PHRASES,
    TYPE_WORDS,
)
from battlestudio.rules.toe.scale import BATTERY_CATEGORY, map_echelon

MAX_LINE = 2_000
"""Longest ``.oob`` line read (characters); a longer one is skipped with a warning."""
MAX_BASES = 1_000
"""Most bases one unit line may give."""
UNIT_RE = re.compile(r"^(?P<n>[-+]?\d{1,9})\s*bases?\b(?P<words>[^(]*)(?:\((?P<details>.*?)\)?)?\s*$", re.I)
BATTERY_RE = re.compile(r"^(?P<code>[A-Za-z]{2}[FH])\b(?P<words>.*)$")
BAD_CODE_RE = re.compile(r"^[A-Z][a-z][A-Z](\s+[a-z]+)?$")
SPLIT_RE = re.compile(r"\s+-\s+")
LICENCE = "BSD 2-Clause (Copyright (c) 2019, SteveOC)"
REPO = "https://github.com/steveoc64/republique5"


class _FileState:
    """Directive state and the stack of open commands while one file is read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.nation = ""
        self.year: int | None = None
        self.indent = 2
        self.grade: Quality | None = None
        self.grade_word = ""
        self.styles: list[str] = []
        self.stack: list[tuple[int, str]] = []  # (level, commander id)
        self.roots: list[str] = []


def _classify(words: str, name: str) -> tuple[Arm, Subtype | None, Quality | None, str, list[str]]:
    """Read the grade and type words of a unit line; return arm, subtype, grade, grade word, unknown words."""
    text = " " + re.sub(r"[^a-z ]+", " ", words.lower()) + " "
    arm: Arm | None = None
    subtype: Subtype | None = None
    for phrase, a, s in TYPE_PHRASES:
        if f" {phrase} " in text:
            arm, subtype = a, s
            text = text.replace(f" {phrase} ", " ")
    grade: Quality | None = None
    grade_word = ""
    unknown: list[str] = []
    for w in text.split():
        if w in GRADES and grade is None:
            grade, grade_word = GRADES[w], w
        elif w in TYPE_WORDS and (arm is None or subtype is None):
            a, s = TYPE_WORDS[w]
            if arm is None or arm == a:
                arm, subtype = a, subtype or s
        elif w not in GRADES and w not in TYPE_WORDS:
            unknown.append(w)
    if arm is None:
        arm = Arm.CAVALRY if CAVALRY_NAME.search(name) else Arm.INFANTRY
    return arm, subtype, grade, grade_word, unknown


def _parent(st: _FileState, level: int, lineno: int, raw: str, warnings: list[ImportWarning]) -> tuple[str | None, int]:
    """Pop the command stack to ``level`` and return (superior id, corrected level)."""
    depth = len(st.stack)
    if level > depth:
        warnings.append(
            ImportWarning(
                str(st.path),
                lineno,
                f"bad indentation: level {level} under a line of level {depth - 1}; read as level {depth}",
                raw,
            )
        )
        level = depth
    while st.stack and st.stack[-1][0] >= level:
        st.stack.pop()
    return (st.stack[-1][1] if st.stack else None), level


def import_oob_file(
    path: str | Path,
    scenario: Scenario,
    ids: IdMaker,
    warnings: list[ImportWarning],
    side: str | None = None,
) -> list[str]:
    """Read one ``.oob`` file into ``scenario`` (adding records and OOB edges).

    Parameters
    ----------
    path : str | Path
        the ``.oob`` file.
    scenario : Scenario
        receives sides, commanders, units and edges.
    ids : IdMaker
        shared id generator (so several files can go into one scenario).
    warnings : list[ImportWarning]
        receives a warning for every line not understood and a note for every transformation.
    side : str | None
        side id for everything in the file; default: the slug of the file's nation.

    Returns
    -------
    list[str]
        ids of the file's root commanders.

    Raises
    ------
    OobImportError
        when the file cannot be read.
    """
    path = Path(path)
    st = _FileState(path)
    text = read_text(path)
    prefix = slug(path.stem)
    last_unit_level: int | None = None
    lines = text.splitlines()
    if len(lines) > MAX_ROWS:
        raise OobImportError(f"{path}: {len(lines):,} lines, more than the {MAX_ROWS:,} an import reads")
    for lineno, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        if len(raw) > MAX_LINE:
            warnings.append(
                ImportWarning(
                    str(path), lineno, f"line of {len(raw):,} characters, more than {MAX_LINE:,}; skipped", raw[:80]
                )
            )
            continue
        line = raw.rstrip()
        stripped = line.lstrip(" ")
        if stripped.startswith("\t") or "\t" in line[: len(line) - len(stripped)]:
            warnings.append(ImportWarning(str(path), lineno, "tab in indentation; read as one level", raw))
            stripped = stripped.lstrip("\t ")
        if stripped.startswith("!"):
            _directive(st, stripped, lineno, raw, warnings)
            continue
        spaces = len(line) - len(line.lstrip())
        level = spaces // max(st.indent, 1)
        if spaces % max(st.indent, 1):
            warnings.append(
                ImportWarning(
                    str(path),
                    lineno,
                    f"bad indentation: {spaces} spaces is not a multiple of !Indent {st.indent}; read as level {level}",
                    raw,
                )
            )
        if last_unit_level is not None and level > last_unit_level and (not st.stack or level > st.stack[-1][0] + 1):
            warnings.append(
                ImportWarning(
                    str(path),
                    lineno,
                    "line indented under a unit line; attached to that unit's commander",
                    raw,
                )
            )
            level = last_unit_level
        if level > MAX_DEPTH:
            warnings.append(
                ImportWarning(str(path), lineno, f"indented {level} levels, more than {MAX_DEPTH}; line skipped", raw)
            )
            continue
        parent, level = _parent(st, level, lineno, raw, warnings)
        parts = SPLIT_RE.split(stripped, maxsplit=1)
        name = parts[0].strip()
        rest = parts[1].strip() if len(parts) > 1 else ""
        side_id = side or slug(st.nation or "unknown")
        if side_id not in scenario.sides:
            taken = (s.colour for s in scenario.sides.values())
            scenario.sides[side_id] = Side(
                side_id,
                st.nation or side_id,
                (st.nation,) if st.nation else (),
                side_colour(st.nation or side_id, taken),
            )
        m_unit = UNIT_RE.match(rest)
        m_bty = BATTERY_RE.match(rest) if not m_unit else None
        if m_unit or (m_bty and m_bty.group("code") in BATTERY_CODES):
            unit = _unit(st, path, lineno, raw, name, m_unit, m_bty, side_id, ids, prefix, warnings)
            if parent is None:
                warnings.append(ImportWarning(str(path), lineno, "unit line with no command above it", raw))
            else:
                scenario.oob.add(parent, unit.id)
            scenario.units[unit.id] = unit
            last_unit_level = level
            continue
        if re.match(r"^[-+]?\d", rest):
            warnings.append(
                ImportWarning(
                    str(path),
                    lineno,
                    f"strength not understood: {rest!r} (expected 'N bases …'); line skipped",
                    raw,
                )
            )
            continue
        if BAD_CODE_RE.match(rest):
            warnings.append(
                ImportWarning(
                    str(path),
                    lineno,
                    f"unknown battery code {rest.split()[0]!r} (known: {', '.join(BATTERY_CODES)}); line skipped",
                    raw,
                )
            )
            continue
        why = _not_a_command(name, rest)
        if why:
            warnings.append(
                ImportWarning(
                    str(path),
                    lineno,
                    f"neither a command line ('Name - Commander') nor a unit line "
                    f"('Name - N bases …'): {why}; line skipped",
                    raw,
                )
            )
            continue
        last_unit_level = None
        cid = ids.make(prefix, name)
        src_echelon = _source_echelon(name, parent, scenario)
        echelon, note = map_echelon(
            src_echelon, st.nation, st.year, parent_echelon=(scenario.commanders[parent].echelon if parent else None)
        )
        if note:
            warnings.append(ImportWarning(str(path), lineno, note, raw, "note"))
        person = rest if rest and not rest.startswith("(") else ""
        attrs = {"formation": name, "source_file": path.name, "source_line": lineno, "source_echelon": src_echelon}
        if rest.startswith("("):
            attrs["commander_note"] = rest.strip("()")
        if parent is None and st.styles:
            attrs["republique_styles"] = list(st.styles)
        if st.year:
            attrs["year"] = st.year  # the source's date, for 1.3's Prussian brigade (scale.read_prussian_brigades)
        scenario.commanders[cid] = Commander(
            id=cid,
            name=person or name,
            side=side_id,
            nation=st.nation,
            echelon=echelon,
            figures=_GENERAL_FIGURES[echelon],
            attributes=attrs,
        )
        if parent is None:
            scenario.oob.add_node(cid)
            st.roots.append(cid)
        else:
            scenario.oob.add(parent, cid)
        st.stack.append((level, cid))
    return st.roots


NAME_CHARS_RE = re.compile(r"[\w .,'’&()\[\]/+:-]*")
LETTER_RE = re.compile(r"[^\W\d_]")
NUMBER_WORD_RE = re.compile(r"\d\w*")
STRENGTH_RE = re.compile(r"\b\d[\d,.]{0,15}\s{0,8}(men|bases?|guns|sabres|bayonets|horses|sqns?|bns?)\b", re.I)


def _is_name(part: str) -> bool:
    """A formation or commander name: letters, digits, spaces and ``.,'’&()[]/+:-``, with a
    letter; starting with a letter, or with a number word (``12e``) and a space or ``.``
    before the letter. Linear time (each test is one pass)."""
    if not part or not NAME_CHARS_RE.fullmatch(part):
        return False
    if LETTER_RE.match(part):
        return True
    cut = min((i for i in (part.find(" "), part.find(".")) if i >= 0), default=-1)
    return cut > 0 and NUMBER_WORD_RE.fullmatch(part[:cut]) is not None and LETTER_RE.search(part, cut + 1) is not None


def _not_a_command(name: str, rest: str) -> str:
    """Why ``name - rest`` cannot be a command line, or ``""`` when it can."""
    for part in (name, rest.strip("()") if rest.startswith("(") else rest):
        if not part:
            continue
        if strength := STRENGTH_RE.search(part):
            return f"{strength.group(0)!r} is not a strength this format reads"
        if not _is_name(part) or not part.isprintable():
            return f"{part!r} does not read as a name"
    return ""


_GENERAL_FIGURES = {
    Echelon.C_IN_C.value: 6,
    Echelon.ARMY.value: 4,
    Echelon.CORPS.value: 3,
    Echelon.DIVISION.value: 2,
    Echelon.BRIGADE.value: 2,
}
"""Figures on a general's base by echelon (Torden over Europa 1.4)."""


def _directive(st: _FileState, stripped: str, lineno: int, raw: str, warnings: list[ImportWarning]) -> None:
    words = stripped[1:].split()
    if not words:
        warnings.append(ImportWarning(str(st.path), lineno, "empty directive", raw))
        return
    head = words[0].lower()
    number = whole_number(words[1]) if len(words) == 2 else None
    if head == "indent" and number is not None and 0 < number <= 16:
        st.indent = number
    elif head in NATIONS and (len(words) == 1 or (number is not None and number <= 9999)):
        st.nation = NATIONS[head]
        st.year = number
    elif head in GRADES and len(words) == 1:
        st.grade, st.grade_word = GRADES[head], head
    elif head in COMMAND_STYLES and len(words) == 1:
        st.styles.append(head)
    else:
        warnings.append(ImportWarning(str(st.path), lineno, f"unknown directive {stripped!r}; ignored", raw))


def _unit(
    st: _FileState,
    path: Path,
    lineno: int,
    raw: str,
    name: str,
    m_unit: re.Match[str] | None,
    m_bty: re.Match[str] | None,
    side_id: str,
    ids: IdMaker,
    prefix: str,
    warnings: list[ImportWarning],
) -> Unit:
    """The unit of a strength line: ``m_unit`` matched it, or else ``m_bty`` (a battery)."""
    uid = ids.make(prefix, name)
    attrs: dict[str, Any] = {"source_file": path.name, "source_line": lineno}
    if m_unit:
        bases = int(m_unit.group("n"))
        if bases > MAX_BASES:
            warnings.append(
                ImportWarning(str(path), lineno, f"{bases} bases, more than {MAX_BASES}; imported with 0 bases", raw)
            )
            bases = 0
        if bases < 0:
            warnings.append(
                ImportWarning(str(path), lineno, f"negative strength {bases} bases; imported with 0 bases", raw)
            )
            bases = 0
        arm, subtype, grade, grade_word, unknown = _classify(m_unit.group("words"), name)
        if m_unit.group("details"):
            attrs["details"] = m_unit.group("details").strip()
        code = None
    else:
        assert m_bty is not None, "the caller passes a battery match when there is no unit match"
        bases = 1
        code = m_bty.group("code")
        arm, subtype = Arm.ARTILLERY, BATTERY_CODES[code]
        _, _, grade, grade_word, unknown = _classify(m_bty.group("words"), name)
        attrs["battery_code"] = code
        attrs["gun_category"] = BATTERY_CATEGORY[subtype]
    if unknown:
        warnings.append(
            ImportWarning(
                str(path),
                lineno,
                f"unknown grade/type word(s) {', '.join(repr(w) for w in unknown)}; "
                f"grade {'from the file default' if grade is None else grade.value} kept",
                raw,
            )
        )
    if grade is None:
        grade, grade_word = st.grade or Quality.REGULAR, st.grade_word
    if grade_word:
        attrs["source_grade"] = grade_word
    if st.year:
        attrs["year"] = st.year
    return Unit(
        id=uid,
        name=name,
        side=side_id,
        nation=st.nation,
        arm=arm,
        subtype=subtype,
        quality=grade.value,
        bases=bases,
        attributes=attrs,
    )


_KEYWORDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bcorps (artillery|cavalry)\b|\breserve artillery\b|\bartillery\b", re.I), ""),
    (re.compile(r"\bdiv(ision)?\b", re.I), Echelon.DIVISION.value),
    (re.compile(r"\b(brigade|bde)\b", re.I), Echelon.BRIGADE.value),
    (re.compile(r"\b(army|arm[ée]e|hq)\b", re.I), Echelon.ARMY.value),
    (re.compile(r"corps\b", re.I), Echelon.CORPS.value),
]


def _source_echelon(name: str, parent: str | None, scenario: Scenario) -> str:
    """The echelon a command line names (``Division`` → division …), else one below its parent."""
    for pattern, ech in _KEYWORDS:
        if pattern.search(name):
            if ech:
                return ech
            break
    if parent is None:
        return Echelon.CORPS.value
    order = [e.value for e in Echelon]
    i = order.index(scenario.commanders[parent].echelon)
    return order[min(i + 1, len(order) - 1)]


def import_republique5(
    paths: Sequence[str | Path] | str | Path,
    side: str | None = None,
    scenario: Scenario | None = None,
) -> ImportResult:
    """Import one or more republique5 ``.oob`` files into one scenario.

    Parameters
    ----------
    paths : path or sequence of paths
        ``.oob`` files.
    side : str | None
        side id for all of them; default one side per nation.
    scenario : Scenario | None
        scenario to add to (a new one by default).

    Returns
    -------
    ImportResult
        the scenario, warnings (file and line each) and the root commander ids.

    Raises
    ------
    OobImportError
        when a file cannot be read.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    sc = scenario if scenario is not None else Scenario()
    ids = IdMaker(sc.all_ids())
    warnings: list[ImportWarning] = []
    roots: list[str] = []
    for p in paths:
        roots += import_oob_file(p, sc, ids, warnings, side)
    if not any(s.title.startswith("republique5") for s in sc.sources):
        sc.sources.append(
            Source(
                "republique5 order-of-battle files (steveoc64/republique5)",
                REPO,
                LICENCE,
                "files: " + ", ".join(Path(p).name for p in paths),
            )
        )
    _note_roots(sc, roots, warnings, paths)
    return ImportResult(sc, warnings, roots)


def _note_roots(sc: Scenario, roots: Iterable[str], warnings: list[ImportWarning], paths: Sequence[str | Path]) -> None:
    by_side: dict[str, list[str]] = {}
    for r in roots:
        by_side.setdefault(sc.commanders[r].side, []).append(r)
    for s, rs in by_side.items():
        if len(rs) > 1:
            warnings.append(
                ImportWarning(
                    ", ".join(str(p) for p in paths),
                    0,
                    f"side {s!r} has {len(rs)} top commanders ({', '.join(rs)}); "
                    "put a commander-in-chief above them before play",
                    "",
                    "note",
                )
            )
