"""Generate the rule traceability table of a ruleset: every numbered section of the seed with the
code that cites it, the rule numbers of ``resources/rulesets/<id>.toml`` and the tests.

    python docs/rules/trace.py toe > docs/rules/toe-trace.md
    python docs/rules/trace.py belle-alliance > docs/rules/belle-alliance-trace.md
    python docs/rules/trace.py regimental > docs/rules/regimental-trace.md

A section is *cited* by code when a docstring or a string of a function or class in
``src/battlestudio/rules/<package>/`` names its number (e.g. "(4.4)", "5.2 'større end ...'"),
and by a test when the test function's source names it; numbers followed by a unit ("1.5 cm")
are measurements, not citations. ``tests/test_rules_trace.py`` checks the committed table is
the one this script writes.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: the numbered sections of chapters 1-7 of Torden over Europa (seed 000), with the Danish heading
TOE_SECTIONS: tuple[tuple[str, str], ...] = (
    ("1.1", "Generelt: skala, tilbehør, dommeren, forudmåling"),
    ("1.2", "Spillets faser"),
    ("1.3", "Enheder"),
    ("1.4", "Generaler"),
    ("1.5", "Brikstørrelse"),
    ("1.6", "Orden"),
    ("1.7", "Formationer"),
    ("2.1", "Generaler og ordregivning, generelt"),
    ("2.2", "Hærchef"),
    ("2.3", "Arméchef"),
    ("2.4", "Korpschef"),
    ("2.5", "Divisionsgeneraler"),
    ("2.6", "Objektiv"),
    ("2.7", "Angrebsordre"),
    ("2.8", "Holdordre"),
    ("2.9", "Tilbageordre"),
    ("2.10", "Marchordre"),
    ("2.11", "Detachering"),
    ("2.12", "Ordreafgivningsevne og kommandoevne (OAS, KE)"),
    ("3.1", "Kommandokontrol, generelt"),
    ("3.2", "Bestemmelse af zoneafstand"),
    ("3.3", "Procedure"),
    ("4.1", "Bevægelser, generelt"),
    ("4.2", "Hvilke enheder kan flytte"),
    ("4.3", "Retning"),
    ("4.4", "Marchlængder"),
    ("4.5", "Formationsændringer"),
    ("4.6", "Specielle forhold vedrørende artilleri"),
    ("4.6.3", "Bevægelse i afprodset stand"),
    ("4.7", "Terrænets påvirkning af bevægelser"),
    ("4.8", "Byer"),
    ("4.8.4", "Byer og infanteri skydninger"),
    ("4.8.5", "Byer og artilleri skydninger"),
    ("4.8.6", "Artilleri skydninger ud af byer"),
    ("4.9", "Kavaleri der kan angribe uden for kommandoafstand"),
    ("5.1", "Erklæring af angreb"),
    ("5.2", "Reaktionshandling"),
    ("5.3", "Forsvarsmæssige dispositioner (nødkarré, flanke/ryg, artilleri)"),
    ("5.4", "Afbrudt angreb"),
    ("6.1", "Skydning"),
    ("6.1.8", "Flankebeskydning"),
    ("6.2", "Artilleri ammunition"),
    ("7.1", "Nærkamp, generelt (støtte, artilleri)"),
    ("7.2", "Resultat af kamp"),
    ("7.3", "Efter nærkampen (rømmet territorium, uafgjort, fortsat nærkamp)"),
    ("7.4", "Angreb med flere enheder (only the heading survives)"),
    ("7.5", "Fortsat angreb (only the heading survives)"),
)

#: the sections of the Regimental rules (seed 003): numbered where the seed numbers them, else its
#: Russian heading (cited by that heading, see ``NAMED``)
REGIMENTAL_SECTIONS: tuple[tuple[str, str], ...] = (
    ("1.1", "Формирование армии (regiments, bases, base sizes)"),
    ("1.2", "Масштаб игры (75 men a figure, battalion, regiment, brigade, division, corps, generals)"),
    ("2.1", "Тест на инициативу"),
    ("2.2", "Тест на приказы (alternating activations, 1-3 actions)"),
    ("Перемещение", "Перемещение (movement rates, woods, hills, fords; adjutants)"),
    ("3.2", "Перестроение (reform)"),
    ("3.3", "Стрельба (ranges, front-line bases)"),
    ("3.3.1", "Тест на стрельбу (hits, saves, casualty markers)"),
    ("3.3.3", "Артиллерийский огонь (shots test, canister)"),
    ("3.4", "Атака в ближнем бою (dice, combat result, loser's table)"),
    ("3.4.1", "Модификаторы при рукопашной атаке"),
    ("3.4.2", "Атака пехоты кавалерией (square test, square loser tables)"),
    ("Тест на мораль", "Тест на мораль (2D6 ≤ 8, forced tests by markers)"),
    ("Дистанция командования", "Дистанция командования (zones 15/20 cm, adjutants, тест на приказ)"),
    ("Тест на потери командования", "Тест на потери командования (commander casualty test, HQ captured)"),
    ("Пехота", "Пехота (troop types, marker limits)"),
    ("Кавалерия", "Кавалерия (troop types, light cavalry, chasseurs, lancers)"),
    ("Застрельщики", "Застрельщики (skirmishers: chain, fire, cavalry)"),
    ("Артиллерия", "Артиллерия (deploying, overrun, markers)"),
)

#: Belle Alliance (seed 001): the melee excerpt 4.1.1-4.1.8 and the order roll it cites
BA_SECTIONS: tuple[tuple[str, str], ...] = (
    ("1.1.3", "Ordrekast (not in the excerpt; cited by it)"),
    ("4.1.1", "Angreb: hvem kan angribe, melding, indbrudsafstand, samtidighed, efter nærkampen"),
    ("4.1.2", "Angrebets mål: enheden eller positionen, forfølgelse, mellemliggende enhed"),
    ("4.1.3", "Nærkampens afvikling: kast, dækning, skudt i trækket, tab og fanger"),
    ("4.1.4", "Fortsat fremrykning og fortsat angreb"),
    ("4.1.5", "Fælles mål og flere mål"),
    ("4.1.6", "Naboenhed"),
    ("4.1.7", "Støtteenhed"),
    ("4.1.8", "Flankeangreb, rygangreb og overfløjning"),
)


def _gda_sections():
    """General d'Armée's rules and citation matcher (``docs/rules/gda_sections.py``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gda_sections", Path(__file__).with_name("gda_sections.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_GDA = _gda_sections()

#: ruleset id → (rules package, sections, test-file prefixes[, citation matcher (default ``_cited``)[,
#: more test citations: known → section → test names]])
RULESETS = {
    "toe": ("toe", TOE_SECTIONS, ("test_toe_", "test_session")),
    "gda": ("gda", _GDA.SECTIONS, ("test_gda_",), _GDA.cited, _GDA.case_citations),
    "belle-alliance": ("belle_alliance", BA_SECTIONS, ("test_belle_alliance",)),
    "regimental": ("regimental", REGIMENTAL_SECTIONS, ("test_regimental",)),
}

#: rulesets whose table also lists every rule of its sections (``docs/rules/<file>``, [[rule]]
#: entries with section, text, status, code, tests, note)
RULE_LISTS = {
    "belle-alliance": "belle-alliance-rules.toml",
    "regimental": "regimental-rules.toml",
    "toe": "toe-rules.toml",
}

NAMED = {s: (s, s.lower()) for s, _ in REGIMENTAL_SECTIONS if not s[0].isdigit()}
"""Sections the seed names by a heading, not a number: each is cited by its heading, as written
or in lower case (``Перемещение`` / ``перемещение``)."""

SEC = r"[1-9]\.\d{1,2}(?:\.\d{1,2})?"
CITE = re.compile(rf"(?<![\d.])({SEC})(?:\s*[-–]\s*({SEC}))?(?![\d.]|\s*(?:cm|m\b|°|%|mm|km|x\b))")


def _key(sec: str) -> tuple[int, ...]:
    return tuple(int(x) for x in sec.split("."))


def _cited(text: str, known: set[str]) -> set[str]:
    """Known sections named in ``text``; a range "2.7-2.11" names every known section between."""
    out: set[str] = {s for s, words in NAMED.items() if s in known and any(w in text for w in words)}
    for m in CITE.finditer(text):
        lo, hi = m.group(1), m.group(2)
        if hi is None:
            out.update({lo} & known)
        elif lo.split(".")[0] == hi.split(".")[0] and _key(lo) <= _key(hi):
            out.update(s for s in known if s[0].isdigit() and _key(lo) <= _key(s) <= _key(hi))
    return out


def _strings(node: ast.AST) -> str:
    return " ".join(n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str))


