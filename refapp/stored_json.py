"""JSON columns as the database keeps them: one encoder for every JSON value a write stores.

orjson writes a value ~7x faster than ``json.dumps`` (a tally: 0.3 us against 2.2) and a hot
write stores some twenty of them. Its text is compact UTF-8 and any ``json.loads`` reads it back
to the same value; what it cannot write exactly (an integer past 64 bits, which it refuses) is
written by ``json.dumps``. Values are read by orjson too (~4x faster), unless the text holds a
number of 19 digits or more (orjson would read an integer past 64 bits as a float) or is not
JSON orjson reads (``NaN``, a lone surrogate): then ``json.loads`` reads it, as before.
``limits`` and ``replays`` count and compare stored texts by ``stored``, so what they count is
what is stored.

The API's answers and bodies go through orjson too (``Answers``, Flask's JSON provider): an
answer is the text Flask's default provider would send (compact, keys in their order, the same
``default`` for dates, decimals, UUIDs, dataclasses and markup) but in UTF-8 rather than ASCII
escapes, which any JSON reader reads as the same value; what orjson cannot write exactly (an
integer past 64 bits) Flask's own provider writes. Bodies are read as ``loaded`` reads a text.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response as AnyResponse

#: dictionaries with integer keys are written as json.dumps writes them: the keys as strings
OPTIONS = orjson.OPT_NON_STR_KEYS
#: every byte to "0" if it is an ASCII digit, else to a space: a run of digits is a run of zeros
#: (no byte of a UTF-8 sequence past ASCII is a digit's), found ~7x faster than by a pattern
DIGITS = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))
#: the run of digits an integer past 64 bits needs (2**63 has 19)
LONG_RUN = b"0" * 19


def stored(value: object) -> str:
    """Return a JSON value's text as a JSON column stores it."""
    try:
        return orjson.dumps(value, option=OPTIONS).decode()
    except TypeError:  # an integer past 64 bits, or a type orjson does not write
        return json.dumps(value)


def loaded(text: str | bytes) -> object:
    """Return the value of a stored JSON text, exactly as ``json.loads`` reads it."""
    if not has_long_number(text):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:  # NaN, a lone surrogate: what json.loads alone reads
            pass
    return json.loads(text)


def has_long_number(text: str | bytes) -> bool:
    """Return True when a JSON text holds a run of 19 or more ASCII digits; anything but a text
    or bytes (a bare number SQLite gave back) raises TypeError, as a pattern's search does."""
    if isinstance(text, str):
        raw = text.encode("utf-8", "surrogatepass")
    else:
        raw = text if isinstance(text, bytes) else memoryview(text).tobytes()
    return LONG_RUN in raw.translate(DIGITS)


#: keys that are not strings written as strings; dates, times and dataclasses through
#: ``default`` (Flask writes a date as an HTTP date, orjson would write ISO 8601)
ANSWER_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


class Answers(DefaultJSONProvider):
    """Flask's JSON provider with orjson writing answers and reading bodies."""

    def response(self, *args: Any, **kwargs: Any) -> AnyResponse:
        """Return the JSON answer of a value, as Flask's ``jsonify`` does."""
        if (self.compact is None and self._app.debug) or self.compact is False or self.sort_keys:
            return super().response(*args, **kwargs)  # indented or sorted: Flask's own
        value = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(value, default=self.default, option=ANSWER_OPTIONS)
        except TypeError:  # an integer past 64 bits: Flask's own writes it
            return super().response(*args, **kwargs)
        return Response(body + b"\n", mimetype=self.mimetype)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """Return the value of a JSON body, exactly as ``json.loads`` reads it."""
        if kwargs:
            return super().loads(s, **kwargs)
        return loaded(s)
