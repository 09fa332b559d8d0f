"""The hot writes (record, correct, undo) run no ORM unit of work, send a bounded number of
statements, and on SQLite send them on the driver's own cursor (services/prepared.py)."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import NullPool, QueuePool, event, func, select

from refapp import create_app
from refapp.extensions import db
from refapp.models import AuditEntry, Round
from refapp.services import prepared

from .conftest import TEST_DATABASE_URL, fresh_sqlite, make_test_app, turn

SEATS = ("Ann", "Ben", "Cy", "Dee")
#: a record's statements: the session (with its last state on SQLite) and its seats, the
#: figures rows, the round, its marks, the seats' and figures' changes, the audit entry, the
#: session's change (BEGIN and COMMIT not counted)
RECORD_MOST = 11


def played(api, rounds: int) -> int:
    """Return the id of a Dixit session with ``rounds`` rounds recorded."""
    sid = api.create(list(SEATS))["id"]
    for number in range(rounds):
        assert api.record(sid, turn(SEATS[number % 4])).status_code == 201
    return sid


def hot_writes(api, sid: int) -> None:
    """Record a round, correct round 1 and undo the last round, each answered as it should be."""
    client = api.client
    assert api.record(sid, turn("Cy")).status_code == 201
    fixed = {**turn("Ann"), "votes": {"Ben": 3, "Cy": 2, "Dee": 2}}
    assert client.put(f"/api/sessions/{sid}/rounds/1", json=fixed).status_code == 200
    assert client.delete(f"/api/sessions/{sid}/rounds/3").status_code == 200


def test_the_hot_writes_flush_nothing_through_the_orm(app, api):
    """No ORM object is added or changed by a record, a correction or an undo (no flush runs
    with anything to write)."""
    sid = played(api, 2)
    flushed: list[int] = []

    def count(session, context, instances) -> None:
        flushed.append(len(session.new) + len(session.dirty) + len(session.deleted))

    with app.app_context():
        event.listen(db.session, "before_flush", count)
        try:
            hot_writes(api, sid)
        finally:
            event.remove(db.session, "before_flush", count)
    assert flushed == []
    assert len(api.audit(sid)) == 1 + 2 + 3  # created, two rounds, then the three writes


def test_a_record_sends_a_bounded_number_of_statements(api, count_queries):
    """However long the session, a record is at most RECORD_MOST statements."""
    sid = played(api, 5)
    with count_queries() as counter:
        assert api.record(sid, turn(SEATS[5 % 4])).status_code == 201
    assert counter.count <= RECORD_MOST, counter.statements


@pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="SQLite's own connection only")
def test_on_sqlite_the_hot_writes_use_the_drivers_cursor(api, monkeypatch):
    """With nothing listening to the statements, they go on SQLite's cursor (each one made
    once), and what they store is read back through the API as recorded."""
    sid = played(api, 2)
    sent: list[str] = []
    real = prepared.sent_on

    def counted(driver, made, given):
        sent.append(made.sql.split()[0])
        return real(driver, made, given)

    monkeypatch.setattr(prepared, "sent_on", counted)
    hot_writes(api, sid)
    assert sent.count("INSERT") >= 3 and sent.count("UPDATE") >= 6, sent
    session = api.session(sid)
    assert session["rounds_total"] == 2 and session["version"] == 6


@pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="SQLite's own connection only")
def test_a_statement_sqlalchemy_compiles_otherwise_goes_through_core(api, monkeypatch):
    """When SQLAlchemy's compiled form is not the one ``prepare`` reads (another version), each
    statement is sent through Core instead, and the writes store and answer as before."""
    sid = played(api, 2)

    def unreadable(*_args):
        raise AttributeError("_bind_processors")

    monkeypatch.setattr(prepared, "PREPARED", {})
    monkeypatch.setattr(prepared, "UNPREPARED", set())
    monkeypatch.setattr(prepared, "prepare", unreadable)
    monkeypatch.setattr(prepared, "sent", lambda *_args: pytest.fail("sent on the cursor"))
    hot_writes(api, sid)
    assert prepared.UNPREPARED and not prepared.PREPARED
    session = api.session(sid)
    assert session["rounds_total"] == 2 and session["version"] == 6


@pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="SQLite's own connection only")
def test_on_sqlite_a_hot_write_holds_a_connection_without_the_orm_session(app, api, monkeypatch):
    """A record, a correction and an undo each hold a connection of their own (no ORM session
    is made for them) and end its transaction, refused or stored: the thread keeps that one
    connection for its next write - the same one, in no transaction - and nothing else stays
    checked out."""
    sid = played(api, 2)
    held: list[bool] = []
    used: list[object] = []
    real = prepared.committed

    def seen() -> bool:
        held.append(prepared.held_here() is not None and not db.session.registry.has())
        used.append(prepared.held_here())
        return real()

    monkeypatch.setattr(prepared, "committed", seen)
    hot_writes(api, sid)
    assert held == [True, True, True]
    assert used[0] is used[1] is used[2]
    with app.app_context():
        pool = db.engine.pool
    assert pool.checkedout() == 1
    kept = prepared.KEPT.pair[1]
    assert kept is used[0] and not kept.in_transaction()
    assert not kept.connection.driver_connection.in_transaction
    own_card = {**turn("Cy"), "votes": {"Ann": 2, "Ben": 1, "Dee": 1}}  # Ann's own card: refused
    assert api.record(sid, own_card).status_code == 422
    assert pool.checkedout() == 1 and prepared.held_here() is None
    assert not kept.connection.driver_connection.in_transaction
    assert api.record(sid, turn("Cy")).status_code == 201
    assert api.session(sid)["rounds_total"] == 3 and used[-1] is kept


@pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="SQLite's own connection only")
def test_a_thread_keeps_one_connection_whatever_the_apps_it_writes_to(request, app, api, tmp_path):
    """A thread writing to another app's database gives the connection it kept for the first
    back to that app's pool: it keeps one at most."""
    sid = played(api, 1)
    with app.app_context():
        first = db.engine.pool
    assert first.checkedout() == 1
    other = make_test_app(fresh_sqlite(request, tmp_path / "other.sqlite"))
    with other.app_context():
        second = db.engine.pool
    client = other.test_client()
    made = client.post("/api/sessions", json={"game": "dixit", "players": list(SEATS)})
    assert made.status_code == 201
    recorded = client.post(f"/api/sessions/{made.json['id']}/rounds", json=turn("Ann"))
    assert recorded.status_code == 201
    assert first.checkedout() == 0 and second.checkedout() == 1
    assert api.record(sid, turn("Ben")).status_code == 201
    assert first.checkedout() == 1 and second.checkedout() == 0


@pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="SQLite's own connection only")
def test_what_asks_the_orm_session_during_a_held_write_is_in_that_write(app, api, monkeypatch):
    """A rarer step that reads or writes through the ORM session while a hot write holds its
    connection (here: an extra audit entry added as an ORM object) joins that write: it is
    stored with it, and rolled back with it when the write is refused."""
    sid = played(api, 1)
    real = prepared.committed

    def with_orm_entry() -> bool:
        db.session.add(AuditEntry(session_id=sid, action="test", round_number=None))
        assert db.session.scalar(select(func.count()).select_from(Round)) == 2  # the new round
        return real()

    monkeypatch.setattr(prepared, "committed", with_orm_entry)
    assert api.record(sid, turn("Ben")).status_code == 201
    with app.app_context():
        actions = db.session.scalars(
            select(AuditEntry.action).where(AuditEntry.session_id == sid)
        ).all()
        assert actions.count("test") == 1 and actions[-2:] == ["record_round", "test"]
        db.session.remove()


FIVE = ("Ann", "Ben", "Cy", "Dee", "Eve")


def mighty_hand(boss: str, dealer: str) -> dict:
    """Return a Mighty hand dealt by ``dealer``: the boss bids 13 in spades, the rest pass."""
    start = FIVE.index(dealer)
    bidding = [
        {"player": name, "bid": 13, "trump": "S"}
        if name == boss
        else {"player": name, "pass": True}
        for name in [*FIVE[start:], *FIVE[:start]]
    ]
    return {
        "bidding": bidding,
        "contract": {"boss": boss, "bid": 13, "trump": "S"},
        "friend": {"card": "JK", "player": "Eve" if boss != "Eve" else "Ann"},
        "opposition_points": 3,
        "dealer": dealer,
    }


@pytest.mark.parametrize("corrected", [1, 3])
def test_a_corrections_answer_holds_the_state_after_the_last_round(api, corrected):
    """The state a correction answers with (the one it replayed to, or the stored one it did not
    reach) is the state the session reads afterwards: the next dealer moves with the boss."""
    sid = api.create(players=FIVE, game="mighty")["id"]
    dealers = ["Ann"]
    for boss in ("Ben", "Cy", "Dee"):
        recorded = api.record(sid, mighty_hand(boss, dealers[-1]))
        assert recorded.status_code == 201, recorded.get_json()
        dealers.append(recorded.get_json()["session"]["state"]["next_dealer"] or boss)
    before = api.session(sid)["state"]
    # round 1 scored again (the same dealer after it); round 3 with another boss and friend
    fixed = (
        {**mighty_hand("Ben", "Ann"), "opposition_points": 7}
        if corrected == 1
        else (mighty_hand("Eve", dealers[2]))
    )
    answer = api.client.put(f"/api/sessions/{sid}/rounds/{corrected}?rounds=none", json=fixed)
    assert answer.status_code == 200, answer.get_json()
    after = api.session(sid)["state"]
    assert answer.get_json()["state"] == after
    assert (after != before) is (corrected == 3)  # round 3's boss names the next dealer


