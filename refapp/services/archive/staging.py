"""What an import makes before it stores it: rows kept in a temporary file, values kept packed.

The largest import replays 10,000 rounds and up to 100,000 audit entries; held as Python objects
they would take gigabytes. Each row is written to a spool (in memory while small, then a
temporary file) as it is made and read back a batch at a time when the import is stored, and the
inputs the trail is compared with are kept as pickled bytes, a tenth of their size as objects.
Only the import's own values go through pickle: it never reads a file it did not write.
"""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterator
from typing import Any

#: a spool stays in memory up to this many bytes, then moves to a temporary file
IN_MEMORY = 4 * 1024 * 1024
#: rows read back and stored at a time
BATCH = 200


def pack(value: Any) -> bytes:
    """Return a value packed small (pickled)."""
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def unpack(packed: bytes) -> Any:
    """Return a value packed by ``pack``."""
    return pickle.loads(packed)  # only what pack wrote, in this process


class Spool:
    """Rows written as they are made and read back in batches, in the same order."""

    def __init__(self) -> None:
        self.file = tempfile.SpooledTemporaryFile(max_size=IN_MEMORY)  # noqa: SIM115  (closed by close())
        self.count = 0

    def add(self, row: dict[str, Any]) -> None:
        """Keep one more row."""
        pickle.dump(row, self.file, protocol=pickle.HIGHEST_PROTOCOL)
        self.count += 1

    def batches(self, size: int = BATCH) -> Iterator[list[dict[str, Any]]]:
        """Yield the rows in the order they were added, ``size`` at a time."""
        self.file.seek(0)
        batch: list[dict[str, Any]] = []
        for _ in range(self.count):
            batch.append(pickle.load(self.file))  # rows this spool wrote
            if len(batch) == size:
                yield batch
                batch = []
        if batch:
            yield batch

    def close(self) -> None:
        """Let the rows go (the temporary file is removed)."""
        self.file.close()
