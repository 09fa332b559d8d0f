"""The hot writes' scenario: every golden case recorded, corrected and undone through the API, in
one database under a hand-moved clock, with every answer and the stored rows after each write.

``tests/test_hot_writes_same.py`` runs it and compares what it gives with
``tests/hot_writes_expected.json``, which this module wrote (``python -m tests.hot_writes_scenario
tests/hot_writes_expected.json``) from the hot writes as they were before they went below the ORM
(commit 48196a2): the round, session, seats, figures, pairs, marks, ratings, write keys and audit
rows after each write (as digests: the session's own rows and every shared table), and every
answer's status, entity tag and body (its digest and its length). Run it again only for a change
meant to store or answer something else, and say so in the commit. JSON texts and answers are
compared by value in one form (``as_json``, ``answer_text``) and a session's kept size by
whether it is the size as stored (``sizes_as_stored``): since orjson writes them (compact, UTF-8)
the file is the one these comparisons made of the code just before (1e7f908), whose texts the
file had compared byte for byte. The players' figures are compared as a read shows them: a write
while its session runs leaves what it changed owed to them, and ``tables`` adds it first, as a
read does (services/owed.py); so are the rounds' marks, which a read adds.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, Text, cast, select

from refapp.extensions import db
from refapp.services import owed

from .stored_oracle import stored_bytes as oracle_bytes

GOLDEN = Path(__file__).parent / "golden"
EXPECTED = Path(__file__).parent / "hot_writes_expected.json"
#: tables whose ``id`` is a surrogate nothing else holds: left out of the comparison (SQLite
#: reuses a deleted row's id, PostgreSQL's sequences never do), their rows still in id order
SURROGATE = {"round", "audit_entry", "mark", "write_key", "rating_step", "sign_in"}
#: tables no hot write touches, left out: the server's password throttle (none is set here),
#: the server's groups (the scenario writes to the default group alone), the seasons and the
#: public views
UNTOUCHED = {"throttle_entry", "club_group", "season", "public_view"}
#: columns added after the expected rows were written, the same in every row here (the
#: default group's, not archived, owing the figures nothing once ``tables`` paid it) or another
#: column's (``marked``: the round count, then): left out of the comparison
ADDED_SINCE = {"group_id", "archived", "paid", "figures_due", "marked"}
#: how the writes ask for their answer's rounds, in turn
ROUNDS = ("?rounds=none", "", "?rounds=all")


class Clock:
    """The app's clock (``CLOCK``), moved by the scenario alone."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 6, 19, 0, 0, 123456, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **moved: float) -> None:
        """Move the clock on."""
        self.now += timedelta(**moved)


def cases() -> Iterator[dict[str, Any]]:
    """Yield every golden case, file by file, in order."""
    for path in sorted(GOLDEN.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            yield {**case, "id": f"{path.stem}:{case['id']}"}


def value(raw: object) -> object:
    """Return a stored value as compared: a time as ISO 8601 UTC, anything else as read."""
    if isinstance(raw, datetime):
        return (raw if raw.tzinfo else raw.replace(tzinfo=UTC)).astimezone(UTC).isoformat()
    return raw


def as_json(text: str | None) -> str | None:
    """Return a JSON column's stored text as compared: its value in ``json.dumps``'s default
    form, keys in their stored order (the text once stored; what writes it now, orjson, writes
    the same value more compactly)."""
    return None if text is None else json.dumps(json.loads(text))


def answer_text(response: Any) -> str:
    """Return an answer's text as compared: a JSON answer as its value in one compact form, keys
    in their order (Flask's encoder once wrote ASCII escapes, orjson UTF-8: the same value)."""
    text: str = response.get_data(as_text=True)
    if not response.is_json:
        return text
    return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))


def tables(app: Any, session_id: int | None = None) -> dict[str, list[list[object]]]:
    """Return every table's rows (in primary key order), as compared (a JSON column as the text
    stored): with ``session_id``, a session's own rows (the rest are other sessions')."""
    found: dict[str, list[list[object]]] = {}
    with app.app_context():
        # the figures as a read shows them: what a running session's writes left owed, and the
        # rounds' marks, added (services/owed.py) - the writes once added them themselves
        owed.pay_owed()
        for table in db.metadata.sorted_tables:
            if table.name in UNTOUCHED:
                continue
            kept = [
                c
                for c in table.columns
                if not (c.name == "id" and table.name in SURROGATE) and c.name not in ADDED_SINCE
            ]
            texts = [isinstance(c.type, JSON) for c in kept]
            # JSON's text: null is not NULL
            columns = [cast(c, Text) if text else c for c, text in zip(kept, texts, strict=True)]
            query = select(*columns).order_by(*table.primary_key.columns)
            own = table.c.get("session_id", table.c.id if table.name == "game_session" else None)
            if session_id is not None and own is not None:
                query = query.where(own == session_id)
            found[table.name] = [
                [as_json(raw) if text else value(raw) for raw, text in zip(row, texts, strict=True)]
                for row in db.session.execute(query)
            ]
        sizes_as_stored(found["game_session"])
        db.session.remove()
    return with_shifts_added(found)


def sizes_as_stored(sessions: list[list[object]]) -> None:
    """Put in each session row, for its kept ``stored_bytes``, whether it is the size of the
    rows as stored (``stored_oracle``): the texts' form, so their size, changed since the hot
    writes were first compared (``as_json``), not whether the count holds."""
    names = [c.name for c in db.metadata.tables["game_session"].columns]
    at = [name for name in names if name not in ADDED_SINCE].index("stored_bytes")
    for row in sessions:
        session_id = row[0]
        assert isinstance(session_id, int)
        row[at] = row[at] == oracle_bytes(session_id)


