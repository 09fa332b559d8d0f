"""The timing helpers the bench scripts share: a median of wall times, a checked answer."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_ms(call: Callable[[], Any], repeats: int) -> float:
    """Return the median wall time of ``repeats`` calls of call(), in milliseconds."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return 1000 * statistics.median(samples)


def read(response: Any, status: int = 200) -> bytes:
    """Return a test client answer's whole body (a streamed one too), stopping the bench when
    its status is not the one expected (a refusal is never timed as an answer)."""
    body: bytes = response.get_data()
    if response.status_code != status:
        raise SystemExit(f"{response.status_code}, not {status}: {body[:300]!r}")
    return body
