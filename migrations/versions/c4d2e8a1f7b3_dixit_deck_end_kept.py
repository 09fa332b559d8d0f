"""dixit deck end kept: sessions that played the turn after the last card keep that reading

Revision ID: c4d2e8a1f7b3
Revises: 505cced5b778
Create Date: 2026-12-02 04:10:00.000000

Before this revision ``deck_exhausted: "end"`` ended a Dixit game only after a turn whose refill
fell short, so with 4, 6 or 7 players (a draw pile that divides evenly) a table played one turn
after the refill that took the last card. The rules now end the game on that refill, so such a
session's last turn would be refused on a correction, an export's import or a backup's restore.
Its rules (and its creation's audit entry, which must say the same for its history to replay)
now say ``"end_when_short"``: the same rule under the name of what it meant when those turns
were recorded. Sessions that did not play past the new end keep ``"end"``.
"""
import logging
import math

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c4d2e8a1f7b3'
down_revision = '505cced5b778'
branch_labels = None
depends_on = None

log = logging.getLogger('alembic.runtime.migration')
#: the picture cards of the one box a table could play with before this revision
DECK_SIZE = 84

sessions = sa.table('game_session', sa.column('id', sa.Integer), sa.column('game', sa.String),
                    sa.column('rules', sa.JSON))
seats = sa.table('session_player', sa.column('session_id', sa.Integer))
rounds = sa.table('round', sa.column('session_id', sa.Integer))
entries = sa.table('audit_entry', sa.column('id', sa.Integer),
                   sa.column('session_id', sa.Integer), sa.column('action', sa.String),
                   sa.column('after', sa.JSON))


def last_turn(players):
    """Return the turn whose refill takes the last card (or falls short) at this table size."""
    hand, laid = (7, 5) if players == 3 else (6, players)
    return max(1, math.ceil((DECK_SIZE - players * hand) / laid))


def upgrade():
    connection = op.get_bind()
    candidates = connection.execute(
        sa.select(sessions.c.id, sessions.c.rules).where(sessions.c.game == 'dixit')
    ).all()
    for session_id, rules in candidates:
        if (rules or {}).get('deck_exhausted') != 'end':
            continue
        players = connection.execute(
            sa.select(sa.func.count()).select_from(seats).where(seats.c.session_id == session_id)
        ).scalar_one()
        played = connection.execute(
            sa.select(sa.func.count()).select_from(rounds).where(rounds.c.session_id == session_id)
        ).scalar_one()
        if played <= last_turn(players):
            continue
        kept = {**rules, 'deck_exhausted': 'end_when_short'}
        connection.execute(sessions.update().where(sessions.c.id == session_id).values(rules=kept))
        created = connection.execute(
            sa.select(entries.c.id, entries.c.after)
            .where(entries.c.session_id == session_id, entries.c.action == 'create_session')
        ).first()
        if created is not None and isinstance(created.after, dict):
            after = {**created.after, 'rules': {**(created.after.get('rules') or {}),
                                                'deck_exhausted': 'end_when_short'}}
            connection.execute(entries.update().where(entries.c.id == created.id)
                               .values(after=after))
        log.info('Dixit session %s played past the draw pile\'s last card: its rules now say '
                 'end_when_short, what "end" meant when it was played.', session_id)


def downgrade():
    pass  # "end_when_short" is a rule of its own now; the sessions keep it
