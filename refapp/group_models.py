"""The groups one server holds (a club's tables), and the column that puts a row in one.

Group 1 is the default group: the one the routes without ``/g/<slug>/`` address, made with the
tables (by the migration, or by ``create_all`` through the table's ``after_create``), so a
server that never made a group is one group, as before groups.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import DateTime, ForeignKey, String, event
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, declared_attr, mapped_column
from sqlalchemy.schema import Table

from .extensions import db

if TYPE_CHECKING:  # db.Model is made at run time from Base, which is what mypy can read
    from .extensions import Base as Model
else:
    Model = db.Model

#: the default group's id and slug
DEFAULT_ID = 1
DEFAULT_SLUG = "default"


class Group(Model):
    """A group of players on a server: its own players, sessions, rule sets and passwords."""

    __tablename__ = "club_group"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: its address: ``/g/<slug>/`` (1-40 of a-z, 0-9 and -)
    slug: Mapped[str] = mapped_column(String(40), unique=True)
    name: Mapped[str] = mapped_column(String(60))
    #: keyed digests (``club.digest``) of the group's table password and organizer password
    #: (None: none set; the default group then reads the server's configuration)
    password_digest: Mapped[str | None] = mapped_column(String(100))
    organizer_digest: Mapped[str | None] = mapped_column(String(100))
    #: the random code of its join link (``/join/<code>``)
    join_code: Mapped[str] = mapped_column(String(16), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class InGroup:
    """A row of one group (players, sessions, rule sets, sign-ins): existing rows are group 1's."""

    @declared_attr
    def group_id(cls) -> Mapped[int]:
        """Return the group column (indexed, a foreign key to ``club_group``)."""
        return mapped_column(ForeignKey("club_group.id"), index=True, server_default="1")


def default_row() -> dict[str, Any]:
    """Return the default group's row."""
    return {
        "id": DEFAULT_ID,
        "slug": DEFAULT_SLUG,
        "name": "Default",
        "join_code": "default",
        "created_at": datetime.now(UTC),
    }


@event.listens_for(Group.__table__, "after_create")
def add_default(table: Table, connection: Connection, **_: Any) -> None:
    """Put the default group in a table ``create_all`` just made (PostgreSQL: the next group
    made takes id 2)."""
    connection.execute(table.insert().values(**default_row()))
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql("SELECT setval('club_group_id_seq', 1)")
