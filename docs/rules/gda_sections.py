"""The rules of General d'Armée (seed 002, the Russian partial translation) for the traceability
table, and how code and tests cite them.

The Russian text has no section numbers: a rule is cited by its heading («ОБЪЯВЛЕНИЕ АТАКИ»,
«ТАБЛИЦА ДРОГНУВШЕЙ БРИГАДЫ»), by a numbered item of its lists («ПРОЦЕДУРА АТАКИ 3»,
«ПРОВЕДЕНИЕ АТАКИ 5» or "step 5", "restriction 7" / «ОГРАНИЧЕНИЯ НА АТАКУ 7»), by the letter of a
support prohibition ("prohibition Г", "refused: Г — …") or by the name of a worked example.
``docs/rules/trace.py gda`` uses ``SECTIONS`` and ``cited``.
"""

from __future__ import annotations

import re

LETTERS = "АБВГДЕЖЗИК"
"""The support prohibitions' letters, in the seed's order (Й is skipped)."""

_NAMED: tuple[tuple[str, str, str], ...] = (
    (
        "C1",
        "Командная Ситуация стандартной Бригады: D6, obeys 3-6, Hesitant 1-2",
        r"стандартной Бригады|command roll|Командный Бросок",
    ),
    (
        "C2",
        "Командная Ситуация деморализованной Бригады: 5-6; over 50 % dispersed; Elite never; Faltering disperses",
        r"деморализованн|Demoralised",
    ),
    ("C3", "СТОЙКИЕ: Steady brigades, automatic rally, Redeploy", r"СТОЙКИЕ"),
    ("C4", "КОЛЕБЛЮЩАЯСЯ: Hesitant restrictions, damage and rout, markers removed at the end of the turn", r"КОЛЕБЛЮЩ"),
    (
        "C5",
        "ДРОГНУВШИЕ: two retreating close-order battalions, one routing or dispersed unit",
        r"ДРОГНУВШИЕ|faltering_cause|is Faltering",
    ),
    (
        "C6",
        "ТАБЛИЦА ДРОГНУВШЕЙ БРИГАДЫ: Obeys / Rally / Retreat / Sauve qui Peut!",
        r"ТАБЛИЦА ДРОГНУВШЕЙ|Faltering (?:Brigade )?table|Sauve qui Peut",
    ),
    (
        "C7",
        "Averaged quality: «разделите 50/50, потом возьмите наивысший уровень»",
        r"50/50|averaged quality|upper_median",
    ),
    ("EX-A", "Пример - Бригадные Командные броски, A (Girard: 2, reroll 3)", r"Girard|example[ _]a\b|example[ _]a_"),
    (
        "EX-Б",
        "Пример Б (Dullitz's cavalry out of reserve rolls 1)",
        r"example[ _]Б|example_b_|out of reserve|in_reserve",
    ),
    ("EX-В", "Пример В (Dullitz's Faltering brigade: 3 Line + 1 Veteran rolls 3)", r"example[ _]В|example_[cv]_"),
    ("I1", "ИНИЦИАТИВА: 2D6, -1 per Hesitant or Faltering brigade, ties", r"ИНИЦИАТИВА"),
    (
        "I2",
        "Французская Инициатива: Initiative!, one or two ADCs, +1 each",
        r"Французская Инициатива|French Initiative",
    ),
    (
        "ADC",
        "ADC tasks: Forward!, Infantry Assault!, Brigade Attachment!, Redeploy (the ADC chapter is lost)",
        r"\bADC",
    ),
    (
        "D1",
        "ОБЪЯВЛЕНИЕ АТАКИ: Formed units within the brigadier's 30 cm; one battalion without Infantry Assault!",
        r"ОБЪЯВЛЕНИЕ АТАКИ",
    ),
    ("D2", "Flanked: half an enemy unit within 15 cm of the flank or rear, nothing between", r"flanked"),
    (
        "D3",
        "Attack move: normal move + 5 cm infantry / 10 cm cavalry, Forward! +2D6 cm",
        r"attack_reach|attack bonus|attack move|greatest reach",
    ),
    ("D4", "Пример - Объявление атаки (Adam's Light Brigade with and without Assault!)", r"\bAdam|example_adam"),
    (
        "S1",
        "ПОДДЕРЖКА АТАКИ: flank 5 cm, rear 5 cm / 10 cm cavalry, at most three, 50 % behind",
        r"ПОДДЕРЖКА АТАКИ|support_position",
    ),
    ("S2", "Выгоды: one reroll per support, -1 penalties not cumulative, minimum 1, attacker first", r"Выгоды|reroll"),
    ("SE1", "Support example 1: two columns on the flanks, one behind", r"support[ _]example[ _]1"),
    ("SE2", "Support example 2: the Russian brigade, unit 3 refused by Г", r"support[ _]example[ _]2"),
    (
        "T1",
        "ТАБЛИЦА «РЕЗУЛЬТАТЫ АТАКИ» (values lost): the difference of the totals, applied to every unit",
        r"РЕЗУЛЬТАТЫ АТАКИ|Attack Results",
    ),
    (
        "T2",
        "Double six: a clean double 6 calls for the Fate test (table lost)",
        r"Двойная 6|double six|double-six|\bFate\b",
    ),
    (
        "T3",
        "Several separate attacks on one target: each rolls, the best counts, the defender rolls once",
        r"several (?:separate )?attack|best[- ]of[- ]several",
    ),
    ("T4", "Атака против гарнизона: straight into melee after fire and Discipline tests", r"гарнизон|garrison"),
    (
        "M1",
        "МОДИФИКАТОРЫ АТАКИ: quality, attacking, heavy cavalry, pikemen, formations",
        r"МОДИФИКАТОРЫ АТАКИ|Модификаторы атаки|attack_modifiers",
    ),
    (
        "M2",
        "Урон: damage in the attack 2*/3+/5+, unit 4+/8+ (10+ Guard/Large), artillery 4+/6+ (8+)",
        r"Урон (?:в Атаке|подразделения|артиллерии)|damage threshold",
    ),
    (
        "M3",
        "Defender flanked -2 / attacked in the flank or rear -4; brigade Hesitant/Faltering/Demoralised -1",
        r"attacked in (?:the )?flank or rear|defender flanked|brigade (?:status|Hesitant)",
    ),
    ("DT", "Discipline Test (table lost): reactions II, III, steps 7 and 8", r"Discipline"),
)

