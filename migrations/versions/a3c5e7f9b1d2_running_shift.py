"""running shifts: the running totals a correction moved, kept as one vector over a range

Revision ID: a3c5e7f9b1d2
Revises: d8b4f6a2c1e9
Create Date: 2026-12-07 05:30:00.000000

A correction that leaves a round's state as stored moves every later round's running total by
the same vector; it is kept as one row here instead of rewriting every later round. A new
table, empty: nothing stored before needs a shift.
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "a3c5e7f9b1d2"
down_revision = "d8b4f6a2c1e9"
branch_labels = None
depends_on = None

rounds = sa.table(
    "round",
    sa.column("id", sa.Integer),
    sa.column("session_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("running", sa.JSON),
)
shifts = sa.table(
    "running_shift",
    sa.column("session_id", sa.Integer),
    sa.column("first_number", sa.Integer),
    sa.column("last_number", sa.Integer),
    sa.column("by", sa.JSON),
)


def upgrade():
    op.create_table(
        "running_shift",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("first_number", sa.Integer(), nullable=False),
        sa.Column("last_number", sa.Integer(), nullable=False),
        sa.Column("by", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["game_session.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("running_shift", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_running_shift_session_id"), ["session_id"], unique=False
        )


def downgrade():
    # the shifts folded back into the rounds' running totals first: nothing is lost going down
    bind = op.get_bind()
    for session_id, first, last, by in bind.execute(
        sa.select(shifts.c.session_id, shifts.c.first_number, shifts.c.last_number, shifts.c.by)
    ).all():
        rows = bind.execute(
            sa.select(rounds.c.id, rounds.c.running).where(
                rounds.c.session_id == session_id, rounds.c.number.between(first, last)
            )
        ).all()
        for row_id, running in rows:
            after = {name: total + by.get(name, 0) for name, total in running.items()}
            bind.execute(rounds.update().where(rounds.c.id == row_id).values(running=after))
    with op.batch_alter_table("running_shift", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_running_shift_session_id"))
    op.drop_table("running_shift")
