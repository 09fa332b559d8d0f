"""What an import makes of an export before it stores it: the session replayed through the rules.

A leaf of the archive: ``imports`` makes a ``Replayed``, ``storing`` writes it and ``backups``
restores many; none of them needs the others to read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from ...games.game import AnyGame
from ...models import utcnow
from .staging import Spool
from .trail import Trail
from .write_keys import KeyRow


@dataclass
class ReplayedRounds:
    """The exported rounds replayed: their rows spooled, what the trail compares kept packed."""

    rows: Spool
    inputs: list[bytes] = field(default_factory=list)
    states: list[bytes] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    state: Mapping[str, object] = field(default_factory=dict)
    size: int = 0
    latest: datetime | None = None
    #: when the import began: the time of a round the export gives none
    now: datetime = field(default_factory=utcnow)


@dataclass
class Replayed:
    """An export checked and replayed through the rules, ready to store."""

    game: AnyGame
    name: str
    players: tuple[str, ...]
    rules: Mapping[str, object]
    setup: dict[str, object]
    initial: Mapping[str, object]
    rounds: ReplayedRounds
    finished_by: str | None
    created_at: datetime | None
    finished_at: datetime | None
    trail: Trail
    source: dict[str, object] = field(default_factory=dict)
    updated_at: datetime | None = None
    #: the session's ``version`` when exported (None when absent or out of range)
    version: int | None = None
    #: the preset the exported rules started from (None: made before presets)
    preset: str | None = None
    #: the session's kept write keys, as rows (``write_keys``)
    keys: list[KeyRow] = field(default_factory=list)
    #: where the session was played (None: not said, or an export made before locations)
    location: str | None = None

    def close(self) -> None:
        """Let the spooled rows go."""
        self.rounds.rows.close()
        self.trail.rows.close()
