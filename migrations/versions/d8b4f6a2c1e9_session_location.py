"""session location: where the table played, optional short text (the play log filters by it)

Revision ID: d8b4f6a2c1e9
Revises: c9e4a2d7f1b6
Create Date: 2026-12-06 23:55:00

Every stored session starts with no location (NULL).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d8b4f6a2c1e9"
down_revision = "c9e4a2d7f1b6"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_session", schema=None) as batch_op:
        batch_op.add_column(sa.Column("location", sa.String(length=60), nullable=True))
        batch_op.create_index("ix_game_session_location", ["location"], unique=False)


def downgrade():
    with op.batch_alter_table("game_session", schema=None) as batch_op:
        batch_op.drop_index("ix_game_session_location")
        batch_op.drop_column("location")
