"""typed model base: no schema change

Revision ID: 505cced5b778
Revises: 7d41c2b9e0a6
Create Date: 2026-12-01 20:31:06.318226

refapp/models.py's classes now derive from the typed declarative base mypy reads (``Model``:
``extensions.Base`` while type-checking, ``db.Model`` at run time). The tables, columns and
constraints are the same: ``flask db check`` finds no operation, so this revision changes
nothing; it marks the models' change in the migrations' history.
"""
# revision identifiers, used by Alembic.
revision = '505cced5b778'
down_revision = '7d41c2b9e0a6'
branch_labels = None
depends_on = None


def upgrade():
    pass  # the schema is unchanged (autogenerate finds no operation)


def downgrade():
    pass