def test_an_undos_answer_holds_the_state_the_round_before_left(api):
    """An undo answers with the state the round before left (the initial one after round 1),
    read with the round it takes out: the state the session reads afterwards."""
    created = api.create(players=FIVE, game="mighty")
    sid, dealer, after = created["id"], "Ann", [created["state"]]  # after[n]: after round n
    for boss in ("Ben", "Cy", "Dee"):
        recorded = api.record(sid, mighty_hand(boss, dealer))
        assert recorded.status_code == 201, recorded.get_json()
        after.append(recorded.get_json()["session"]["state"])
        dealer = after[-1]["next_dealer"] or boss
    for number in (3, 2, 1):
        answer = api.client.delete(f"/api/sessions/{sid}/rounds/{number}?rounds=none")
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["state"] == api.session(sid)["state"] == after[number - 1]


@pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="SQLite's own connection only")
def test_an_sqlite_pool_never_makes_a_thread_wait_for_a_connection(app):
    """Every thread keeps a connection for its hot writes, so an SQLite file's pool opens another
    whenever all are checked out (past SQLAlchemy's 5 + 10) rather than making one wait."""
    with app.app_context():
        engine = db.engine
    taken = [engine.connect() for _ in range(20)]
    try:
        assert engine.pool.checkedout() >= 20
        assert all(connection.exec_driver_sql("SELECT 1").scalar() == 1 for connection in taken)
    finally:
        for connection in taken:
            connection.close()


@pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="SQLite's own connection only")
def test_a_commit_that_fails_leaves_the_kept_connection_fit_for_the_next_write(app, api):
    """A write whose statements went through Core (something listens to them) and whose commit
    then fails is refused whole; the connection the thread keeps is in no transaction, and the
    next writes - a record, and an undo, which reads through Core - go on."""
    sid = played(api, 1)
    with app.app_context():
        engine = db.engine
    seen: list[str] = []
    real = engine.dialect.do_commit
    failed: list[bool] = []

    def once(connection) -> None:
        if not failed:
            failed.append(True)
            raise sqlite3.OperationalError("disk I/O error")
        real(connection)

    def listen(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", listen)
    engine.dialect.do_commit = once  # type: ignore[method-assign]
    try:
        refused = api.record(sid, turn("Ben"))
        assert refused.status_code == 500 and refused.get_json()["error"]["code"] == "server_error"
        kept = prepared.KEPT.pair[1]
        assert kept.get_transaction() is None
        assert not kept.connection.driver_connection.in_transaction
        assert api.record(sid, turn("Ben")).status_code == 201
        assert api.client.delete(f"/api/sessions/{sid}/rounds/2").status_code == 200
    finally:
        engine.dialect.do_commit = real  # type: ignore[method-assign]
        event.remove(engine, "before_cursor_execute", listen)
    assert failed and seen  # the commit failed once, the statements went through Core
    assert api.session(sid)["rounds_total"] == 1


@pytest.mark.skipif(bool(TEST_DATABASE_URL), reason="SQLite's own connection only")
def test_a_disposed_pool_gets_its_kept_connection_back_at_the_next_write(app, api):
    """After the engine's pool is disposed (a test's end, a forked worker), the thread's next
    write gives the connection kept from the old pool back to it and takes one of the new."""
    sid = played(api, 1)
    with app.app_context():
        old = db.engine.pool
        db.engine.dispose()
        new = db.engine.pool
    before = prepared.KEPT.pair
    assert before[0] is old and new is not old
    assert api.record(sid, turn("Ben")).status_code == 201
    assert before[1].closed  # given back to the old pool
    assert prepared.KEPT.pair[0] is new and new.checkedout() == 1


def test_a_pool_the_config_chooses_is_left_as_it_is(tmp_path):
    """The SQLite pool's overflow is opened only on the pool SQLAlchemy picks for a file: a
    configuration's own pool class (NullPool here) is kept, and an in-memory database too."""
    url = f"sqlite:///{tmp_path / 'own.sqlite'}"
    chosen = create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "SQLALCHEMY_ENGINE_OPTIONS": {"poolclass": NullPool}}
    )
    memory = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})
    with chosen.app_context():
        assert isinstance(db.engine.pool, NullPool)
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("SELECT 1").scalar() == 1
        db.engine.dispose()
    with memory.app_context():
        assert not isinstance(db.engine.pool, QueuePool)
    assert "max_overflow" not in chosen.config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert "max_overflow" not in memory.config.get("SQLALCHEMY_ENGINE_OPTIONS", {})
