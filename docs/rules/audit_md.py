"""Write the generated parts of a ruleset audit from its rule list: the result line, the "Left"
list and the "Every rule" table of ``docs/rules/<id>-audit.md`` from ``docs/rules/<id>-rules.toml``.

    python docs/rules/audit_md.py toe          # rewrites docs/rules/toe-audit.md in place
    python docs/rules/audit_md.py toe --check  # exit 1 when the file is not what it would write

The prose around them (method, not counted, confirmed, fixed) is the auditor's and stays as it is.
``tests/rules/test_toe_audit.py`` checks that the file agrees with the list.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

DOCS = Path(__file__).resolve().parent
AUDITS = ("correct", "partial", "missing", "wrong")
MARK = 0.9
"""Issue 16's mark: the share of implementable rules implemented correctly."""


def _cell(items: list[str]) -> str:
    return ", ".join(f"`{i}`" for i in items) if items else "—"


def _counts(rules: list[dict]) -> dict[str, int]:
    return {a: sum(1 for r in rules if r["audit"] == a) for a in AUDITS}


def result_line(rules: list[dict]) -> str:
    """The bold result line: counts, % correct, % counting a partial rule as half."""
    n, c = len(rules), _counts(rules)
    half = 100 * (c["correct"] + c["partial"] / 2) / n
    return (
        f"**Result: {n} implementable rules, {c['correct']} correct, {c['partial']} partial, "
        f"{c['missing']} missing, {c['wrong']} wrong:\n{100 * c['correct'] / n:.0f} % implemented "
        f"correctly** ({half:.0f} % counting a partial rule as half)."
    )


def mark_paragraph(rules: list[dict]) -> str:
    """Whether the issue's 90 % is reached, said plainly."""
    if _counts(rules)["correct"] >= MARK * len(rules):
        return "**The issue's 90 % is reached.** What is left is listed below, each with what is not built."
    return (
        "**The issue's 90 % is not reached.** What is left is listed below, each with what is not built; the\n"
        "numbers were not bent to reach the mark."
    )


def left_list(rules: list[dict]) -> str:
    lines = []
    for r in rules:
        if r["audit"] == "correct":
            continue
        note = r.get("note", "").removeprefix(r["audit"] + ": ")
        lines.append(f"* {r['section']}: {r['text']} — {note} ({r['audit']})")
    return "\n".join(lines)


def table(rules: list[dict]) -> str:
    rows = ["| § | Rule | Status | Code | Tests |", "|---|---|---|---|---|"]
    for r in rules:
        rows.append(f"| {r['section']} | {r['text']} | {r['audit']} | {_cell(r['code'])} | {_cell(r['tests'])} |")
    return "\n".join(rows)


def render(text: str, rules: list[dict]) -> str:
    """``text`` with its generated parts rewritten from ``rules``; ValueError when a part is not found."""
    parts = (
        (r"\*\*Result: .*?\(\d+ % counting a partial rule as half\)\.", lambda _: result_line(rules)),
        (r"\*\*The issue's 90 % is (?:not )?reached\.\*\*.*?(?=\n\n)", lambda _: mark_paragraph(rules)),
        (
            r"(## Left \(the partial, missing and wrong rules\)\n\n).*?(?=\n\n## )",
            lambda m: m.group(1) + left_list(rules),
        ),
        (r"(## Every rule\n\n)\| § \|.*?(?=\n\n|\n?\Z)", lambda m: m.group(1) + table(rules)),
    )
    out, found = text, []
    for pattern, write in parts:
        out, k = re.subn(pattern, write, out, count=1, flags=re.S)
        found.append(k)
    if found != [1, 1, 1, 1]:
        raise ValueError("the audit has lost its result line, mark paragraph, Left list or Every rule table")
    return out


def main(argv: list[str]) -> int:
    rid, check = argv[0], "--check" in argv[1:]
    path = DOCS / f"{rid}-audit.md"
    rules = tomllib.loads((DOCS / f"{rid}-rules.toml").read_text(encoding="utf-8"))["rule"]
    old = path.read_text(encoding="utf-8")
    new = render(old, rules)
    if check:
        return 0 if new == old else 1
    path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