def code_citations(package: str, known: set[str], cite=None) -> dict[str, list[str]]:
    """Section → ``module.function`` names whose docstrings or strings cite it."""
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "src" / "battlestudio" / "rules" / package).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                for sec in (cite or _cited)(_strings(node), known):
                    out.setdefault(sec, []).append(f"{path.stem}.{node.name}")
    return out


def test_citations(prefixes: tuple[str, ...], known: set[str], cite=None) -> dict[str, list[str]]:
    """Section → test names whose source cites it, and test modules (``module``, no test name)
    whose docstring does."""
    out: dict[str, list[str]] = {}
    files = [p for p in sorted((ROOT / "tests").rglob("test_*.py")) if p.name.startswith(prefixes)]
    for path in files:
        src = path.read_text(encoding="utf-8")
        tree = ast.parse(src)
        cite = cite or _cited
        for sec in cite(ast.get_docstring(tree) or "", known):
            out.setdefault(sec, []).append(path.stem)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                for sec in cite(ast.get_source_segment(src, node) or "", known):
                    out.setdefault(sec, []).append(f"{path.stem}::{node.name}")
    return out


def toml_entries(rid: str, known: set[str], cite=None) -> dict[str, list[str]]:
    """Section → rule-number keys of ``resources/rulesets/<id>.toml`` (with their status)."""
    data = tomllib.loads((ROOT / "resources" / "rulesets" / f"{rid}.toml").read_text(encoding="utf-8"))
    out: dict[str, list[str]] = {}
    for key, e in data.get("rules", {}).items():
        for sec in (cite or _cited)(str(e.get("section", "")), known):
            out.setdefault(sec, []).append(f"{key} ({e.get('status', '?')})")
    return out


