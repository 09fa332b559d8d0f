"""figures owed: while a session runs, its writes move its seats' parts and leave the players'
figures as they were (each seat keeps the part they hold), and a recorded round's marks wait;
the next read of the statistics adds both

Revision ID: a3c7e5b9d2f4
Revises: 01cde986e3a9
Create Date: 2026-12-07 15:20:00

Every stored seat starts with nothing kept (its part is what the players' figures hold), every
session not due, and every round marked (``marked``: the session's round count).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a3c7e5b9d2f4"
down_revision = "01cde986e3a9"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_session", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("figures_due", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.create_index("ix_game_session_figures_due", ["figures_due"], unique=False)
        batch_op.add_column(sa.Column("marked", sa.Integer(), server_default="0", nullable=False))
    with op.batch_alter_table("session_player", schema=None) as batch_op:
        batch_op.add_column(sa.Column("paid", sa.JSON(), nullable=True))
    op.execute("UPDATE game_session SET marked = round_count")  # their marks are all stored


def downgrade():
    # what the figures lag is dropped: the stored figures count as stale, so the next
    # ``flask rebuild-figures --if-stale`` (``make migrate``) counts them all again
    op.execute("DELETE FROM projection")
    with op.batch_alter_table("session_player", schema=None) as batch_op:
        batch_op.drop_column("paid")
    with op.batch_alter_table("game_session", schema=None) as batch_op:
        batch_op.drop_column("marked")
        batch_op.drop_index("ix_game_session_figures_due")
        batch_op.drop_column("figures_due")
