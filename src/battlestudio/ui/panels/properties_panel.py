"""The Properties dock: edit the selected units, commanders, terrain features or town zones.

One group of fields per kind of record selected; with several records of a kind selected, a
field shows the first one's value (in italics when they differ) and an edit applies to all of
them as one undo step. With nothing selected it edits the scenario's information (title, table
size in cm, ground scale). It re-reads the records whenever the Document reports a change.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGroupBox, QLabel, QScrollArea, QVBoxLayout, QWidget

from battlestudio.document import Document
from battlestudio.edits import Change, SetInfo
from battlestudio.edits.deploy import anchor_of, group_rotate_edit
from battlestudio.edits.moves import snapshot
from battlestudio.ui.ruleset_switch import Confirm, ask, switch_ruleset
from battlestudio.model.geometry import normalize_angle
from battlestudio.play.document import PlayDocument
from battlestudio.model.terrain import TerrainKind
from battlestudio.model.units import Arm, Echelon, Formation, OrderState, Quality, Subtype
from battlestudio.rules import DEFAULT_RULESET, available_rulesets
from battlestudio.ui.georef_dialog import GeorefField
from battlestudio.ui.panels.fields import FieldEditor, FieldSpec, get_value, with_value
from battlestudio.ui.panels.parameters_panel import ParametersPanel


def _enum(enum, optional: bool = False) -> list[tuple[str, Any]]:
    items = [(e.value.replace("_", " "), e) for e in enum]
    return ([("—", None)] if optional else []) + items


def _sides(scenario) -> list[tuple[str, Any]]:
    return [(f"{s.name} ({sid})", sid) for sid, s in scenario.sides.items()]


def _formations(scenario) -> list[tuple[str, Any]]:
    """Commanders (and their formations) by name, as a reinforcement or zone names them."""
    return sorted(((f"{c.name} ({cid})", cid) for cid, c in scenario.commanders.items()), key=lambda t: t[0])


def _rulesets(scenario) -> list[tuple[str, Any]]:
    """Every installed ruleset as (its ``describe().name``, id), by name; a scenario that has
    not chosen one gets a first entry saying which it plays."""
    installed = available_rulesets()
    out = sorted(((rs.describe().name, rid) for rid, rs in installed.items()), key=lambda x: x[0].lower())
    if not scenario.info.ruleset:
        default = installed.get(DEFAULT_RULESET)
        out.insert(0, (f"not chosen ({default.describe().name if default else DEFAULT_RULESET})", ""))
    return out


def stated_strength(scenario, cid: str) -> str:
    """A command's men and guns as its source row states them (``stated_men``/``stated_guns``,
    set by a table import) beside the sum of the units under it now (with the guns and crews the
    Torden over Europa conversion left unrepresented); "" when none is stated."""
    c = scenario.commanders[cid]
    if "stated_men" not in c.attributes and "stated_guns" not in c.attributes:
        return ""
    below = [cid, *scenario.oob.all_subordinates(cid)]
    units = [scenario.units[u] for u in below if u in scenario.units]
    cmds = [scenario.commanders[x] for x in below if x in scenario.commanders]
    parts, agree = [], True
    for key in ("men", "guns"):
        stated = c.attributes.get(f"stated_{key}")
        if stated is None:
            continue
        # with the batteries' men and guns the conversion left off the table (ToE 1.3)
        total = sum(getattr(u, key) for u in units) + sum(
            sum(x.attributes.get(f"unrepresented_{key}", {}).values()) for x in cmds
        )
        agree = agree and abs(total - stated) <= 0.05 * stated
        parts.append(f"{stated:,} {key} stated, {total:,} in its units")
    est = " (an estimate)" if c.attributes.get("stated_estimated") else ""
    return "; ".join(parts) + est + ("" if agree else " — they disagree")


_ECHELONS = [(e.value.replace("_", " "), e.value) for e in Echelon]
_QUALITIES = [(q.value, q.value) for q in Quality]
_STATES = [(s.value, s.value) for s in OrderState]
_POS = [
    FieldSpec("position.0", "x", "float", -10_000, 10_000, 1, " cm"),
    FieldSpec("position.1", "y", "float", -10_000, 10_000, 1, " cm"),
    FieldSpec("facing", "Facing", "float", 0, 359.9, 1, "°", wrap=True, convert=normalize_angle),
]

SPECS: dict[str, list[FieldSpec]] = {
    "units": [
        FieldSpec("name", "Name", required=True),
        FieldSpec("side", "Side", "choice", choices=_sides),
        FieldSpec("nation", "Nation"),
        FieldSpec("arm", "Arm", "choice", choices=_enum(Arm)),
        FieldSpec("subtype", "Subtype", "choice", choices=_enum(Subtype, optional=True)),
        FieldSpec("quality", "Quality", "combo", choices=_QUALITIES),
        FieldSpec("formation", "Formation", "choice", choices=_enum(Formation)),
        FieldSpec("state", "Order state", "combo", choices=_STATES),
        FieldSpec("figures", "Figures", "int", 0, 999),
        FieldSpec("bases", "Bases", "int", 0, 999, optional=True),
        FieldSpec("men", "Men", "int", 0, 100_000),
        FieldSpec("horses", "Horses", "int", 0, 100_000),
        FieldSpec("guns", "Guns", "int", 0, 1_000),
        FieldSpec("ammunition", "Ammunition", "int", 0, 99, optional=True),
        *_POS,
        FieldSpec("figure_width", "Figure frontage", "float", 0.1, 20, 2, " cm"),
        FieldSpec("figure_depth", "Rank depth", "float", 0.1, 20, 2, " cm"),
        FieldSpec("column_ranks", "Column ranks", "int", 3, 4),
    ],
    "commanders": [
        FieldSpec("name", "Name", required=True),
        FieldSpec("side", "Side", "choice", choices=_sides),
        FieldSpec("nation", "Nation"),
        FieldSpec("echelon", "Echelon", "choice", choices=_ECHELONS),
        *_POS,
        FieldSpec("figures", "Figures", "int", 0, 20),
        FieldSpec("order_capacity", "Order capacity (OAS)", "int", 0, 20, optional=True),
        FieldSpec("command_ability", "Command ability (KE)", "int", -5, 5, optional=True),
        FieldSpec("command_distance", "Command distance", "float", 0, 500, 1, " cm", optional=True),
    ],
    "terrain": [
        FieldSpec("name", "Name"),
        FieldSpec("kind", "Kind", "choice", choices=_enum(TerrainKind)),
        FieldSpec("level", "Hill level", "int", 1, 9, optional=True),
        FieldSpec("width", "Width", "float", 0.1, 100, 1, " cm", optional=True),
    ],
    "towns": [
        FieldSpec("name", "Name", required=True),
        FieldSpec("capacity", "Capacity (units)", "int", 0, 20),
    ],
    "objectives": [
        FieldSpec("name", "Name", required=True),
        FieldSpec("side", "Wanted by", "choice", choices=lambda s: [("both sides", "")] + _sides(s)),
        FieldSpec("value", "Value", "int", 0, 100, suffix=" VP"),
    ],
    "deployment_zones": [
        FieldSpec("name", "Name"),
        FieldSpec("side", "Side", "choice", choices=_sides),
        FieldSpec("formation", "Only for", "choice", choices=lambda s: [("the whole side", "")] + _formations(s)),
    ],
    "reinforcements": [
        FieldSpec("formation", "Formation", "choice", choices=_formations),
        FieldSpec("side", "Side", "choice", choices=_sides),
        FieldSpec("earliest_turn", "Earliest turn", "int", 1, 500),
        FieldSpec("latest_turn", "Latest turn", "int", 1, 500),
        FieldSpec("probability", "Chance per turn", "float", 0, 1, 2),
        FieldSpec("entry_point.0", "Entry x", "float", -10_000, 10_000, 1, " cm"),
        FieldSpec("entry_point.1", "Entry y", "float", -10_000, 10_000, 1, " cm"),
        FieldSpec("note", "Note"),
    ],
}

INFO_SPECS = [
    FieldSpec("title", "Title", required=True),
    FieldSpec("date", "Date", pattern=r"^$|^\d{4}-\d{2}-\d{2}$"),
    FieldSpec("place", "Place"),
    FieldSpec("ruleset", "Ruleset", "combo", choices=lambda s: _rulesets(s)),
    FieldSpec("table_width", "Table width", "float", 10, 5000, 1, " cm"),
    FieldSpec("table_height", "Table height", "float", 10, 5000, 1, " cm"),
    FieldSpec("ground_scale", "Ground scale", "float", 0.1, 1000, 1, " m per cm"),
    FieldSpec("turn_minutes", "Turn length", "int", 1, 240, suffix=" min"),
    FieldSpec("first_turn", "First turn", pattern=r"^([01]\d|2[0-3]):[0-5]\d$"),
    FieldSpec("turns", "Turns", "int", 1, 500),
    FieldSpec("description", "Description"),
]

KIND_TITLES = {
    "units": ("unit", "units"),
    "commanders": ("commander", "commanders"),
    "terrain": ("terrain feature", "terrain features"),
    "towns": ("town zone", "town zones"),
    "objectives": ("objective", "objectives"),
    "deployment_zones": ("deployment zone", "deployment zones"),
    "reinforcements": ("reinforcement", "reinforcements"),
}


class PropertiesPanel(QWidget):
    """Form editing the selection of a Document (or its scenario info when nothing is selected)."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.body)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.note = QLabel()
        """The rules the last edit followed while recording (a formation change's anchor and
        cost), or why an edit could not be made."""
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: gray;")
        self.note.hide()
        lay.addWidget(self.header)
        lay.addWidget(self.note)
        lay.addWidget(scroll, 1)
        self.editors: dict[str, dict[str, FieldEditor]] = {}
        self.parameters_panel: ParametersPanel | None = None
        """Properties ▸ Ruleset parameters, shown with the scenario information."""
        self.confirm_switch: Confirm | None = None
        """How a ruleset switch is confirmed (default: a message box with the report)."""
        self.document: Document | None = None
        self.set_document(document)

    def set_document(self, document: Document) -> None:
        if self.document is not None:
            self.document.changed.disconnect(self._on_changed)
            self.document.selection_changed.disconnect(self._on_selection)
            explained = getattr(self.document, "explained", None)
            if explained is not None:
                explained.disconnect(self._show_note)
        self.document = document
        document.changed.connect(self._on_changed)
        document.selection_changed.connect(self._on_selection)
        explained = getattr(document, "explained", None)  # a PlayDocument: the rules an edit followed
        if explained is not None:
            explained.connect(self._show_note)
        self.rebuild()

    def _show_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    # -- building ------------------------------------------------------------------------
    def selected_by_kind(self) -> dict[str, list[str]]:
        """Selected ids grouped by the kinds this panel edits, in SPECS order."""
        s = self.document.scenario
        out: dict[str, list[str]] = {}
        for kind in SPECS:
            d = getattr(s, kind)
            ids = sorted(i for i in self.document.selection if i in d)
            if ids:
                out[kind] = ids
        return out

    def rebuild(self) -> None:
        """Recreate the form for the current selection."""
        while self.body_layout.count():
            w = self.body_layout.takeAt(0).widget()
            if w is not None:
                w.hide()  # stays a hidden child until deleted: never a stray top-level window
                w.deleteLater()
        self.editors = {}
        self._show_note("")
        self.parameters_panel = None
        groups = self.selected_by_kind()
        if not groups:
            self.header.setText("<b>Scenario</b> (nothing selected)")
            self._add_group("info", "Scenario information", INFO_SPECS)
            self.parameters_panel = ParametersPanel(self.document, self.body)
            self.body_layout.addWidget(self.parameters_panel)
        else:
            parts = [f"{len(ids)} {KIND_TITLES[k][len(ids) > 1]}" for k, ids in groups.items()]
            self.header.setText("<b>Selected:</b> " + ", ".join(parts))
            for kind, ids in groups.items():
                title = KIND_TITLES[kind][1].capitalize() if len(ids) > 1 else self._name(kind, ids[0])
                self._add_group(kind, title, SPECS[kind])
        self.body_layout.addStretch(1)
        self.refresh()

    def _name(self, kind: str, rid: str) -> str:
        s = self.document.scenario
        rec = getattr(s, kind)[rid]
        if kind == "reinforcements":  # named for the formation that arrives
            who = s.commanders.get(rec.formation) or s.units.get(rec.formation)
            return f"Reinforcement: {who.name if who is not None else rec.formation}"
        return getattr(rec, "name", "") or rid

    def _add_group(self, kind: str, title: str, specs: list[FieldSpec]) -> None:
        box = QGroupBox(title)
        form = QFormLayout(box)
        eds: dict[str, FieldEditor] = {}
        for spec in specs:
            choices = spec.choices(self.document.scenario) if callable(spec.choices) else spec.choices
            ed = FieldEditor(spec, choices, box)
            ed.committed.connect(lambda value, k=kind, a=spec.attr: self.apply(k, a, value))
            form.addRow(spec.label, ed.widget)
            eds[spec.attr] = ed
        if kind == "info":
            eds["georef"] = GeorefField(self.document, form)  # type: ignore[assignment]  # set_value alike
        if kind == "towns":
            self.area_label = QLabel()
            form.addRow("Area", self.area_label)
        if kind == "commanders":
            self.stated_label = QLabel()
            self.stated_label.setObjectName("stated_strength")
            self.stated_label.setWordWrap(True)
            form.addRow("Source strength", self.stated_label)
        self.body_layout.addWidget(box)
        self.editors[kind] = eds

    def refresh(self) -> None:
        """Re-read the values shown from the document."""
        s = self.document.scenario
        groups = self.selected_by_kind()
        for kind, eds in self.editors.items():
            if kind == "info":
                for attr, ed in eds.items():
                    ed.set_value(getattr(s.info, attr))
                if self.parameters_panel is not None:
                    self.parameters_panel.refresh()
                continue
            records = [getattr(s, kind)[i] for i in groups.get(kind, [])]
            if not records:
                continue
            for attr, ed in eds.items():
                values = [get_value(r, attr) for r in records]
                ed.set_value(values[0], mixed=any(v != values[0] for v in values[1:]))
            if kind == "towns":
                self.area_label.setText(" / ".join(f"{r.area:.0f} cm²" for r in records[:3]))
            if kind == "commanders":
                self.stated_label.setText(stated_strength(s, records[0].id) if len(records) == 1 else "")

    # -- document → form -----------------------------------------------------------------
    def _on_selection(self, _ids: frozenset[str]) -> None:
        self.rebuild()

    def _on_changed(self, changes: list[Change]) -> None:
        kinds = {c.kind for c in changes}
        if "sides" in kinds:
            self.rebuild()
        elif kinds & set(self.editors):
            self.refresh()

    # -- form → document -----------------------------------------------------------------
    def _turn_together(self, ids: list[str], facing: float) -> bool:
        """Units that all face one way turn as one body about their anchor to ``facing``, so a
        line stays a line (``edits.deploy.group_rotate_edit``); True when done. Units facing
        different ways each get the facing on their own (False), and the note says so."""
        if isinstance(self.document, PlayDocument):  # a game records each unit's own facing
            return False
        d = self.document.scenario.units
        facings = {round(d[i].facing, 6) for i in ids}
        if len(facings) != 1:
            self._show_note("the units faced different ways, so each turned on its own front")
            return False
        delta = facing - d[ids[0]].facing
        if abs(delta) > 1e-9:
            start = snapshot(self.document.scenario, ids, ("units",))
            edit = group_rotate_edit(start, delta, anchor_of(start), ("properties", "turn", tuple(ids)))
            if edit is not None:
                self.document.push(edit)
        self.refresh()
        return True

    def apply(self, kind: str, attr: str, value: Any) -> None:
        """Set ``attr`` to ``value`` on every selected record of ``kind`` as one undo step."""
        label = attr.split(".")[0].replace("_", " ")
        if kind == "info" and attr == "ruleset":
            switched, why = switch_ruleset(self.document, value, self.confirm_switch or ask(self))
            if not switched:
                self.refresh()  # the combo goes back to the ruleset in force
                if isinstance(why, str):
                    self._show_note(why)
            return
        if kind == "info":
            self.document.push(SetInfo({attr: value}, f"Set scenario {label}"))
            return
        d = getattr(self.document.scenario, kind)
        ids = self.selected_by_kind().get(kind, [])
        if not ids:
            return
        if kind == "units" and attr == "facing" and len(ids) > 1 and self._turn_together(ids, value):
            return
        what = self._name(kind, ids[0]) if len(ids) == 1 else f"{len(ids)} {KIND_TITLES[kind][1]}"
        # a spin box's or text field's steps merge into one undo step; each choice of a combo
        # or a check box is a change of its own (two formation changes are two events)
        ed = self.editors.get(kind, {}).get(attr)
        discrete = ed is not None and isinstance(ed.widget, (QComboBox, QCheckBox))
        try:
            changes = self.document.set_fields(
                kind,
                {i: with_value(d[i], attr, value) for i in ids},
                f"Set {label} of {what}",
                key=None if discrete else ("properties", kind, attr, tuple(ids)),
            )
        except ValueError as exc:  # a value the record cannot hold (e.g. an unknown formation)
            changes = []
            self._show_note(str(exc))
        if not changes:
            self.refresh()  # refused or unchanged: the form shows the record as it stands
