"""JSON columns typed as objects: no schema change

Revision ID: d5a9c1e7b3f2
Revises: b3e1f7a9c2d4
Create Date: 2026-12-06 17:50:00

refapp/models.py's JSON columns (a session's rules, setup and first state, a round's input and
state, an audit entry's before and after, a saved rule set's rules) are typed as
``dict[str, object]`` / ``object`` instead of ``Any`` for mypy. The tables, columns and
constraints are the same: ``flask db check`` finds no operation, so this revision changes
nothing; it marks the models' change in the migrations' history.
"""

# revision identifiers, used by Alembic.
revision = "d5a9c1e7b3f2"
down_revision = "b3e1f7a9c2d4"
branch_labels = None
depends_on = None


def upgrade():
    pass  # the schema is unchanged (autogenerate finds no operation)


def downgrade():
    pass
