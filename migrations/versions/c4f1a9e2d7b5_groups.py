"""groups: one server, many groups; every player, session, rule set and sign-in in one

Revision ID: c4f1a9e2d7b5
Revises: b8e2d4f6a1c3
Create Date: 2026-12-07 07:40:00.000000

Adds the ``club_group`` table with the default group (id 1, slug "default"), and a ``group_id``
(server default 1) on player, game_session, rule_set and sign_in: every existing row lands in
the default group, nothing lost. A player's and a rule set's name are unique per group now.
Sessions gain ``archived`` (false), sign-ins ``organizer`` (false). The downgrade refuses a
database that holds a second group (merging their names could not keep them apart), else drops
what the upgrade added.
"""

from datetime import UTC, datetime

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "c4f1a9e2d7b5"
down_revision = "b8e2d4f6a1c3"
branch_labels = None
depends_on = None

GROUPED = ("player", "game_session", "rule_set", "sign_in")


def upgrade():
    groups = op.create_table(
        "club_group",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("password_digest", sa.String(length=100), nullable=True),
        sa.Column("organizer_digest", sa.String(length=100), nullable=True),
        sa.Column("join_code", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_group")),
        sa.UniqueConstraint("slug", name=op.f("uq_club_group_slug")),
        sa.UniqueConstraint("join_code", name=op.f("uq_club_group_join_code")),
    )
    op.bulk_insert(
        groups,
        [
            {
                "id": 1,
                "slug": "default",
                "name": "Default",
                "join_code": "default",
                "created_at": datetime.now(UTC),
            }
        ],
    )
    if op.get_bind().dialect.name == "postgresql":  # the next group made takes id 2
        op.execute("SELECT setval('club_group_id_seq', 1)")
    for table in GROUPED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(
                sa.Column("group_id", sa.Integer(), server_default="1", nullable=False)
            )
            batch_op.create_index(batch_op.f(f"ix_{table}_group_id"), ["group_id"], unique=False)
            batch_op.create_foreign_key(
                batch_op.f(f"fk_{table}_group_id_club_group"), "club_group", ["group_id"], ["id"]
            )
            if table in ("player", "rule_set"):
                batch_op.drop_constraint(batch_op.f(f"uq_{table}_name"), type_="unique")
                batch_op.create_unique_constraint(
                    batch_op.f(f"uq_{table}_group_id_name"), ["group_id", "name"]
                )
            if table == "game_session":
                batch_op.add_column(
                    sa.Column("archived", sa.Boolean(), server_default=sa.false(), nullable=False)
                )
            if table == "sign_in":
                batch_op.add_column(
                    sa.Column("organizer", sa.Boolean(), server_default=sa.false(), nullable=False)
                )


def downgrade():
    others = op.get_bind().scalar(sa.text("SELECT count(*) FROM club_group WHERE id <> 1"))
    if others:
        raise RuntimeError(
            "this database holds more than one group: an older refapp has one group alone"
        )
    for table in reversed(GROUPED):
        with op.batch_alter_table(table, schema=None) as batch_op:
            if table == "sign_in":
                batch_op.drop_column("organizer")
            if table == "game_session":
                batch_op.drop_column("archived")
            if table in ("player", "rule_set"):
                batch_op.drop_constraint(batch_op.f(f"uq_{table}_group_id_name"), type_="unique")
                batch_op.create_unique_constraint(batch_op.f(f"uq_{table}_name"), ["name"])
            batch_op.drop_constraint(
                batch_op.f(f"fk_{table}_group_id_club_group"), type_="foreignkey"
            )
            batch_op.drop_index(batch_op.f(f"ix_{table}_group_id"))
            batch_op.drop_column("group_id")
    op.drop_table("club_group")
