"""The API's JSON answers and bodies through orjson: Flask's JSON provider, ~5x faster.

An answer is the text Flask's default provider would send (compact, keys in their order, the
same ``default`` for dates, decimals, UUIDs, dataclasses and markup) but in UTF-8 rather than
ASCII escapes, which any JSON reader reads as the same value. What orjson cannot write exactly
(an integer past 64 bits) is written by the default provider. Bodies are read as
``stored_json.loaded`` reads a stored text: exactly as ``json.loads`` would.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response as AnyResponse

from .stored_json import loaded

#: keys that are not strings written as strings; dates, times and dataclasses through
#: ``default`` (Flask writes a date as an HTTP date, orjson would write ISO 8601)
OPTIONS = (
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
            body = orjson.dumps(value, default=self.default, option=OPTIONS)
        except TypeError:  # an integer past 64 bits: Flask's own writes it
            return super().response(*args, **kwargs)
        return Response(body + b"\n", mimetype=self.mimetype)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """Return the value of a JSON body, exactly as ``json.loads`` reads it."""
        if kwargs:
            return super().loads(s, **kwargs)
        return loaded(s)
