"""The out-of-command findings of Torden over Europa in words (2.4, 2.5, 2.7, 2.11, 4.9).

``command.check_command`` measures; this module turns each measured subject into an
``OutOfCommandFinding``: whether it is exempt (detached, routed, cavalry on an attack outside
command distance), what it must do, and the sentence saying so.

A command check of a whole army words about a thousand findings, most of them read only for
their numbers (who is out, how far), so the two common ones — within command distance, and
"must move back inside" — are ``LazyFinding`` objects whose sentence is written when ``text``
is first read. They have the same fields, and compare, hash, copy and pickle, as the
protocol's plain ``OutOfCommandFinding`` with the same values. The parts of the sentences that
depend only on the superior are written once per superior and commander record (``Chief``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, cast
from collections.abc import Callable

from shapely.geometry.base import BaseGeometry

from battlestudio.model.units import Arm, Commander, Unit
from battlestudio.replay.state import GameState
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.protocol import OutOfCommandFinding
from battlestudio.rules.toe.common import base_of, name_of

RULE = "2.4, 2.5"
"""Rule sections of a finding without a raid (4.9)."""


def fmt_cm(d: float) -> str:
    """A distance in cm for text: up to two decimals, no trailing zeros (15, 15.01)."""
    return f"{d:.2f}".rstrip("0").rstrip(".")


@dataclass(slots=True)
class Chief:
    """A superior measured from (2.4–2.5): ``id``, command distance ``reach`` (cm), ``base``
    (shapely geometry, cm), display ``name``, and the parts of his subordinates' sentences that
    are his: a subordinate within reads ``who + within + fmt_cm(d) + within_end``, one that
    must move back ``who + " is " + fmt_cm(d) + out``."""

    id: str
    reach: float
    base: BaseGeometry
    name: str
    within: str
    within_end: str
    out: str


def chief_for(c: Commander, reach: float) -> Chief:
    """The ``Chief`` of commander record ``c`` with command distance ``reach`` cm.

    Cached per record object and reach (records are immutable; a check of a whole army needs
    some 300 superiors, and a replay or a drag repeats it with most of them unchanged)."""
    hit = _CHIEFS.get(id(c))
    if hit is not None and hit[0] is c and hit[1].reach == reach:
        return hit[1]
    name = c.name or c.id
    chief = Chief(
        c.id,
        reach,
        base_of(c),
        name,
        f" is within {name}'s command distance (",
        f" ≤ {reach:g} cm)",
        f" cm from {name}, outside his command distance of {reach:g} cm: it must move back inside in its "
        f"movement phase, changing to a faster formation if that gets it there, and if terrain prevents it "
        f"make its maximum move towards him (2.4, 2.5, 2.7)",
    )
    if len(_CHIEFS) >= 1 << 14:
        _CHIEFS.clear()
    _CHIEFS[id(c)] = (c, chief)
    return chief


_CHIEFS: dict[int, tuple[Commander, Chief]] = {}  # id(record) -> (record, chief); the record keeps the id taken

_FIELDS = tuple(f.name for f in fields(OutOfCommandFinding))
_TEXT = OutOfCommandFinding.__dict__["text"]  # the dataclass's own slot for ``text``
_values = attrgetter(*_FIELDS)


class LazyFinding(OutOfCommandFinding):
    """An ``OutOfCommandFinding`` within command distance or that must move back inside
    (2.4, 2.5, 2.7), whose ``text`` is written when first read (then kept).

    Equal to, and hashed, copied, pickled and ``dataclasses.replace``-d like, the plain
    finding with the same field values; frozen like it.
    """

    __slots__ = ("_who", "_chief")
    _who: str
    _chief: Chief

    @property
    def text(self) -> str:
        try:
            return cast(str, _TEXT.__get__(self, LazyFinding))
        except AttributeError:  # not written yet
            pass
        chief, d = self._chief, self.distance
        if self.within:
            text = f"{self._who}{chief.within}{fmt_cm(d)}{chief.within_end}"
        else:
            text = f"{self._who} is {fmt_cm(d)}{chief.out}"
        _TEXT.__set__(self, text)
        return text

    @text.setter
    def text(self, value: str) -> None:  # only the dataclass's __init__ and unpickling get here
        _TEXT.__set__(self, value)

    def __eq__(self, other: object) -> bool:
        if type(other) is OutOfCommandFinding or type(other) is LazyFinding:
            return _values(self) == _values(other)
        return NotImplemented

    __hash__ = OutOfCommandFinding.__hash__

    def __repr__(self) -> str:
        return repr(OutOfCommandFinding(*_values(self)))


def _maker() -> Callable[[str, Chief, str, float, bool], OutOfCommandFinding] | None:
    """A fast constructor of ``LazyFinding`` (slots set directly: the frozen dataclass's
    ``__init__`` costs a generic ``object.__setattr__`` per field), or None when the protocol's
    finding no longer has the fields it knows."""
    if _FIELDS != (
        "subject",
        "superior",
        "distance",
        "reach",
        "within",
        "exemption",
        "consequence",
        "text",
        "rule",
    ) or hasattr(OutOfCommandFinding, "__post_init__"):
        return None
    slot = OutOfCommandFinding.__dict__
    subject, superior, distance, reach, within, exemption, consequence, rule = (
        slot[n].__set__ for n in _FIELDS if n != "text"
    )
    who_, chief_ = LazyFinding.__dict__["_who"].__set__, LazyFinding.__dict__["_chief"].__set__
    new = object.__new__

    def make(node: str, chief: Chief, who: str, d: float, inside: bool) -> OutOfCommandFinding:
        f = new(LazyFinding)
        subject(f, node)
        superior(f, chief.id)
        distance(f, d)
        reach(f, chief.reach)
        within(f, inside)
        exemption(f, "")
        consequence(f, "" if inside else "must-return")
        rule(f, RULE)
        who_(f, who)
        chief_(f, chief)
        return f

    return make


plain_finding = _maker()
"""``plain_finding(node, chief, who, d, inside)``: the finding of a subject with no exemption
and no raid (4.9) — within, or must move back inside (2.4, 2.5, 2.7) — worded lazily; None
when the protocol's finding changed shape (then ``word_finding`` words every finding)."""


