"""write keys: a session's Idempotency-Keys, so a resent write is stored at most once

Revision ID: a7c3e9f1d2b8
Revises: f2a8d3b5c6e7
Create Date: 2026-12-06 07:10:00.000000

Each write that carries an ``Idempotency-Key`` keeps it here (with a digest of what it asked),
in the write's own transaction; a resend of the same key answers what the first stored. Nothing
stored before has a key, so the table starts empty.
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "a7c3e9f1d2b8"
down_revision = "f2a8d3b5c6e7"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "write_key",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["game_session.id"],
            name=op.f("fk_write_key_session_id_game_session"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_write_key")),
        sa.UniqueConstraint("session_id", "key", name=op.f("uq_write_key_session_id_key")),
    )
    with op.batch_alter_table("write_key", schema=None) as batch_op:
        batch_op.create_index("ix_write_key_session_id_id", ["session_id", "id"], unique=False)


def downgrade():
    with op.batch_alter_table("write_key", schema=None) as batch_op:
        batch_op.drop_index("ix_write_key_session_id_id")
    op.drop_table("write_key")
