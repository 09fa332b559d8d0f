"""player figures: a seat's tally and win, and each player's summed figures per game

Revision ID: e1f7c2a9b4d6
Revises: c4d2e8a1f7b3
Create Date: 2026-12-02 07:10:00.000000

A player's page read every round of every session they sat at. Each seat now keeps the counters
its session's rounds add to the player's figures (``tally``) and whether the player won it
(``won``), and ``player_figures`` keeps their sums per player and game, so the page reads a row
per game. The upgrade counts them from the stored rounds a session at a time, with the rules'
own counting (``refapp.games.stats``); ``flask rebuild-figures`` does the same at any time.
"""
from collections import defaultdict

from alembic import op
import sqlalchemy as sa

from refapp.games.stats import seat_tallies, session_part, winners
from refapp.games.tally import added


# revision identifiers, used by Alembic.
revision = 'e1f7c2a9b4d6'
down_revision = 'c4d2e8a1f7b3'
branch_labels = None
depends_on = None

#: round results read from the database at a time
CHUNK = 500


def upgrade():
    with op.batch_alter_table('session_player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tally', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('won', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    op.create_table(
        'player_figures',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=20), nullable=False),
        sa.Column('tally', sa.JSON(), nullable=False),
        sa.Column('last_played', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('player_id', 'game'),
    )
    backfill()


def backfill():
    """Count every seat's tally and win, and each player's sums, from the stored rounds."""
    sessions = sa.table('game_session', sa.column('id', sa.Integer), sa.column('game', sa.String),
                        sa.column('finished', sa.Boolean), sa.column('totals', sa.JSON),
                        sa.column('created_at', sa.DateTime(timezone=True)))
    seats = sa.table('session_player', sa.column('id', sa.Integer),
                     sa.column('session_id', sa.Integer), sa.column('player_id', sa.Integer),
                     sa.column('seat', sa.Integer), sa.column('tally', sa.JSON),
                     sa.column('won', sa.Boolean))
    players = sa.table('player', sa.column('id', sa.Integer), sa.column('name', sa.String))
    rounds = sa.table('round', sa.column('session_id', sa.Integer),
                      sa.column('number', sa.Integer), sa.column('result', sa.JSON))
    figures = sa.table('player_figures', sa.column('player_id', sa.Integer),
                       sa.column('game', sa.String), sa.column('tally', sa.JSON),
                       sa.column('last_played', sa.DateTime(timezone=True)))
    connection = op.get_bind()
    sums = defaultdict(dict)
    latest = {}
    ids = connection.execute(sa.select(sessions.c.id).order_by(sessions.c.id)).scalars().all()
    for session_id in ids:
        session = connection.execute(
            sa.select(sessions).where(sessions.c.id == session_id)).one()
        seated = connection.execute(
            sa.select(seats.c.id, seats.c.player_id, players.c.name)
            .join(players, players.c.id == seats.c.player_id)
            .where(seats.c.session_id == session_id).order_by(seats.c.seat)
        ).all()
        names = [seat.name for seat in seated]
        tallies = seat_tallies(session.game, names, results_of(connection, rounds, session_id))
        won = winners(names, session.totals or {}, session.finished)
        for seat in seated:
            connection.execute(seats.update().where(seats.c.id == seat.id)
                               .values(tally=tallies[seat.name], won=seat.name in won))
            key = (seat.player_id, session.game)
            sums[key] = added(sums[key], session_part(tallies[seat.name], seat.name in won))
            if session.created_at is not None:
                latest[key] = max(latest.get(key, session.created_at), session.created_at)
    rows = [{'player_id': player_id, 'game': game, 'tally': tally,
             'last_played': latest.get((player_id, game))}
            for (player_id, game), tally in sums.items()]
    for start in range(0, len(rows), CHUNK):
        connection.execute(figures.insert(), rows[start:start + CHUNK])


def results_of(connection, rounds, session_id):
    """Yield a session's stored results in order, CHUNK rows read at a time."""
    after = 0
    while True:
        chunk = connection.execute(
            sa.select(rounds.c.number, rounds.c.result)
            .where(rounds.c.session_id == session_id, rounds.c.number > after)
            .order_by(rounds.c.number).limit(CHUNK)
        ).all()
        for row in chunk:
            yield row.result or {}
        if len(chunk) < CHUNK:
            return
        after = chunk[-1].number


def downgrade():
    op.drop_table('player_figures')
    with op.batch_alter_table('session_player', schema=None) as batch_op:
        batch_op.drop_column('won')
        batch_op.drop_column('tally')
