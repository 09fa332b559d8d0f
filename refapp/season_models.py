"""The tables of seasons and public views (docs/API.md, "Seasons" and "Public views"), on the
same metadata as refapp/models.py: a season names a period of a group's statistics, a public
view is a read-only link to a session or to a group, kept as the digest of its token."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from sqlalchemy import Date, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .extensions import db
from .models import Moment, utcnow

if TYPE_CHECKING:  # db.Model is made at run time from Base, which is what mypy can read
    from .extensions import Base as Model
else:
    Model = db.Model


class Season(Model):
    """A named date range of a group ("Spring 2027"): its first and last UTC day, inclusive."""

    __table_args__ = (UniqueConstraint("group_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    #: the group the season belongs to
    group_id: Mapped[int] = mapped_column(ForeignKey("club_group.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    first_day: Mapped[date] = mapped_column(Date)
    last_day: Mapped[date] = mapped_column(Date)
    created_at: Mapped[Moment] = mapped_column(default=utcnow)


class PublicView(Model):
    """A read-only link for a screen that only watches: a session's scoreboard, or (no session)
    the group's sessions and standings. Only the SHA-256 digest of its token is kept."""

    __tablename__ = "public_view"

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("club_group.id"), index=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    session_id: Mapped[int | None] = mapped_column(
        ForeignKey("game_session.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[Moment] = mapped_column(default=utcnow)
