"""Club URLs (no server needed): what is a club URL, the battle id, the password kept out of
every message."""

from __future__ import annotations

import pytest

from battlestudio.store.club import ClubError, ClubURL, is_club_url


def test_a_postgresql_url_is_a_club_url_and_a_file_path_is_not() -> None:
    assert is_club_url("postgresql://host/club?battle=1")
    assert is_club_url("postgres://u@host:5433/club")
    assert not is_club_url("scenarios/jena-1806.battle.json")
    assert not is_club_url("postgresql.battle")


def test_the_battle_id_is_read_and_the_password_is_never_shown() -> None:
    url = ClubURL.parse("postgresql://anne:s3cret@db.club.example:5433/club?sslmode=require&battle=7")
    assert url.battle == 7
    assert "s3cret" not in url.shown and "s3cret" not in str(url)
    assert url.shown == "postgresql://anne@db.club.example:5433/club?sslmode=require&battle=7"
    assert "battle" not in url.conninfo and "s3cret" in url.conninfo and "sslmode=require" in url.conninfo
    assert url.with_battle(9).shown.endswith("battle=9") and url.with_battle(9).battle == 9


@pytest.mark.parametrize("bad", ["0", "-1", "seven", "1.5", ""])
def test_a_battle_that_is_not_a_positive_number_is_refused_naming_the_url(bad: str) -> None:
    with pytest.raises(ClubError) as err:
        ClubURL.parse(f"postgresql://anne:s3cret@host/club?battle={bad}")
    assert "positive whole number" in str(err.value)
    assert "s3cret" not in str(err.value) and "postgresql://anne@host/club" in str(err.value)


def test_a_url_without_a_database_says_where_it_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PGDATABASE", raising=False)
    with pytest.raises(ClubError, match="no database in the URL"):
        ClubURL.parse("postgresql://host")
