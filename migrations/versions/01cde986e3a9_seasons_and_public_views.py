"""seasons and public views: a group's named periods, read-only links kept as digests

Revision ID: 01cde986e3a9
Revises: c4f1a9e2d7b5
Create Date: 2026-12-07 07:30:00.000000

Two new tables and nothing carried over (refapp/season_models.py): ``season`` (a group's named
date range, unique by group and name) and ``public_view`` (a read-only link's token digest, for
a session or, without one, for the group), each of a group (``group_id``: the groups' table of
the migration before, c4f1a9e2d7b5). Downgrading drops both tables
(the seasons and links are lost: an older refapp has neither).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "01cde986e3a9"
down_revision = "c4f1a9e2d7b5"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("first_day", sa.Date(), nullable=False),
        sa.Column("last_day", sa.Date(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["club_group.id"], name=op.f("fk_season_group_id_club_group")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_season")),
        sa.UniqueConstraint("group_id", "name", name=op.f("uq_season_group_id_name")),
    )
    with op.batch_alter_table("season", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_season_group_id"), ["group_id"], unique=False)
    op.create_table(
        "public_view",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["game_session.id"],
            name=op.f("fk_public_view_session_id_game_session"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["group_id"], ["club_group.id"], name=op.f("fk_public_view_group_id_club_group")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_public_view")),
        sa.UniqueConstraint("digest", name=op.f("uq_public_view_digest")),
    )
    with op.batch_alter_table("public_view", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_public_view_group_id"), ["group_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_public_view_session_id"), ["session_id"], unique=False)


def downgrade():
    with op.batch_alter_table("public_view", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_public_view_session_id"))
        batch_op.drop_index(batch_op.f("ix_public_view_group_id"))
    op.drop_table("public_view")
    with op.batch_alter_table("season", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_season_group_id"))
    op.drop_table("season")
