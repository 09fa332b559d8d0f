"""write keys' model docstring: no schema change

Revision ID: b3e1f7a9c2d4
Revises: a7c3e9f1d2b8
Create Date: 2026-12-06 11:50:00

refapp/models.py's ``WriteKey`` now names the count of keys a session keeps where it lives
(``limits.KEYS_KEPT``). The tables, columns and constraints are the same: ``flask db check``
finds no operation, so this revision changes nothing; it marks the models' change in the
migrations' history.
"""

# revision identifiers, used by Alembic.
revision = "b3e1f7a9c2d4"
down_revision = "a7c3e9f1d2b8"
branch_labels = None
depends_on = None


def upgrade():
    pass  # the schema is unchanged (autogenerate finds no operation)


def downgrade():
    pass
