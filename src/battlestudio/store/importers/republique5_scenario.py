"""Reader of republique5 ``.scenario`` files: start time, briefings and arrival windows.

Format (steveoc64/republique5, BSD 2-Clause): ``!Start 14 Oct 1806 06:00`` (or
``!StartTime 1806-10-14 06:00``), ``!Indent N``, then per side (``Prussia``, ``France``) a
``Briefing`` block of free text and zone blocks (``Left``, ``Centre``, ``Right``, ``Reserve``)
listing commands with their arrival: ``VI-Corps (1-3 hrs) 70%``, ``Hohenlohe - 1st Division
(contact)``. Every line not understood yields an ``ImportWarning`` with file and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from battlestudio.store.importers.common import ImportWarning, read_text, whole_number

ZONES = {"left", "centre", "center", "right", "reserve"}
ARRIVAL_RE = re.compile(
    r"^(?P<ref>.+?)\s*\((?:(?P<contact>contact)|(?P<a>\d{1,4})\s*-\s*(?P<b>\d{1,4})\s*hrs?)\)"
    r"\s*(?:(?P<p>\d{1,4})\s*%)?\s*$",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Arrival:
    """One command's arrival in a republique5 scenario.

    Attributes
    ----------
    side : str
        the side heading (``"France"``, ``"Prussia"``).
    zone : str
        ``left``, ``centre``, ``right`` or ``reserve``.
    command : str
        the file's root command (``"Hohenlohe"``, ``"VI-Corps"``).
    subcommand : str
        the named sub-command (``"1st Division"``), or "" for the whole command.
    earliest_hours, latest_hours : int
        arrival window in hours after the start (0, 0 for ``contact``).
    probability : float
        chance it arrives at all (0–1; 1 when no percentage is given).
    contact : bool
        on the table at the start.
    line : int
        line in the file.
    """

    side: str
    zone: str
    command: str
    subcommand: str
    earliest_hours: int
    latest_hours: int
    probability: float
    contact: bool
    line: int


@dataclass
class ScenarioFile:
    """What a ``.scenario`` file says: ``start``, ``briefings`` per side, ``arrivals``, ``warnings``."""

    path: str
    start: datetime | None = None
    briefings: dict[str, str] = field(default_factory=dict)
    arrivals: list[Arrival] = field(default_factory=list)
    warnings: list[ImportWarning] = field(default_factory=list)


def read_scenario(path: str | Path) -> ScenarioFile:
    """Read a republique5 ``.scenario`` file.

    Raises
    ------
    OobImportError
        when the file cannot be read.
    """
    path = Path(path)
    out = ScenarioFile(str(path))
    indent = 2
    side = zone = ""
    brief: list[str] = []
    for lineno, raw in enumerate(read_text(path).splitlines(), start=1):
        if not raw.strip():
            if zone == "briefing":
                brief.append("")
            continue
        s = raw.strip()
        if s.startswith("!"):
            head, _, rest = s[1:].partition(" ")
            if head.lower() == "indent" and 0 < (whole_number(rest) or 0) <= 16:
                indent = whole_number(rest) or 2
            elif head.lower() in ("start", "starttime"):
                out.start = _start(rest.strip())
                if out.start is None:
                    out.warnings.append(
                        ImportWarning(str(path), lineno, f"start time {rest.strip()!r} not understood", raw)
                    )
            else:
                out.warnings.append(ImportWarning(str(path), lineno, f"unknown directive {s!r}; ignored", raw))
            continue
        level = (len(raw) - len(raw.lstrip(" "))) // max(indent, 1)
        if level == 0:
            if side and brief:
                out.briefings[side] = "\n".join(brief).strip()
            side, zone, brief = s, "", []
        elif level == 1:
            if side and brief and zone == "briefing":
                out.briefings[side] = "\n".join(brief).strip()
            zone = s.lower()
            if zone != "briefing" and zone not in ZONES:
                out.warnings.append(ImportWarning(str(path), lineno, f"unknown block {s!r}", raw))
        elif zone == "briefing":
            brief.append(s)
        else:
            m = ARRIVAL_RE.match(s) if len(s) <= 2_000 else None
            if not m or not side:
                out.warnings.append(
                    ImportWarning(
                        str(path),
                        lineno,
                        "arrival not understood (expected 'Command [- Sub] (contact|A-B hrs) [P%]')",
                        raw,
                    )
                )
                continue
            command, _, sub = m.group("ref").partition(" - ")
            contact = bool(m.group("contact"))
            a, b = (0, 0) if contact else (int(m.group("a")), int(m.group("b")))
            if a > b:
                out.warnings.append(
                    ImportWarning(str(path), lineno, f"window {a}-{b} hrs runs backwards; swapped", raw)
                )
                a, b = b, a
            p = int(m.group("p")) / 100.0 if m.group("p") else 1.0
            if p > 1.0:
                out.warnings.append(
                    ImportWarning(str(path), lineno, f"probability {m.group('p')}% over 100; read as 100%", raw)
                )
                p = 1.0
            out.arrivals.append(
                Arrival(
                    side, "centre" if zone == "center" else zone, command.strip(), sub.strip(), a, b, p, contact, lineno
                )
            )
    if side and brief and zone == "briefing":
        out.briefings[side] = "\n".join(brief).strip()
    return out


def _start(text: str) -> datetime | None:
    for fmt in ("%d %b %Y %H:%M", "%Y-%m-%d %H:%M"):
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def turns_for_hours(hours: int, turn_minutes: int = 15) -> int:
    """The 1-based game turn that starts ``hours`` after turn 1 (Torden over Europa 1.1: 15 min)."""
    return 1 + hours * 60 // turn_minutes
