"""Migration a4e8c2f6b9d1 counts the round times, places, streaks and head-to-head of the
sessions stored before it, as the writes keep them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from refapp.extensions import db
from refapp.models import GameSession, Mark, PairFigures, PlayerFigures, SessionPlayer

from .conftest import Api, Clock, migrated_sqlite_app, turn
from .test_statistics import FOUR

#: what the standings columns hold, read back for comparison
Kept = dict[str, object]


def kept() -> Kept:
    """Return every standings column the migration fills (app context)."""
    sessions = {
        row.id: (row.first_round_at, row.last_round_at, row.played_seconds, row.counted)
        for row in db.session.scalars(sa.select(GameSession))
    }
    seats = {
        (row.session_id, row.player_id): (row.place, row.won, row.seconds, row.tally)
        for row in db.session.scalars(sa.select(SessionPlayer))
    }
    figures = {
        (row.player_id, row.game): (
            row.tally,
            row.streak_current,
            row.streak_longest,
            row.streak_longest_session,
            row.last_counted_session,
        )
        for row in db.session.scalars(sa.select(PlayerFigures))
    }
    pairs = {
        (row.game, row.first_id, row.second_id): row.tally
        for row in db.session.scalars(sa.select(PairFigures))
    }
    marks = sorted(
        (row.session_id, row.key, row.value, row.rank, row.player_id, row.number, row.at)
        for row in db.session.scalars(sa.select(Mark))
    )
    return {
        "sessions": sessions,
        "seats": seats,
        "figures": figures,
        "pairs": pairs,
        "marks": marks,
    }


def test_the_migration_counts_what_the_writes_keep(tmp_path):
    app = migrated_sqlite_app(tmp_path / "old.sqlite")
    clock = Clock()
    clock.now = datetime.now(UTC) - timedelta(hours=20)
    app.config["CLOCK"] = clock
    client = app.test_client()
    api = Api(client)
    idle = api.create(players=list(FOUR), game="dixit")["id"]  # goes idle: counted by time
    for teller in ("Ann", "Ben", "Cy"):
        clock.advance(minutes=7)
        assert api.record(idle, turn(teller, FOUR)).status_code == 201
    clock.advance(hours=19)
    finished = api.create(players=list(FOUR), game="dixit")["id"]
    for teller in ("Dee", "Ann"):
        clock.advance(minutes=50)  # a break between the two: no playing time
        assert api.record(finished, turn(teller, FOUR)).status_code == 201
    assert client.post(f"/api/sessions/{finished}/finish").status_code == 200
    running = api.create(players=list(FOUR), game="dixit")["id"]
    clock.advance(minutes=1)
    assert api.record(running, turn("Ben", FOUR)).status_code == 201
    clock.now = datetime.now(UTC)
    assert client.get("/api/stats").status_code == 200  # counts the idle session
    with app.app_context():
        before = kept()
        db.session.remove()
        downgrade(revision="d5a9c1e7b3f2")
        assert "pair_figures" not in sa.inspect(db.engine).get_table_names()
        upgrade()
        db.engine.dispose()
    with app.app_context():
        after = kept()
        db.session.remove()
    assert after == before
    assert before["sessions"][idle][2] == 14 * 60 and before["sessions"][idle][3] is True
    assert before["sessions"][finished][2:] == (0, True)
    assert before["sessions"][running][3] is False
    assert len(before["pairs"]) == 6
    # each Dixit turn sets a best, a worst and a best-turn mark, each counted session its total
    assert len(before["marks"]) == 3 * 6 + 2
