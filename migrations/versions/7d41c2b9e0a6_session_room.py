"""session room: the audit entries and stored bytes every write keeps on its session

Revision ID: 7d41c2b9e0a6
Revises: 6b2f0e1d9c44
Create Date: 2026-12-01 16:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7d41c2b9e0a6'
down_revision = '6b2f0e1d9c44'
branch_labels = None
depends_on = None

#: what services/limits.py counts around a round's input and result, and an entry's before/after
ROUND_OVERHEAD = 160
ENTRY_OVERHEAD = 128


def upgrade():
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('audit_count', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('stored_bytes', sa.Integer(), server_default='0', nullable=False))
    backfill()


def length(column):
    """Return the SQL length of a JSON column's stored text (0 when null), as limits counts it."""
    return sa.func.coalesce(sa.func.length(sa.cast(column, sa.Text)), 0)


def backfill():
    """Count the entries and bytes of sessions stored before this revision, from their rows."""
    sessions = sa.table('game_session', sa.column('id', sa.Integer),
                        sa.column('audit_count', sa.Integer), sa.column('stored_bytes', sa.Integer))
    rounds = sa.table('round', sa.column('session_id', sa.Integer),
                      sa.column('input', sa.JSON), sa.column('result', sa.JSON))
    entries = sa.table('audit_entry', sa.column('session_id', sa.Integer),
                       sa.column('before', sa.JSON), sa.column('after', sa.JSON))
    round_bytes = (
        sa.select(sa.func.coalesce(
            sa.func.sum(length(rounds.c.input) + length(rounds.c.result) + ROUND_OVERHEAD), 0))
        .where(rounds.c.session_id == sessions.c.id).scalar_subquery()
    )
    entry_bytes = (
        sa.select(sa.func.coalesce(
            sa.func.sum(length(entries.c.before) + length(entries.c.after) + ENTRY_OVERHEAD), 0))
        .where(entries.c.session_id == sessions.c.id).scalar_subquery()
    )
    entry_count = (
        sa.select(sa.func.count()).select_from(entries)
        .where(entries.c.session_id == sessions.c.id).scalar_subquery()
    )
    op.get_bind().execute(
        sessions.update().values(audit_count=entry_count, stored_bytes=round_bytes + entry_bytes)
    )


def downgrade():
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.drop_column('stored_bytes')
        batch_op.drop_column('audit_count')
