"""The password throttle's counts in the database, so every host and worker process shares them.

The rules and parameters are ``throttle.Throttle``'s (per device pass, per client address, the
whole table's tries); the state is the ``throttle_entry`` table instead of one process's memory,
so N hosts allow what one allows, not N times the guesses. Cheap: a password check reads its
rows in one statement; a failure writes two (its own count, the table's tries, each one atomic
upsert, so hosts counting at once lose nothing); a right password writes one, or none when the
read showed nothing to forget and the address trusted within the last ``REFRESH`` seconds.
Ordinary requests (reads, and everything without a password) cost nothing. Bounded: every
``PRUNE_EVERY`` writes of a process, forgotten entries are deleted, then the oldest past
``ROWS_PER_KIND`` times the throttle's ``size``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import g
from sqlalchemy import Float, and_, case, delete, func, literal, or_, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.elements import ColumnElement

from .extensions import db
from .throttle import Throttle
from .throttle_entries import ThrottleEntry

ADDRESS, DEVICE, TABLE = "address", "device", "table"
#: the longest key kept (an address or a pass id; longer ones are cut)
KEY_MOST = 100
#: a trusted address's trust is written again at most this often by its right passwords
REFRESH = 60.0
#: writes of a process between two prunings of forgotten and surplus entries
PRUNE_EVERY = 64
#: entries kept at most: this many times the throttle's ``size`` (addresses, passes, trust)
ROWS_PER_KIND = 3
#: where ``wait`` leaves the entries it read for the same request's ``succeeded``
SEEN = "refapp_throttle_seen"


@dataclass(frozen=True)
class Entry:
    """A row as read: failures, the last failure's time, the last right password's, tries."""

    failures: int
    failed_at: float | None
    trusted_at: float | None
    tries: float | None


def cut(key: str) -> str:
    """Return the key as stored (at most ``KEY_MOST`` characters)."""
    return key[:KEY_MOST]


class SharedThrottle:
    """``Throttle``'s rules, its state in ``throttle_entry`` (the app's database session)."""

    def __init__(self, rules: Throttle | None = None, prune_every: int = PRUNE_EVERY) -> None:
        self.rules = rules if rules is not None else Throttle()
        self.prune_every = prune_every
        self.writes = 0  # this process's writes since its last pruning

    def read(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Entry]:
        """Return the entries of these (kind, key) pairs, in one statement; remember them."""
        wanted = or_(
            *(and_(ThrottleEntry.kind == kind, ThrottleEntry.key == key) for kind, key in keys)
        )
        rows = db.session.execute(
            select(
                ThrottleEntry.kind,
                ThrottleEntry.key,
                ThrottleEntry.failures,
                ThrottleEntry.failed_at,
                ThrottleEntry.trusted_at,
                ThrottleEntry.tries,
            ).where(wanted)
        )
        found = {(row[0], row[1]): Entry(*row[2:]) for row in rows}
        g.setdefault(SEEN, {}).update({key: found.get(key) for key in keys})
        return found

    def wait(self, client: str, moment: float, device: str | None = None) -> float:
        """Return how many seconds the client (or its device) must wait to try (0: may try)."""
        rules = self.rules
        if device is not None:
            entry = self.read([(DEVICE, cut(device))]).get((DEVICE, cut(device)))
            return max(0.0, self.until(entry) - moment) if entry else 0.0
        found = self.read([(ADDRESS, cut(client)), (TABLE, "")])
        entry, table = found.get((ADDRESS, cut(client))), found.get((TABLE, ""))
        own = max(0.0, self.until(entry) - moment) if entry else 0.0
        trusted_at = entry.trusted_at if entry is not None else None
        if trusted_at is not None and 0 <= moment - trusted_at <= rules.trust:
            return own
        failing = entry is not None and entry.failures > 0 and not self.forgotten(entry, moment)
        needed = 1.0 + (rules.grace * rules.rate if failing else 0.0)
        return max(own, (needed - self.tries_at(table, moment)) / rules.rate, 0.0)

    def until(self, entry: Entry) -> float:
        """Return when the entry's wait ends (0 when it has no failures)."""
        if not entry.failures or entry.failed_at is None:
            return 0.0
        return self.rules.until(entry.failures, entry.failed_at)

    def forgotten(self, entry: Entry, moment: float) -> bool:
        """Return True for failures that no longer count (``forget`` seconds old, wait over)."""
        last = entry.failed_at if entry.failed_at is not None else moment
        return moment - last > self.rules.forget and moment >= self.until(entry)

    def tries_at(self, table: Entry | None, moment: float) -> float:
        """Return the table's tries left at ``moment``: those kept, plus those come back since."""
        rules = self.rules
        if table is None or table.tries is None or table.failed_at is None:
            return rules.burst
        return min(rules.burst, table.tries + max(0.0, moment - table.failed_at) * rules.rate)

    def tries(self, moment: float) -> float:
        """Return the table's tries left at ``moment`` (for a look from outside)."""
        return self.tries_at(self.read([(TABLE, "")]).get((TABLE, "")), moment)

    def failed(self, client: str, moment: float, device: str | None = None) -> None:
        """Count a failed attempt: the device's, or the client's and one of the table's tries."""
        if device is not None:
            self.count(DEVICE, cut(device), moment)
        else:
            self.count(ADDRESS, cut(client), moment)
            self.spend(moment)
        self.wrote(moment)
        db.session.commit()

    def count(self, kind: str, key: str, moment: float) -> None:
        """Add one failure to an entry, starting again after ``forget`` seconds without one."""
        table = ThrottleEntry.__table__
        upsert = self.insert().values(kind=kind, key=key, failures=1, failed_at=moment)
        upsert = upsert.values(touched=moment)
        fresh = and_(
            table.c.failed_at.is_not(None),
            upsert.excluded.failed_at - table.c.failed_at <= self.rules.forget,
        )
        db.session.execute(
            upsert.on_conflict_do_update(
                index_elements=["kind", "key"],
                set_={
                    "failures": case((fresh, table.c.failures + 1), else_=1),
                    "failed_at": upsert.excluded.failed_at,
                    "touched": upsert.excluded.touched,
                },
            )
        )

    def spend(self, moment: float) -> None:
        """Spend one of the table's tries, after giving back those earned since the last."""
        rules, table = self.rules, ThrottleEntry.__table__
        upsert = self.insert().values(
            kind=TABLE, key="", failures=0, failed_at=moment, tries=rules.burst - 1, touched=moment
        )
        later = upsert.excluded.failed_at > table.c.failed_at
        gained = case(
            (later, (upsert.excluded.failed_at - table.c.failed_at) * rules.rate), else_=0.0
        )
        full = table.c.tries + gained
        after = case(
            (full >= rules.burst, literal(rules.burst - 1, Float)), (full >= 1, full - 1), else_=0.0
        )
        db.session.execute(
            upsert.on_conflict_do_update(
                index_elements=["kind", "key"],
                set_={
                    "tries": after,
                    "failed_at": case((later, upsert.excluded.failed_at), else_=table.c.failed_at),
                    "touched": upsert.excluded.touched,
                },
            )
        )

    def succeeded(self, client: str, moment: float, device: str | None = None) -> None:
        """Forget the device's failures; without one, the client's, and trust its address."""
        seen: dict[tuple[str, str], Entry | None] = g.get(SEEN, {})
        if device is not None:
            # the address is left alone: a phone's success never clears or trusts a guesser
            # that shares its address
            key = (DEVICE, cut(device))
            if key not in seen or seen[key] is not None:
                gone = delete(ThrottleEntry).where(
                    ThrottleEntry.kind == DEVICE, ThrottleEntry.key == key[1]
                )
                db.session.execute(gone)
                db.session.commit()
            return
        key = (ADDRESS, cut(client))
        if self.still_trusted(seen.get(key), moment):
            return
        self.trust(key[1], moment)
        self.wrote(moment)
        db.session.commit()

    def still_trusted(self, entry: Entry | None, moment: float) -> bool:
        """Return True for an entry read with no failures and trust written within ``REFRESH``."""
        return (
            entry is not None
            and entry.failures == 0
            and entry.trusted_at is not None
            and 0 <= moment - entry.trusted_at < REFRESH
        )

    def trust(self, key: str, moment: float) -> None:
        """Forget an address's failures and note its right password."""
        upsert = self.insert().values(
            kind=ADDRESS, key=key, failures=0, failed_at=None, trusted_at=moment, touched=moment
        )
        db.session.execute(
            upsert.on_conflict_do_update(
                index_elements=["kind", "key"],
                set_={
                    "failures": 0,
                    "failed_at": None,
                    "trusted_at": upsert.excluded.trusted_at,
                    "touched": upsert.excluded.touched,
                },
            )
        )

    def insert(self) -> Any:
        """Return an INSERT into ``throttle_entry`` that can upsert on this database."""
        dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
        return dialect.insert(ThrottleEntry)

    def wrote(self, moment: float) -> None:
        """Count a write; every ``PRUNE_EVERY``, drop forgotten entries, then the oldest."""
        self.writes += 1
        if self.writes < self.prune_every:
            return
        self.writes = 0
        self.prune(moment)

    def prune(self, moment: float) -> None:
        """Delete the entries that no longer count, then the oldest past the bound."""
        rules, entry = self.rules, ThrottleEntry
        quiet = or_(entry.failed_at.is_(None), entry.failed_at < moment - rules.forget)
        untrusted = or_(entry.trusted_at.is_(None), entry.trusted_at < moment - rules.trust)
        db.session.execute(delete(entry).where(entry.kind != TABLE, quiet, untrusted))
        kept = (
            select(entry.kind, entry.key)
            .where(entry.kind != TABLE)
            .order_by(entry.touched.desc(), entry.kind, entry.key)
            .limit(rules.size * ROWS_PER_KIND)
        )
        db.session.execute(
            delete(entry).where(entry.kind != TABLE, tuple_(entry.kind, entry.key).not_in(kept))
        )

    def entries(self) -> int:
        """Return how many entries are kept (the table's own row aside)."""
        counted: ColumnElement[int] = func.count()
        return db.session.scalar(select(counted).where(ThrottleEntry.kind != TABLE)) or 0