_PROCEDURE = (
    "declaration, active player first; passive attacks cancelled when out of reach",
    "direction and wheel from the attack bonus",
    "Forward! +2D6 cm",
    "target out of reach: the attacker moves its full distance and stops Unformed",
    "measuring; an attack within the greatest reach must go in",
    "the target's reaction: fire, wheel and fire, square, evade, retreating units rout",
)
_CONDUCT = (
    "leading unit and its supports",
    "the defender's supports",
    "the defender must include its supports in range",
    "the attacker closes to 5 cm",
    "defensive fire (the leader takes the majority) or reaction (wheel, square, turn, evade)",
    "fire support",
    "Discipline Test of the leading attacker",
    "Discipline Test of the attacking supports",
    "both sides roll 2D6 + modifiers; the Attack Results table",
    "attack on a built-up area or strongpoint: straight into melee",
)
_RESTRICTIONS = (
    "base contact must be possible",
    "no skirmishers; no Unformed, Retreating or Routing attackers",
    "general or supported infantry attacks need Infantry Assault!",
    "flanked infantry only with the general attached",
    "no several separate attacks from a Combined Column on one unit",
    "Hesitant and Faltering brigades declare no attacks",
    "infantry never attacks cavalry nor across formed cavalry closer than 15 cm",
    "garrisons do not attack out of settlements",
    "no reinforcing a melee of the other arm",
    "cavalry not into woods, broken ground, across high walls",
    "infantry and cavalry not on the same target",
    "no attacks in Company Column",
    "Cossacks: no frontal attack on close-order infantry, artillery, heavy cavalry",
    "artillery declares no attacks",
    "line of sight, or the enemy within 15 cm",
    "the attack is cancelled when the target cannot be reached",
)
_PROHIBITIONS = (
    "not in command (beyond the brigadier's 30 cm) when attacking",
    "another brigade",
    "attacking or defending a settlement or strongpoint",
    "an enemy not involved in the attack within 15 cm to a flank support's front",
    "artillery, skirmishers, garrisons, retreating units",
    "square",
    "the supported unit was attacked in the flank or rear and is still flanked within 5 cm",
    "a Faltering brigade (except one attacker on two adjacent defenders)",
    "another arm",
    "impassable terrain in the way",
)