def _cell(items: list[str], limit: int = 6) -> str:
    items = sorted(set(items))
    more = f", … {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(f"`{i}`" for i in items[:limit]) + more if items else "—"


def table(rid: str) -> str:
    """The traceability table of ruleset ``rid`` as Markdown."""
    package, sections, prefixes, *matcher = RULESETS[rid]
    cite = matcher[0] if matcher else _cited
    known = {s for s, _ in sections}
    code = code_citations(package, known, cite)
    tests, toml = test_citations(prefixes, known, cite), toml_entries(rid, known, cite)
    for more in matcher[1:]:
        for sec, names in more(known).items():
            tests.setdefault(sec, []).extend(names)
    both = sum(1 for s in known if s in code and s in tests)
    lines = [
        f"# Rule traceability: {rid}",
        "",
        "Generated by `python docs/rules/trace.py " + rid + "` from the rule docstrings and messages, the rule",
        "numbers file and the tests; do not edit by hand. A section counts as traced when code and a test cite it;",
        "what a traced section still lacks is in the issue notes and the module docstrings.",
        "",
        f"{both} of {len(sections)} sections cited by code and tests; "
        f"{sum(1 for s in known if s in code and s not in tests)} by code only; "
        f"{sum(1 for s in known if s not in code)} by no code.",
        "",
        "| § | Section (seed) | Code | Rule numbers | Tests |",
        "|---|---|---|---|---|",
    ]
    for sec, heading in sections:
        lines.append(
            f"| {sec} | {heading} | {_cell(code.get(sec, []))} | {_cell(toml.get(sec, []), 4)} | "
            f"{_cell(tests.get(sec, []), 4)} |"
        )
    if rid in RULE_LISTS:
        lines += rule_table(rid, code)
    return "\n".join(lines) + "\n"