def with_shifts_added(found: dict[str, list[list[object]]]) -> dict[str, list[list[object]]]:
    """Return the rows with each round's running totals as the chart reads them: the stored
    ones with the session's ``running_shift`` rows added (kept apart since the hot writes were
    first compared), as the JSON text the ORM stored them as, and no ``running_shift`` table."""
    shifts = found.pop("running_shift", [])
    if not shifts:
        return found
    names = [c.name for c in db.metadata.tables["round"].columns if c.name != "id"]
    session, number, running = (names.index(n) for n in ("session_id", "number", "running"))
    for row in found["round"]:
        for _id, sid, first, last, by in shifts:
            if sid == row[session] and first <= row[number] <= last:
                totals = json.loads(row[running])
                moved = {
                    name: total + json.loads(by).get(name, 0) for name, total in totals.items()
                }
                row[running] = json.dumps(moved)
    return found


def digest(found: object) -> str:
    """Return a short digest of rows or of an answer's text."""
    text = found if isinstance(found, str) else json.dumps(found, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def digests(rows: dict[str, list[list[object]]]) -> dict[str, str]:
    """Return each table's rows as a short digest."""
    return {name: digest(found) for name, found in rows.items()}


class Scenario:
    """Drives the API and keeps every step: the request, its answer and the tables after it."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.clock = Clock()
        app.config["CLOCK"] = self.clock
        self.client = app.test_client()
        self.steps: list[dict[str, Any]] = []
        self.last: dict[str, str] = {}
        self.turn = 0
        self.session_id: int | None = None

    def send(self, method: str, path: str, body: object = None, **headers: str) -> Any:
        """Send one request, keep its answer and the tables it changed; return its JSON."""
        self.clock.advance(minutes=3, seconds=7)
        response = self.client.open(path, method=method, json=body, headers=headers)
        text = answer_text(response)
        step: dict[str, Any] = {
            "request": f"{method} {path}",
            "status": response.status_code,
            "etag": response.headers.get("ETag"),
            "body": digest(text),
            "size": len(text),
        }
        now = digests(tables(self.app, self.session_id))
        step["tables"] = {name: seen for name, seen in now.items() if self.last.get(name) != seen}
        self.last = now
        self.steps.append(step)
        return response.get_json(silent=True)

    def rounds(self) -> str:
        """Return the next write's ``?rounds=``."""
        self.turn += 1
        return ROUNDS[self.turn % len(ROUNDS)]

    def run_case(self, case: dict[str, Any]) -> None:
        """Create the case's session, record its rounds, then correct and undo them."""
        create = {"game": case["game"], "players": case["players"], "rules": case.get("rules", {})}
        create.update(case.get("session", {}))
        made = self.send("POST", "/api/sessions", create)
        if not isinstance(made, dict) or "id" not in made:
            return
        self.session_id = made["id"]
        api = f"/api/sessions/{made['id']}"
        recorded: list[object] = []
        for index, step in enumerate(case.get("rounds", []), 1):
            if step.get("dry_run"):
                self.send("POST", f"{api}/rounds?dry_run=1", step["input"])
                continue
            key = f"{case['id']}:{index}"[-64:]
            answer = self.send("POST", f"{api}/rounds{self.rounds()}", step["input"],
                               **{"Idempotency-Key": key})  # fmt: skip
            if isinstance(answer, dict) and "round" in answer:
                recorded.append(step["input"])
                if len(recorded) == 1:  # the same entry sent again: answered as stored
                    self.send("POST", f"{api}/rounds", step["input"], **{"Idempotency-Key": key})
        if recorded:
            self.corrections(api, recorded)

    def corrections(self, api: str, recorded: list[object]) -> None:
        """Correct round 1 (its own input, the last round's, then two rounds at once), undo the
        last round, then after the session went idle undo and record again."""
        self.send("PUT", f"{api}/rounds/1{self.rounds()}", recorded[0], **{"Idempotency-Key": "c1"})
        if len(recorded) > 1:
            self.send("PUT", f"{api}/rounds/1{self.rounds()}", recorded[-1])
            both = {"rounds": {"1": recorded[0], "2": recorded[1]}}
            self.send("PUT", f"{api}/rounds{self.rounds()}", both, **{"Idempotency-Key": "c2"})
        count = len(recorded)
        self.send("DELETE", f"{api}/rounds/{count}{self.rounds()}", **{"If-Match": '"0"'})
        self.send("DELETE", f"{api}/rounds/{count}{self.rounds()}", **{"Idempotency-Key": "u1"})
        self.clock.advance(hours=13)
        if count > 1:
            self.send("DELETE", f"{api}/rounds/{count - 1}{self.rounds()}")
            self.clock.advance(hours=13)
        self.send("POST", f"{api}/rounds{self.rounds()}", recorded[-1])

    def run(self) -> dict[str, Any]:
        """Run every golden case; return the steps and the tables at the end."""
        for case in cases():
            self.run_case(case)
        return {"steps": self.steps, "tables": digests(tables(self.app))}


def main(argv: list[str]) -> None:
    """Write the scenario's steps and tables, as refapp gives them now, to the file named."""
    from .conftest import make_test_app  # the tests' app, as the fixtures make it

    with tempfile.TemporaryDirectory() as folder:
        app = make_test_app(f"sqlite:///{Path(folder) / 'scenario.sqlite'}")
        with app.app_context():
            db.create_all()
            db.session.remove()
        found = Scenario(app).run()
        with app.app_context():
            db.engine.dispose()
    Path(argv[0]).write_text(json.dumps(found, ensure_ascii=False, indent=0) + "\n", "utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