SECTIONS: tuple[tuple[str, str], ...] = (
    *((k, h) for k, h, _ in _NAMED[:17]),
    *((f"ПА {i}", f"ПРОЦЕДУРА АТАКИ {i}: {h}") for i, h in enumerate(_PROCEDURE, 1)),
    *((f"R {i}", f"ОГРАНИЧЕНИЯ НА АТАКУ {i}: {h}") for i, h in enumerate(_RESTRICTIONS, 1)),
    *((k, h) for k, h, _ in _NAMED[17:21]),
    *((f"З {c}", f"Запрет на оказание поддержки {c}: {h}") for c, h in zip(LETTERS, _PROHIBITIONS, strict=True)),
    *((f"ПР {i}", f"ПРОВЕДЕНИЕ АТАКИ {i}: {h}") for i, h in enumerate(_CONDUCT, 1)),
    *((k, h) for k, h, _ in _NAMED[21:]),
)
"""Every rule of the seed the program implements or names as lost, with its heading."""

_PATTERNS = {k: re.compile(p, re.IGNORECASE) for k, _, p in _NAMED}
_RANGE = r"\s+(\d{1,2})(?:\s*(-|–|and|и|,)\s*(\d{1,2}))?(?!\d)"
_NUMBERED = (
    ("ПА", re.compile(r"ПРОЦЕДУРА АТАКИ" + _RANGE)),
    ("ПР", re.compile(r"(?:ПРОВЕДЕНИЕ АТАКИ|\bsteps?)" + _RANGE, re.IGNORECASE)),
    ("R", re.compile(r"(?:\brestrictions?|ОГРАНИЧЕНИЯ НА АТАКУ)" + _RANGE, re.IGNORECASE)),
)
_LETTER = re.compile(
    rf"(?:prohibitions?\s+|Запрет на оказание поддержки\s+)([{LETTERS}])(?:\s*[-–]\s*([{LETTERS}]))?"
    rf"|(?<![А-Яа-яЁё])([{LETTERS}]) —"
    rf"|refused: ([{LETTERS}])(?![А-Яа-яЁё])"
)


def cited(text: str, known: set[str]) -> set[str]:
    """Known rules named in ``text``: headings and examples by their patterns, numbered items
    with ranges ("restrictions 1–16", "ПРОВЕДЕНИЕ АТАКИ 1-3"), prohibitions by their letter
    ("prohibitions А–К" names all ten). Underscores read as spaces, so a test named
    ``test_restriction_7_…`` cites restriction 7."""
    text = text + "\n" + text.replace("_", " ")
    out = {k for k, pat in _PATTERNS.items() if pat.search(text)}
    for prefix, pat in _NUMBERED:
        for m in pat.finditer(text):
            lo, sep, hi = int(m.group(1)), m.group(2), m.group(3)
            if hi is None:
                out.add(f"{prefix} {lo}")
            elif sep in ("-", "–") and lo <= int(hi):
                out.update(f"{prefix} {i}" for i in range(lo, int(hi) + 1))
            else:
                out.update({f"{prefix} {lo}", f"{prefix} {hi}"})
    for m in _LETTER.finditer(text):
        lo, hi, single = m.group(1), m.group(2), m.group(3) or m.group(4)
        if single:
            out.add(f"З {single}")
        elif hi:
            out.update(f"З {c}" for c in LETTERS[LETTERS.index(lo) : LETTERS.index(hi) + 1])
        else:
            out.add(f"З {lo}")
    return out & known


def case_citations(known: set[str]) -> dict[str, list[str]]:
    """Rules cited by the data-driven cases (``tests/rules/gda_cases/<case>/expected.json``'s
    ``about``), as ``test_gda_cases::<case>``."""
    import json
    from pathlib import Path

    out: dict[str, list[str]] = {}
    root = Path(__file__).resolve().parents[2] / "tests" / "rules" / "gda_cases"
    for exp in sorted(root.glob("*/expected.json")):
        about = str(json.loads(exp.read_text(encoding="utf-8")).get("about", ""))
        for sec in cited(about + " " + exp.parent.name, known):
            out.setdefault(sec, []).append(f"test_gda_cases::{exp.parent.name}")
    return out
