"""The password throttle's table, which every host of the database shares (``shared_throttle``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from .extensions import db

if TYPE_CHECKING:  # db.Model is made at run time from Base, which is what mypy can read
    from .extensions import Base as Model
else:
    Model = db.Model


class ThrottleEntry(Model):
    """Wrong passwords and trusted addresses, counted for every host and worker process at once.

    ``kind`` is ``address`` (a client address: its failures, and ``trusted_at``, its last right
    password), ``device`` (a device's pass: its failures) or ``table`` (the one row of the whole
    table's tries: ``tries`` left as of ``failed_at``). Times are ``access.now()``'s seconds;
    ``touched`` (the last write) orders the oldest out when the table is full
    (``shared_throttle``).
    """

    __tablename__ = "throttle_entry"

    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    failures: Mapped[int] = mapped_column(default=0)
    failed_at: Mapped[float | None]
    trusted_at: Mapped[float | None]
    tries: Mapped[float | None]
    touched: Mapped[float] = mapped_column(index=True)
