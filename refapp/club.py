"""The group a request addresses and whether it carries the organizer's right (the shared
interface of issue 40; this stub serves the one default group, where the table's write right is
the organizer's)."""

from __future__ import annotations

from . import access


def current_group_id() -> int:
    """Return the id of the group this request addresses (1: the default group)."""
    return 1


def is_organizer() -> bool:
    """Return True when this request carries the group's organizer right."""
    return access.can_write()
