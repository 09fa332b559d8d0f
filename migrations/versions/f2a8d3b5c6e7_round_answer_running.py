"""round answer and running totals: what a read sends and the chart draws, kept with each round

Revision ID: f2a8d3b5c6e7
Revises: e1f7c2a9b4d6
Create Date: 2026-12-02 07:30:00.000000

Each round now keeps the API's round object as JSON text (``answer``), sent as it is by a read,
and every player's running total after it (``running``), which the chart samples. Both are
filled here for the rounds already stored, session by session (memory bounded by the longest
session), with the code every write used when this migration was made: frozen below (from
refapp/services/stored_rounds.py), so a later change of the app leaves this step as it ran.
"""

import json
from datetime import UTC

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "f2a8d3b5c6e7"
down_revision = "e1f7c2a9b4d6"
branch_labels = None
depends_on = None

rounds = sa.table(
    "round",
    sa.column("id", sa.Integer),
    sa.column("session_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("input", sa.JSON),
    sa.column("result", sa.JSON),
    sa.column("recorded_at", sa.DateTime(timezone=True)),
    sa.column("corrected_at", sa.DateTime(timezone=True)),
    sa.column("answer", sa.Text),
    sa.column("running", sa.JSON),
)
seats = sa.table(
    "session_player",
    sa.column("session_id", sa.Integer),
    sa.column("player_id", sa.Integer),
    sa.column("seat", sa.Integer),
)
players = sa.table("player", sa.column("id", sa.Integer), sa.column("name", sa.String))
sessions = sa.table("game_session", sa.column("id", sa.Integer))


def iso(moment):
    """Write a stored time as ISO 8601 UTC."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


def answer_text(number, entered, result, recorded_at, corrected_at):
    """Return the API's round object as the compact JSON text a read sends (keys in order)."""
    answer = {
        "number": number,
        "input": entered,
        "result": {key: value for key, value in result.items() if key != "explanation_parts"},
        "recorded_at": iso(recorded_at),
        "corrected_at": iso(corrected_at),
    }
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":"))


def running_after(totals, deltas):
    """Return every player's running total after a round with these deltas."""
    return {name: total + deltas.get(name, 0) for name, total in totals.items()}


def upgrade():
    with op.batch_alter_table("round") as batch:
        batch.add_column(sa.Column("answer", sa.Text(), nullable=True))
        batch.add_column(sa.Column("running", sa.JSON(), nullable=True))
    connection = op.get_bind()
    for (session_id,) in connection.execute(sa.select(sessions.c.id).order_by(sessions.c.id)).all():
        fill(connection, session_id)


def fill(connection, session_id):
    """Write the answer and running totals of one session's rounds."""
    names = (
        connection.execute(
            sa.select(players.c.name)
            .join(seats, seats.c.player_id == players.c.id)
            .where(seats.c.session_id == session_id)
            .order_by(seats.c.seat)
        )
        .scalars()
        .all()
    )
    totals = dict.fromkeys(names, 0)
    rows = []
    for row in connection.execute(
        sa.select(
            rounds.c.id,
            rounds.c.number,
            rounds.c.input,
            rounds.c.result,
            rounds.c.recorded_at,
            rounds.c.corrected_at,
        )
        .where(rounds.c.session_id == session_id)
        .order_by(rounds.c.number)
    ):
        totals = running_after(totals, (row.result or {}).get("deltas") or {})
        rows.append(
            {
                "rid": row.id,
                "new_answer": answer_text(
                    row.number, row.input, row.result, row.recorded_at, row.corrected_at
                ),
                "new_running": totals,
            }
        )
    if rows:
        connection.execute(
            rounds.update()
            .where(rounds.c.id == sa.bindparam("rid"))
            .values(answer=sa.bindparam("new_answer"), running=sa.bindparam("new_running")),
            rows,
        )


def downgrade():
    with op.batch_alter_table("round") as batch:
        batch.drop_column("running")
        batch.drop_column("answer")
