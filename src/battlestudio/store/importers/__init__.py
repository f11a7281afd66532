"""Importers of real order-of-battle data, one module per format, and one entry point.

* ``republique5``: indented-text ``.oob`` files (``republique5_scenario`` reads ``.scenario``);
* ``tabular``: CSV and XLSX through a TOML column mapping;
* ``fogofwar``: the fogofwar force / force_unit / lookup tables;
* ``orbat_mapper``: ORBAT Mapper scenario files, with their timed state as a recorded game;
* ``common``: ``ImportResult``, ``ImportWarning``, ``ImportSummary``.

``import_oob`` picks the importer for a format and, by default, converts the result to
Torden over Europa's scale (``rules.toe.scale``: historical strengths to figures and gun
models); ``battlestudio import-oob`` calls it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any
from collections.abc import Mapping, Sequence

from battlestudio.model.georef import Georeference
from battlestudio.store.importers.common import (
    ImportResult,
    ImportSummary,
    ImportWarning,
    OobImportError,
)

FORMATS = ("oob", "csv", "xlsx", "fogofwar", "orbat-mapper")
"""Format names ``import_oob`` understands."""


def import_oob(
    paths: Sequence[str | Path],
    fmt: str,
    mapping: str | Path | Mapping[str, Any] | None = None,
    scenario_id: int | None = None,
    convert: bool = True,
    georef: Georeference | None = None,
    turn_minutes: int | None = None,
    start: str | None = None,
    ground_scale: float | None = None,
    ruleset: str | None = None,
    year: int | None = None,
    parameters: Mapping[str, Any] | None = None,
) -> ImportResult:
    """Import order-of-battle files of one format into one scenario.

    Parameters
    ----------
    paths : sequence of paths
        the files (for ``fogofwar``: the folder holding the tables, or one of its files).
    fmt : str
        one of ``FORMATS``.
    mapping : path | dict | None
        TOML column mapping (or the same dict, ``tabular_mapping.load_mapping``), required for
        ``csv`` and ``xlsx``.
    scenario_id : int | None
        fogofwar scenario whose forces to import (all forces when None).
    convert : bool
        convert to Torden over Europa's scale (figures, gun models, footprints; 1.1, 1.3);
        not for ``orbat-mapper``, whose recorded game names every unit it imports.
    georef, turn_minutes, start, ground_scale
        only for ``orbat-mapper`` (``store.importers.orbat_mapper.import_orbat_mapper``); the
        result is then an ``OrbatMapperImport`` holding the recorded game too.
    ruleset : str | None
        the ruleset the scenario is for (None: the default, Torden over Europa). Another
        ruleset's scale replaces Torden over Europa's: its ``convert_import`` (the Regimental
        rules: bases, brigades split into regiments) adds its notes and warnings, one a unit.
    year, parameters
        the year and the scenario parameters of the scenario the import is for (None: the
        imported scenario's date and parameters, toe.toml's default): a Prussian brigade is read
        with them (Torden over Europa 1.3, ``prussian_brigade_years``); a commander whose source
        states its year keeps that year.

    Returns
    -------
    ImportResult
        conversion notes are added to the warnings as notes, and so are the order-of-battle
        validation problems (as warnings).

    Raises
    ------
    OobImportError
        for an unknown format, a table without a mapping whose header names no unit column, a
        mapping given for a format that reads none, a table whose content is not of ``fmt`` (an
        XLSX workbook is a zip archive), a file that cannot be read, or an import that yields
        neither a commander nor a unit.
    """
    if fmt not in FORMATS:
        raise OobImportError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    from battlestudio.rules import DEFAULT_RULESET

    rid = _ruleset_id(ruleset)
    if not paths:
        raise OobImportError("no input file given")
    if mapping is not None and fmt not in ("csv", "xlsx"):
        raise OobImportError(f"a column mapping is only read for --format csv or xlsx, not {fmt}")
    if scenario_id is not None and fmt != "fogofwar":
        raise OobImportError(f"--scenario-id is only read for --format fogofwar, not {fmt}")
    clock = {"georef": georef, "turn_minutes": turn_minutes, "start": start, "ground_scale": ground_scale}
    given = [k for k, v in clock.items() if v is not None]
    if given and fmt != "orbat-mapper":
        raise OobImportError(f"{', '.join(given)}: only read for --format orbat-mapper, not {fmt}")
    if fmt == "orbat-mapper":
        if rid != DEFAULT_RULESET:
            raise OobImportError(
                f"a ruleset ({ruleset}) is not read for --format orbat-mapper, whose recorded game is kept"
            )
        if len(paths) != 1:
            raise OobImportError("--format orbat-mapper takes one scenario file")
        from battlestudio.store.importers.orbat_mapper import import_orbat_mapper

        om = import_orbat_mapper(paths[0], georef, turn_minutes=turn_minutes, start=start, ground_scale=ground_scale)
        if not om.scenario.units and not om.scenario.commanders:
            raise OobImportError(f"{paths[0]}: nothing imported (no side of the scenario holds a unit)")
        return om
    if fmt == "oob":
        from battlestudio.store.importers.republique5 import import_republique5

        res = import_republique5(list(paths))
    elif fmt in ("csv", "xlsx"):
        from battlestudio.store.importers.tabular import import_table

        guessed: list[ImportWarning] = []
        if mapping is None:
            mapping, guessed = _guessed_mapping(paths[0], fmt)
        res = import_table(paths[0], mapping, fmt=fmt)
        res.warnings[:0] = guessed
        for p in paths[1:]:
            more = import_table(p, mapping, scenario=res.scenario, fmt=fmt)
            res.warnings += more.warnings
            res.roots += more.roots
    else:
        if len(paths) != 1:
            raise OobImportError("--format fogofwar takes one folder (or one of its tables)")
        from battlestudio.store.importers.fogofwar import import_fogofwar

        res = import_fogofwar(paths[0], scenario_id=scenario_id)
    res = _brigades_read(res, paths, year, parameters)
    if not res.scenario.units and not res.scenario.commanders:
        names = ", ".join(str(p) for p in paths)
        probs = res.problems()
        raise OobImportError(
            f"{names}: nothing imported (no command or unit {'row' if fmt in ('csv', 'xlsx') else 'line'} "
            "found)" + "".join(f"; {w}" for w in probs[:3]) + ("; …" if len(probs) > 3 else "")
        )
    if rid != DEFAULT_RULESET:
        res = _for_ruleset(res, rid, convert, paths)
    elif convert:
        from battlestudio.rules.toe.scale import ConversionWarning, convert_to_toe

        dropped: list[ConversionWarning] = []
        sc, notes = convert_to_toe(res.scenario, warnings=dropped)
        res = replace(
            res,
            scenario=sc,
            warnings=res.warnings
            + [
                ImportWarning(
                    "conversion to Torden over Europa scale",
                    0,
                    str(n),
                    "",
                    "warning" if isinstance(n, ConversionWarning) else "note",
                )
                for n in [*notes, *dropped]
            ],
        )
    for prob in res.scenario.validate_oob():
        res.warnings.append(
            ImportWarning(", ".join(str(p) for p in paths), 0, f"order of battle: {prob.code}: {prob.message}")
        )
    return res


def _guessed_mapping(path: str | Path, fmt: str) -> tuple[dict[str, Any], list[ImportWarning]]:
    """The column mapping guessed from ``path``'s header, as the Import dialog guesses it
    (``tabular_mapping.guess_fields``), and a note saying what each column was read as.

    Raises
    ------
    OobImportError
        when no column names a unit (no name or echelon column): a mapping must say it.
    """
    from battlestudio.store.importers.tabular import read_header
    from battlestudio.store.importers.tabular_mapping import guess_fields, spec_from_fields

    header = [h for h in read_header(path, fmt)[0] if h]
    fields = guess_fields(header)
    if not any(f == "name" or f.startswith("level ") or f in ("commander", "path") for f in fields.values()):
        raise OobImportError(
            f"{path}: --format {fmt} without --map, and no column of the header ({', '.join(header)}) names a unit "
            "(name, commander, or echelon columns such as army, corps, division, brigade); give a column mapping "
            "(--map mapping.toml, see --help)"
        )
    read = ", ".join(f"{h} as {f}" for h, f in fields.items() if f)
    skipped = [h for h, f in fields.items() if not f]
    text = f"no --map: the columns were guessed from the header: {read}" + (
        f"; not read: {', '.join(skipped)}" if skipped else ""
    )
    return spec_from_fields(fields), [ImportWarning(str(path), 1, text, ", ".join(header), "note")]


def _brigades_read(
    res: ImportResult, paths: Sequence[str | Path], year: int | None, parameters: Mapping[str, Any] | None
) -> ImportResult:
    """``res`` with 1.3's Prussian-brigade reading (``scale.read_prussian_brigades``) taken from
    ``year`` and ``parameters`` (else the imported scenario's), its changes added as notes.
    OobImportError for a ``prussian_brigade_years`` that is not ``[]`` or ``[first, last]``."""
    from battlestudio.rules.toe.scale import brigade_years, read_prussian_brigades, year_of

    info = res.scenario.info
    try:
        years = brigade_years(info.parameters if parameters is None else parameters)
    except ValueError as exc:
        raise OobImportError(str(exc)) from None
    sc, notes = read_prussian_brigades(res.scenario, year_of(info.date) if year is None else year, years)
    if not notes:
        return res
    where = ", ".join(str(p) for p in paths)
    return replace(res, scenario=sc, warnings=res.warnings + [ImportWarning(where, 0, n, "", "note") for n in notes])


def _ruleset_id(ruleset: str | None) -> str:
    """The installed ruleset ``ruleset`` names (``DEFAULT_RULESET``, Torden over Europa, for None);
    OobImportError naming it else."""
    from battlestudio.rules import RuleRefused, available_rulesets, resolve_ruleset_id

    rid = resolve_ruleset_id(ruleset or "")
    try:
        known = available_rulesets()
    except RuleRefused as exc:
        raise OobImportError(f"ruleset {ruleset!r}: the installed rulesets cannot be listed: {exc}") from None
    if rid not in known:
        raise OobImportError(f"unknown ruleset {ruleset!r}; use one of {', '.join(sorted(known))}")
    return rid


def _for_ruleset(res: ImportResult, rid: str, convert: bool, paths: Sequence[str | Path]) -> ImportResult:
    """``res`` as a scenario of ruleset ``rid``, its units at that ruleset's scale when ``convert``."""
    from battlestudio.rules.switch import conform_import

    sc = res.scenario.copy()
    sc.info = replace(sc.info, ruleset=rid)
    if not convert:
        return replace(res, scenario=sc)
    conf = conform_import(sc, sc.info)
    out = conf.scenario
    out.info = sc.info
    name = ", ".join(str(p) for p in paths)
    what = f"conversion to the {conf.ruleset_name or rid} scale"
    more = [ImportWarning(what, 0, n, "", "note") for n in conf.notes]
    more += [ImportWarning(name, 0, f"{what}: {w}") for w in conf.warnings]
    return replace(res, scenario=out, warnings=res.warnings + more)


__all__ = ["FORMATS", "ImportResult", "ImportSummary", "ImportWarning", "OobImportError", "import_oob"]
