"""The factory's setup: database URL, secret key, migrations that match the models."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade

from refapp import create_app, database_url
from refapp.extensions import db
from refapp.hosting import own_secret_key as secret_key


def test_database_url_defaults_to_sqlite_in_instance_and_uses_psycopg_for_postgres():
    assert database_url(None, "/x/instance") == "sqlite:////x/instance/refapp.sqlite"
    assert database_url("postgres://u:p@h/db", "/i") == "postgresql+psycopg://u:p@h/db"
    assert database_url("postgresql://u@h/db", "/i") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:////tmp/x.db", "/i") == "sqlite:////tmp/x.db"


def test_secret_key_is_generated_once_and_kept(tmp_path):
    first = secret_key(str(tmp_path))
    assert len(first) == 64
    assert secret_key(str(tmp_path)) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_migrations_build_exactly_the_models(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'm.sqlite'}",
        }
    )
    with app.app_context():
        upgrade()
        with db.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
            foreign_keys = connection.exec_driver_sql("PRAGMA foreign_keys").scalar()
        db.engine.dispose()
    assert diff == []
    assert foreign_keys == 1
