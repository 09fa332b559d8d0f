"""The one timing helper the bench scripts share: a median of wall times."""

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
