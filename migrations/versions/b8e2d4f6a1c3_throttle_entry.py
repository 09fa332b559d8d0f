"""throttle entries: wrong passwords counted in the database, shared by every host

Revision ID: b8e2d4f6a1c3
Revises: a3c5e7f9b1d2
Create Date: 2026-12-07 05:30:00.000000

The password throttle kept its counts in each process's memory, so N hosts (or worker
processes) allowed N times the guesses; now they are rows every host reads and writes
(refapp/shared_throttle.py). Nothing is carried over: the counts were each process's own and
ended with it anyway. Downgrading drops the table (an older refapp counts in memory again).
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "b8e2d4f6a1c3"
down_revision = "a3c5e7f9b1d2"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "throttle_entry",
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("failed_at", sa.Double(), nullable=True),
        sa.Column("trusted_at", sa.Double(), nullable=True),
        sa.Column("tries", sa.Double(), nullable=True),
        sa.Column("touched", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("kind", "key", name=op.f("pk_throttle_entry")),
    )
    with op.batch_alter_table("throttle_entry", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_throttle_entry_touched"), ["touched"], unique=False)


def downgrade():
    with op.batch_alter_table("throttle_entry", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_throttle_entry_touched"))
    op.drop_table("throttle_entry")
