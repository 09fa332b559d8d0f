"""ratings (openskill): each rated event's steps and each player's current rating; the stored
figures' definition version; a period's sessions indexed

Revision ID: b7d3f1a8c5e2
Revises: a4e8c2f6b9d1
Create Date: 2026-12-06 21:30:00

The tables start empty and ``projection`` holds no version, so the figures count as stale: the
next ``make migrate`` (``flask rebuild-figures --if-stale`` after the upgrade) counts every
figure, mark and rating again with the definitions of the day, the new role figures included.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b7d3f1a8c5e2"
down_revision = "a4e8c2f6b9d1"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("mark", schema=None) as batch_op:
        batch_op.drop_index("ix_mark_session_id")
        batch_op.create_index("ix_mark_session", ["session_id", "game", "key"], unique=False)
    with op.batch_alter_table("game_session", schema=None) as batch_op:
        batch_op.create_index("ix_game_session_period", ["game", "last_round_at"], unique=False)
    op.create_table(
        "rating_step",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("team", sa.Integer(), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Double(), nullable=False),
        sa.Column("sigma_before", sa.Double(), nullable=False),
        sa.Column("rated_before", sa.Integer(), nullable=False),
        sa.Column("closes", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["game_session.id"],
            name=op.f("fk_rating_step_session_id_game_session"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_step")),
    )
    with op.batch_alter_table("rating_step", schema=None) as batch_op:
        batch_op.create_index(
            "ix_rating_step_event", ["game", "at", "session_id", "number"], unique=False
        )
        batch_op.create_index(
            "ix_rating_step_player",
            ["player_id", "game", "at", "session_id", "number"],
            unique=False,
        )
        batch_op.create_index(
            "ix_rating_step_history",
            ["player_id", "game", "closes", "at", "session_id"],
            unique=False,
        )
        batch_op.create_index(
            batch_op.f("ix_rating_step_session_id"), ["session_id"], unique=False
        )
    op.create_table(
        "player_rating",
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("display", sa.Double(), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("game", "player_id", name=op.f("pk_player_rating")),
    )
    with op.batch_alter_table("player_rating", schema=None) as batch_op:
        batch_op.create_index("ix_player_rating_board", ["game", "display"], unique=False)
    op.create_table(
        "projection",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_projection")),
    )


def downgrade():
    with op.batch_alter_table("mark", schema=None) as batch_op:
        batch_op.drop_index("ix_mark_session")
        batch_op.create_index("ix_mark_session_id", ["session_id"], unique=False)
    with op.batch_alter_table("game_session", schema=None) as batch_op:
        batch_op.drop_index("ix_game_session_period")
    op.drop_table("projection")
    with op.batch_alter_table("player_rating", schema=None) as batch_op:
        batch_op.drop_index("ix_player_rating_board")
    op.drop_table("player_rating")
    with op.batch_alter_table("rating_step", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rating_step_session_id"))
        batch_op.drop_index("ix_rating_step_history")
        batch_op.drop_index("ix_rating_step_player")
        batch_op.drop_index("ix_rating_step_event")
    op.drop_table("rating_step")
