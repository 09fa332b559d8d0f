"""Migration e1f7c2a9b4d6 and make migrate count the figures of the rounds stored before it."""

from __future__ import annotations

import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from refapp.extensions import db

from .conftest import Api, migrated_sqlite_app, turn
from .figures_support import check, stored_rows
from .test_players import dalmuti_table, dixit_table, mighty_table, session


def test_the_migration_fills_the_figures_of_every_stored_round(tmp_path):
    app = migrated_sqlite_app(tmp_path / "old.sqlite")
    client = app.test_client()
    api = Api(client)
    dixit_table(api)
    mighty_table(api)
    dalmuti_table(api)
    running = session(api, "dixit", ("Ann", "Ben", "Cy", "Eve"), [], finish=False)
    assert api.record(running, turn("Ann", ("Ann", "Ben", "Cy", "Eve"))).status_code == 201
    with app.app_context():
        kept = stored_rows()
        db.session.remove()  # its reads would hold the tables the downgrade drops
        downgrade(revision="c4d2e8a1f7b3")  # as before the figures were stored
        tables = sa.inspect(db.engine).get_table_names()
        columns = [column["name"] for column in sa.inspect(db.engine).get_columns("session_player")]
        assert "player_figures" not in tables and "tally" not in columns
        upgrade()
        db.engine.dispose()
    with app.app_context():  # then what make migrate runs next: the figures counted by today's
        ran = app.test_cli_runner().invoke(args=["rebuild-figures", "--if-stale"])
        assert "Counted 4 session(s)" in ran.output
        assert stored_rows() == kept
        assert len(kept["sums"]) == 15 and len(kept["seats"]) == 18
        db.session.remove()
    shown = check(app, client)
    ann = shown["Ann"]["dixit"]
    assert (ann["sessions_played"], ann["rounds_played"], ann["points"]) == (2, 6, 13)
    assert shown["Eve"]["mighty"]["points"] == 60
    # and the figures go on from there
    assert api.record(running, turn("Ben", ("Ann", "Ben", "Cy", "Eve"))).status_code == 201
    check(app, client)
    with app.app_context():
        db.engine.dispose()
