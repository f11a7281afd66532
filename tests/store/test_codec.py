"""The document codec covers the whole model, and the SQLite tables cover the codec."""

from __future__ import annotations

import pytest

from battlestudio.store.codec import COLLECTIONS, INFO, SOURCE, RecordSpec
from battlestudio.store.database import row_from_record
from battlestudio.store.fields import OPT_POINT, POINT
from battlestudio.store.tables import COLLECTION_TABLES, InfoRow, SourceRow

SPECS = {**COLLECTIONS, "info": INFO, "sources": SOURCE}
TABLES = {**COLLECTION_TABLES, "info": InfoRow, "sources": SourceRow}


@pytest.mark.parametrize("key", sorted(SPECS))
def test_every_model_field_is_stored(key):
    spec: RecordSpec = SPECS[key]
    assert spec.uncovered() == [], (
        f"{spec.cls.__name__} gained field(s) the store does not save yet: add them to its spec in "
        "store/codec.py and as columns in store/tables.py"
    )


@pytest.mark.parametrize("key", sorted(SPECS))
def test_every_stored_field_has_its_column(key):
    spec, table = SPECS[key], TABLES[key]
    columns = set(table.__table__.c.keys())
    for name, codec in spec.fields:
        wanted = {f"{name}_x", f"{name}_y"} if codec in (POINT, OPT_POINT) else set(codec.columns(name))
        assert wanted <= columns, (table.__tablename__, name)
    extra = columns - {c for n, k in spec.fields for c in k.columns(n)}
    assert extra <= {"seq"} or (key == "info" and extra == {"id"}), extra


def test_a_record_becomes_a_row_with_points_split_and_json_as_text(jena):
    row = row_from_record(COLLECTIONS["units"], COLLECTIONS["units"].dump(jena.scenario.units["st-hilaire"], "u"))
    assert row["position_x"] == 200.0 and row["position_y"] == 50.0
    assert row["attributes"] == '{"regiments":["10e léger","14e"]}'