def fled_state(p: RuleParameters, memo: list[Any]) -> Any:
    """``fled_state`` (2.4, assumed FU), read from ``p`` on first use only and kept in ``memo``:
    reading an assumed value records it in ``p.assumed_used``, which must not happen when no
    unit needed it."""
    if not memo:
        memo.append(p.get("fled_state"))
    return memo[0]


def word_finding(
    state: GameState,
    p: RuleParameters,
    fled: list[Any],
    node: str,
    rec: Any,
    chief: Chief,
    d: float,
    inside: bool,
    by_id: bool = False,
) -> OutOfCommandFinding:
    """The finding of subject ``node`` (record ``rec``) measured ``d`` cm from ``chief``,
    ``inside`` his command distance or not, worded at once (2.4, 2.5, 2.11, 4.9).

    ``by_id`` looks the subject's name and unit record up by id (a commander's first), as when
    a unit shares its id with a commander. ``fled`` is ``fled_state``'s memo.
    """
    if by_id:
        who, unit = name_of(state, node), state.units.get(node)
    else:
        who, unit = rec.name or node, rec if type(rec) is Unit else None
    flags = state.flags
    raid = flags.get("raid:" + node) if flags else None
    sup, reach = chief.id, chief.reach
    if inside:
        text = f"{who}{chief.within}{fmt_cm(d)}{chief.within_end}"
        if raid:
            text += "; back in command after its attack outside command distance (4.9)"
            return OutOfCommandFinding(node, sup, d, reach, True, "", "back-in-command", text, "4.9")
        return OutOfCommandFinding(node, sup, d, reach, True, "", "", text, RULE)
    name = chief.name
    exemption, consequence, rule = "", "", RULE
    if flags and "detached:" + node in flags:
        exemption = "detached"
        text = f"{who} is {fmt_cm(d)} cm from {name} (command distance {reach:g} cm) but detached (2.4, 2.11)"
    elif unit is not None and unit.state == fled_state(p, fled):
        exemption = "fled"
        text = f"{who} is {fmt_cm(d)} cm from {name} (command distance {reach:g} cm) but routed (2.4)"
    elif unit is not None and unit.arm == Arm.CAVALRY and raid and not raid.get("returning"):
        exemption, rule = "cavalry-attack", "4.9"
        text = (
            f"{who} is {fmt_cm(d)} cm from {name} (command distance {reach:g} cm) on an attack outside command "
            f"distance since turn {raid.get('left_turn')}: it must attack at least one enemy unit each turn (4.9)"
        )
    elif unit is not None and raid:
        consequence, rule = "must-return-facing-chief", "4.9"
        text = (
            f"{who} is {fmt_cm(d)} cm from {name} (command distance {reach:g} cm) and no longer attacking: it "
            f"must move at once towards {name}'s command distance, facing him (4.9)"
        )
    else:
        consequence = "must-return"
        text = f"{who} is {fmt_cm(d)}{chief.out}"
    return OutOfCommandFinding(node, sup, d, reach, False, exemption, consequence, text, rule)