def test_names() -> set[str]:
    """Every ``file_stem::test_name`` of ``tests/`` (top-level test functions), and each case of
    the data-driven Torden over Europa cases as ``test_toe_cases::test_case[<folder>]``."""
    out: set[str] = set()
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                out.add(f"{path.stem}::{node.name}")
    cases = ROOT / "tests" / "rules" / "toe_cases"
    out.update(f"test_toe_cases::test_case[{f.name}]" for f in cases.iterdir() if f.is_dir() and f.name[0] != "_")
    return out


def outside_citation(entry: str, sec: str, known: set[str]) -> bool:
    """Whether ``entry`` (``battlestudio.<module path>.<function>``, code outside the rules
    package) names a function or class whose docstring or strings cite ``sec``."""
    *mod, name = entry.split(".")
    path = ROOT / "src" / Path(*mod).with_suffix(".py")
    if not path.is_file():
        return False
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
            return sec in _cited(_strings(node), known)
    return False


def rule_problems(rid: str, code: dict[str, list[str]]) -> list[str]:
    """What the rule list of ``rid`` claims that is not so: a code entry that does not cite its
    rule's section, a test that does not exist, a rule with no code or no test (a rule audited
    missing may have neither). Code outside the rules package is named ``battlestudio.<module>.<name>``."""
    rules = tomllib.loads((ROOT / "docs" / "rules" / RULE_LISTS[rid]).read_text(encoding="utf-8"))["rule"]
    names = test_names()
    known = {s for s, _ in RULESETS[rid][1]}
    out = []
    for i, r in enumerate(rules, 1):
        sec = r["section"]
        if r.get("audit") != "missing" and (not r.get("code") or not r.get("tests")):
            out.append(f"rule {i} ({sec}): no code or no test")
        out += [
            f"rule {i} ({sec}): {c} does not cite {sec}"
            for c in r.get("code", [])
            if c not in code.get(sec, []) and not (c.startswith("battlestudio.") and outside_citation(c, sec, known))
        ]
        out += [f"rule {i} ({sec}): no test {t}" for t in r.get("tests", []) if t not in names]
    return out


def rule_table(rid: str, code: dict[str, list[str]]) -> list[str]:
    """The rule-by-rule table of ``rid`` as Markdown lines, with the problems found."""
    rules = tomllib.loads((ROOT / "docs" / "rules" / RULE_LISTS[rid]).read_text(encoding="utf-8"))["rule"]
    counts = {s: sum(1 for r in rules if r["status"] == s) for s in ("done", "umpire", "left")}
    problems = rule_problems(rid, code)
    lines = [
        "",
        "## Every rule",
        "",
        f"{len(rules)} rules: {counts['done']} done, {counts['umpire']} done around a lost table (the umpire "
        f"enters its result), {counts['left']} left. Each code entry cites its section; each test exists "
        f"({len(problems)} problems).",
        "",
        "| § | Rule | Status | Code | Tests | Note |",
        "|---|---|---|---|---|---|",
    ]
    for r in rules:
        lines.append(
            f"| {r['section']} | {r['text']} | {r['status']} | {_cell(r.get('code', []))} | "
            f"{_cell(r.get('tests', []), 4)} | {r.get('note', '')} |"
        )
    lines += [f"- problem: {p}" for p in problems]
    return lines


if __name__ == "__main__":
    sys.stdout.write(table(sys.argv[1] if len(sys.argv) > 1 else "toe"))
