"""JSON columns and answers through orjson: the same values as json reads and writes them."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import JSON, Column, MetaData, Table, create_engine, null, select, text

from refapp.services.prepared import json_read, json_write, writer
from refapp.stored_json import has_long_number, loaded, stored

#: JSON values as a round, a tally or a document holds them (big integers and odd text too)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(VALUES)
def test_a_stored_text_reads_back_as_the_value_json_reads(value):
    """Whatever is stored reads back as json.loads reads it, keys in their order."""
    text = stored(value)
    assert loaded(text) == json.loads(text) == value
    assert json.dumps(loaded(text)) == json.dumps(value)


@pytest.mark.parametrize(
    "text",
    ["123456789012345678901234567890", "-98765432109876543210", "NaN", "1E400", '"\\ud800"'],
)
def test_what_orjson_would_read_otherwise_is_read_by_json(text):
    """A long integer stays an integer; NaN, infinity and a lone surrogate read as json reads
    them (orjson would give a float or refuse)."""
    found, expected = loaded(text), json.loads(text)
    assert type(found) is type(expected)
    assert repr(found) == repr(expected)
    assert repr(loaded(text.encode())) == repr(expected)


@given(st.text(alphabet=st.sampled_from('0123456789 ,-"가é\ud800٣'), max_size=60))
def test_a_long_number_is_found_as_a_run_of_19_ascii_digits(text):
    """The byte scan finds what the pattern [0-9]{19} finds, in a text and in its bytes
    (Korean, accented and Arabic-Indic digits, lone surrogates among the digits)."""
    expected = re.search(r"[0-9]{19}", text) is not None
    assert has_long_number(text) is expected
    assert has_long_number(text.encode("utf-8", "surrogatepass")) is expected


def test_a_bare_number_in_a_json_column_reads_as_itself():
    """SQLite gives a JSON column's bare number back as a number (its affinity): Core with the
    engine's reader and the hot writes' one-call reader both read it as itself."""
    engine = create_engine("sqlite://", json_deserializer=loaded)
    table = Table("t", MetaData(), Column("v", JSON))
    with engine.begin() as connection:
        table.create(connection)
        connection.execute(text("INSERT INTO t (v) VALUES (3), (1.5), ('{\"a\": 1}')"))
        assert [row.v for row in connection.execute(select(table))] == [3, 1.5, {"a": 1}]
    assert (json_read(3), json_read(1.5), json_read(None), json_read("[1]")) == (3, 1.5, None, [1])
    with pytest.raises(TypeError):
        json_read(object())


@given(VALUES | st.just(JSON.NULL) | st.just(null()))
def test_a_json_column_is_written_as_sqlalchemy_writes_it(value):
    """The hot writes' one-call writer gives SQLite what SQLAlchemy's JSON type gives it with
    the engine's serializer: the text, JSON null for None and ``JSON.NULL``, NULL for
    ``null()``; a column whose None is SQL NULL keeps SQLAlchemy's own processor."""
    dialect = create_engine("sqlite://", json_serializer=stored).dialect
    made = JSON().bind_processor(dialect)
    assert writer(JSON(), dialect, made) is json_write
    assert json_write(value) == made(value)
    own = JSON(none_as_null=True)
    assert writer(own, dialect, own.bind_processor(dialect)) is not json_write


def test_a_long_integer_and_integer_keys_are_stored_as_json_writes_them():
    """orjson refuses an integer past 64 bits: json.dumps writes it; integer keys become text."""
    assert json.loads(stored({"big": 10**30})) == {"big": 10**30}
    assert stored({1: "a"}) == '{"1":"a"}'
    assert stored({"이름": "도윤"}) == '{"이름":"도윤"}'


def test_answers_are_flasks_values(app):
    """An answer holds the values Flask's own encoder gave: a date as an HTTP date, a long
    integer exactly, Korean as text; a body is read exactly too."""
    with app.test_request_context():
        moment = datetime(2026, 12, 7, 8, 0, tzinfo=UTC)
        answer = app.json.response({"at": moment, "day": date(2026, 12, 7), "big": 10**30})
        assert json.loads(answer.get_data()) == {
            "at": "Mon, 07 Dec 2026 08:00:00 GMT",
            "day": "Mon, 07 Dec 2026 00:00:00 GMT",
            "big": 10**30,
        }
        korean = app.json.response({"name": "도윤"}).get_data()
        assert korean == '{"name":"도윤"}\n'.encode()
        assert app.json.loads(b'{"n": 123456789012345678901}') == {"n": 123456789012345678901}
