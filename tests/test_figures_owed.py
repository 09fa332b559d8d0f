"""A running session's writes leave its players' figures to the next read (services/owed.py):
the seats move, no figures row is written, and what a read shows is what the rounds give."""

from __future__ import annotations

from sqlalchemy import select

from refapp.extensions import db
from refapp.models import GameSession, Mark, Player, PlayerFigures, SessionPlayer

from .conftest import turn
from .test_statistics import FOUR, stats


def figures_of(app, game: str) -> dict[str, dict[str, int]]:
    """Return each player's stored figures tally in a game, as stored (nothing paid first)."""
    with app.app_context():
        found = {
            name: tally
            for name, tally in db.session.execute(
                select(Player.name, PlayerFigures.tally)
                .join(Player, Player.id == PlayerFigures.player_id)
                .where(PlayerFigures.game == game)
            )
        }
        db.session.remove()
    return found


def kept(app, session_id: int) -> tuple[bool, list[object]]:
    """Return whether a session is due and what each of its seats keeps as paid."""
    with app.app_context():
        due = db.session.scalar(select(GameSession.figures_due).where(GameSession.id == session_id))
        paid = db.session.scalars(
            select(SessionPlayer.paid)
            .where(SessionPlayer.session_id == session_id)
            .order_by(SessionPlayer.seat)
        ).all()
        db.session.remove()
    return bool(due), list(paid)


def rounds_played(client, name: str) -> int:
    """Return a player's rounds played in Dixit as the statistics show them."""
    found = [row for row in stats(client, game="dixit")["players"] if row["name"] == name]
    return found[0]["rounds"] if found else 0


def test_a_round_at_a_running_table_writes_its_seats_and_no_figures_row(
    app, api, client, count_queries
):
    sid = api.create(players=list(FOUR), game="dixit")["id"]
    assert api.record(sid, turn("Ann")).status_code == 201
    with count_queries() as counter:
        assert api.record(sid, turn("Ben")).status_code == 201
    sent = [text for text in counter.statements if not text.startswith("SELECT")]
    assert [text for text in sent if "player_figures" in text] == []
    assert any(text.startswith("UPDATE session_player") for text in sent)
    # nothing of the session is in the figures yet (their rows were made empty with the
    # session): each seat keeps the part they hold (none)
    assert figures_of(app, "dixit") == {name: {} for name in FOUR}
    assert kept(app, sid) == (True, [{}, {}, {}, {}])
    # a read adds it: two rounds each, the seats keep nothing, the session is not due
    lines = stats(client, game="dixit")["players"]
    assert {line["name"]: (line["rounds"], line["sessions"]) for line in lines} == dict.fromkeys(
        FOUR, (2, 0)
    )  # played, not counted yet
    shown = figures_of(app, "dixit")
    assert {name: tally["rounds_played"] for name, tally in shown.items()} == dict.fromkeys(FOUR, 2)
    assert all(tally["sessions_played"] == 1 for tally in shown.values())
    assert kept(app, sid) == (False, [None, None, None, None])


def test_rounds_a_read_did_not_see_are_added_by_the_write_that_counts_the_session(app, api, client):
    sid = api.create(players=list(FOUR), game="dixit")["id"]
    assert api.record(sid, turn("Ann")).status_code == 201
    client.get("/api/players")  # a read: Ann's one round is in her figures now
    assert figures_of(app, "dixit")["Ann"]["rounds_played"] == 1
    for teller in ("Ben", "Cy"):
        assert api.record(sid, turn(teller)).status_code == 201
    due, paid = kept(app, sid)  # the figures were given one round each: what the seats keep
    assert due and all(part is not None and part["rounds_played"] == 1 for part in paid)
    assert client.delete(f"/api/sessions/{sid}/rounds/3").status_code == 200
    # finishing counts it: its write gives the figures both rounds and the win at once
    assert client.post(f"/api/sessions/{sid}/finish").status_code == 200
    assert kept(app, sid)[1] == [None, None, None, None]
    ann = figures_of(app, "dixit")["Ann"]
    assert (ann["rounds_played"], ann["sessions_counted"]) == (2, 1)
    assert rounds_played(client, "Ann") == 2
    assert kept(app, sid) == (False, [None, None, None, None])  # the read found nothing owed


def test_one_read_adds_what_every_running_session_left(app, api, client):
    # more sessions than a read takes at a time (owed.BATCH): the first read adds them all
    sessions = [api.create(players=list(FOUR), game="dixit")["id"] for _ in range(53)]
    for sid in sessions[::10]:
        assert api.record(sid, turn("Dee")).status_code == 201
    profile = client.get("/api/players/Dee").get_json()
    assert profile["sessions_played"] == 53
    assert profile["games"]["dixit"]["rounds_played"] == len(sessions[::10])
    assert all(kept(app, sid) == (False, [None] * 4) for sid in sessions[::10])


def marked_rounds(app, session_id: int) -> list[int]:
    """Return the numbers of a session's rounds that have marks stored, in order."""
    with app.app_context():
        found = db.session.scalars(
            select(Mark.number)
            .where(Mark.session_id == session_id)
            .distinct()
            .order_by(Mark.number)
        ).all()
        db.session.remove()
    return list(found)


def test_a_round_is_marked_by_the_next_read_and_an_undo_takes_out_only_marks_stored(
    app, api, client, count_queries
):
    sid = api.create(players=list(FOUR), game="dixit")["id"]
    with count_queries() as counter:
        assert api.record(sid, turn("Ann")).status_code == 201
    assert [text for text in counter.statements if text.startswith("INSERT INTO mark")] == []
    assert marked_rounds(app, sid) == []
    best = {r["key"]: r for r in stats(client, game="dixit")["records"]}["best_round"]
    assert (best["value"], best["round"]) == (2, 1)  # the read marked round 1
    assert marked_rounds(app, sid) == [1]
    # round 2 recorded and undone before any read: it was never marked, nothing to take out
    assert api.record(sid, turn("Ben")).status_code == 201
    with count_queries() as counter:
        assert client.delete(f"/api/sessions/{sid}/rounds/2").status_code == 200
    assert [text for text in counter.statements if text.startswith("DELETE FROM mark")] == []
    assert marked_rounds(app, sid) == [1]
    # recorded again, marked by a read, then undone: its marks go with it
    assert api.record(sid, turn("Ben")).status_code == 201
    stats(client, game="dixit")
    assert marked_rounds(app, sid) == [1, 2]
    assert client.delete(f"/api/sessions/{sid}/rounds/2").status_code == 200
    assert marked_rounds(app, sid) == [1]
