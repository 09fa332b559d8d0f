"""The kinds of round the table report adds for Dixit and Dalmuti: drivers and their targets.

Each driver enters one round by taps (tests/table_rounds.py's Table) and checks the stored round;
TARGETS holds each kind's most taps, scrolls and model seconds. tests/table_rounds.py merges them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: kind -> driver (phone, lang) -> (Count, session)
KINDS: dict[str, Callable[[Any, str], tuple[Any, dict]]] = {}
#: kind -> (most taps, most scrolls, most model seconds)
TARGETS: dict[str, tuple[int, int, float]] = {}
