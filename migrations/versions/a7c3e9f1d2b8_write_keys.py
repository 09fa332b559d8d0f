"""write keys: a session's Idempotency-Keys, so a resent write is stored at most once

Revision ID: a7c3e9f1d2b8
Revises: f2a8d3b5c6e7
Create Date: 2026-12-06 07:10:00.000000

Each write that carries an ``Idempotency-Key`` keeps it here (with a digest of what it asked),
in the write's own transaction; a resend of the same key answers what the first stored. Nothing
stored before has a key, so the table starts empty.

A downgrade keeps the keys in ``kept_write_key`` (a table the older code never reads), each with
its session's last audit entry then; an upgrade that finds it puts back the keys of every
session the older code did not write to meanwhile (its last entry is the same), so a resend
after the round trip is still stored once. A session written to while downgraded loses its
keys: what they answered may have changed.
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "a7c3e9f1d2b8"
down_revision = "f2a8d3b5c6e7"
branch_labels = None
depends_on = None

#: where a downgrade keeps the keys for the next upgrade
KEPT = "kept_write_key"
COLUMNS = "id, session_id, key, digest, action, round_number, at"
LAST_ENTRY = "(SELECT MAX(a.id) FROM audit_entry a WHERE a.session_id = {}.session_id)"


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
    restore()


def restore():
    """Put back the keys a downgrade kept, of the sessions nothing wrote to since."""
    bind = op.get_bind()
    if not sa.inspect(bind).has_table(KEPT):
        return
    op.execute(
        f"INSERT INTO write_key ({COLUMNS}) SELECT {COLUMNS} FROM {KEPT} k "
        f"WHERE k.last_entry = {LAST_ENTRY.format('k')} ORDER BY id"
    )
    if bind.dialect.name == "postgresql":  # the ids were given: move the sequence past them
        op.execute(
            "SELECT setval(pg_get_serial_sequence('write_key', 'id'), "
            "COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM write_key"
        )
    op.drop_table(KEPT)


def downgrade():
    op.execute(f"DROP TABLE IF EXISTS {KEPT}")
    op.execute(
        f"CREATE TABLE {KEPT} AS SELECT {COLUMNS}, {LAST_ENTRY.format('w')} AS last_entry "
        f"FROM write_key w"
    )
    with op.batch_alter_table("write_key", schema=None) as batch_op:
        batch_op.drop_index("ix_write_key_session_id_id")
    op.drop_table("write_key")
