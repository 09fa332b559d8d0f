"""ratings and streaks due: a write that counts, un-counts or changes a counted session marks
the session's ratings due, and a player's streaks when they must be counted again; the next
read of the statistics brings both up to date

Revision ID: c9e4a2d7f1b6
Revises: b7d3f1a8c5e2
Create Date: 2026-12-06 23:40:00

Every stored session and figures row starts not due: its steps and streaks are already stored
(or the next ``flask rebuild-figures --if-stale`` stores them).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c9e4a2d7f1b6"
down_revision = "b7d3f1a8c5e2"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_session", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rating_due", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.create_index("ix_game_session_rating_due", ["rating_due"], unique=False)
    with op.batch_alter_table("player_figures", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("streaks_due", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.create_index("ix_player_figures_streaks_due", ["streaks_due"], unique=False)


def downgrade():
    # what was due is no longer marked: the stored figures count as stale, so the next
    # ``flask rebuild-figures --if-stale`` (``make migrate``) counts them all again
    op.execute("DELETE FROM projection")
    with op.batch_alter_table("player_figures", schema=None) as batch_op:
        batch_op.drop_index("ix_player_figures_streaks_due")
        batch_op.drop_column("streaks_due")
    with op.batch_alter_table("game_session", schema=None) as batch_op:
        batch_op.drop_index("ix_game_session_rating_due")
        batch_op.drop_column("rating_due")
