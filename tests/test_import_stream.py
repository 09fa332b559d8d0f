"""Reading an export a part at a time: every part checked, none larger than allowed, any order."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refapp.games.errors import Refusal
from refapp.services.archive import reading
from refapp.services.archive.stream import JsonStream


def stream(text: str | bytes, chunk: int = 7) -> JsonStream:
    """Return a stream over text read in small chunks (so parts cross chunk borders)."""
    raw = text.encode() if isinstance(text, str) else text
    return JsonStream(io.BytesIO(raw), chunk=chunk)


def refusal(call) -> Refusal:
    """Return the Refusal a call raises."""
    with pytest.raises(Refusal) as caught:
        call()
    return caught.value


def walk(source: JsonStream, where: str = "") -> object:
    """Read a whole value through the stream's own walk of objects and lists."""
    if source.is_object():
        return {key: walk(source, f"{where}.{key}") for key in source.keys(where)}
    if source.is_list():
        return [walk(source, f"{where}.{index}") for index in source.items(where)]
    return source.value(where, 1000)


#: documents within the reader's bounds: a key at most 200 bytes as written (30 characters, each
#: at most 6 bytes escaped, with its quotes) and a value at most 1000 (walk's own limit); larger
#: parts are refused on purpose (tests below), which a random draw must not mistake for a bug
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**300), 10**300)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=150),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=30), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(value=json_values, chunk=st.integers(1, 9), spaced=st.booleans())
def test_the_walk_reads_any_document_as_the_standard_library_does(value, chunk, spaced):
    text = json.dumps(value, indent=1 if spaced else None, ensure_ascii=False)
    source = stream(text, chunk)
    assert walk(source) == json.loads(text)
    source.finish()


def test_offsets_are_in_bytes_so_a_part_can_be_read_again():
    text = '{"name": "Ádám 한국", "rounds": [{"a": 1}, {"b": "ő"}]}'
    source = stream(text)
    offsets = {}
    for key in source.keys(""):
        offsets[key] = source.offset()
        if key == "rounds":
            assert [source.value("r", 100) for _ in source.items("rounds")] == [
                {"a": 1},
                {"b": "ő"},
            ]
        else:
            source.value(key, 100)
    again = JsonStream(io.BytesIO(text.encode()), offsets["rounds"], chunk=3)
    assert [again.value("r", 100) for _ in again.items("rounds")] == [{"a": 1}, {"b": "ő"}]


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1,}',
        '{"a" 1}',
        '{"a": [1 2]}',
        '{"a": tru}',
        '{"a": "unterminated}',
        '{"a": 1} x',
        '{"a": NaNa}',
        "",
    ],
)
def test_what_is_not_json_is_invalid_json(text):
    def read():
        source = stream(text)
        walk(source)
        source.finish()

    assert refusal(read).code == "invalid_json"


def test_bytes_that_are_not_utf8_are_invalid_json():
    error = refusal(lambda: walk(stream(b'{"name": "\xff\xfe"}')))
    assert error.code == "invalid_json"
    assert "UTF-8" in error.message


@pytest.mark.parametrize("size", [101, 5000])
def test_a_part_longer_than_allowed_is_refused_by_its_path(size):
    text = json.dumps({"rounds": [{"input": "x" * size}]})
    source = stream(text, chunk=64)

    def read():
        for _key in source.keys(""):
            for index in source.items("rounds"):
                source.value(f"rounds.{index}", 100)

    error = refusal(read)
    assert (error.code, error.field) == ("invalid_value", "rounds.0")
    assert "100 characters at most" in error.message


def test_a_part_of_just_the_allowed_length_is_read():
    part = json.dumps({"input": "x" * 80})
    assert len(part) <= 100
    assert stream(part, chunk=5).value("rounds.0", 100) == {"input": "x" * 80}


def test_nesting_past_the_decoders_reach_is_refused_not_a_crash():
    deep = "[" * 100_000 + "]" * 100_000
    error = refusal(lambda: stream(deep, chunk=4096).value("rounds.0", 300_000))
    assert (error.code, error.field) == ("invalid_value", "rounds.0")


# -- an export's own keys ------------------------------------------------------------------------


def export_file(body: dict) -> reading.ExportFile:
    """Read an export written to a file-like object."""
    return reading.read_export(io.BytesIO(json.dumps(body).encode()))


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"format": "refapp-session", "junk": [0] * 10}, "junk"),
        ({"rounds": [{"input": {}, "junk": 1}]}, "rounds.0.junk"),
        ({"audit": [{"action": "create_session", "note": "x"}]}, "audit.0.note"),
    ],
)
def test_a_key_no_export_writes_is_refused_by_its_path(body, field):
    for read in (export_file, reading.export_data):
        error = refusal(lambda read=read: read(body))
        assert (error.code, error.field) == ("invalid_value", field)


def test_the_first_unknown_key_is_refused_before_its_value_is_read():
    # the junk is larger than any field may be and never ends: the key alone refuses it
    raw = b'{"format": "refapp-session", "junk": [' + b"0, " * 100_000
    error = refusal(lambda: reading.read_export(io.BytesIO(raw)))
    assert (error.code, error.field) == ("invalid_value", "junk")
    assert "has no field 'junk'" in error.message


def test_rounds_may_come_before_the_session_fields():
    body = {"rounds": [{"input": {"a": 1}}], "audit": [], "players": ["Ann"], "game": "dixit"}
    found = export_file(body)
    assert found.fields["players"] == ["Ann"]
    assert found.round_count == 1 and found.entry_count == 0
    assert list(found.rounds()) == [{"input": {"a": 1}}]
    assert list(found.entries()) == []


def test_values_storage_cannot_keep_are_refused_in_every_part():
    body = {"rounds": [{"input": {"n": 2**60}}]}
    for read in (export_file, reading.export_data):
        error = refusal(lambda read=read: read(body))
        assert (error.code, error.field) == ("invalid_value", "rounds.0.input.n")
