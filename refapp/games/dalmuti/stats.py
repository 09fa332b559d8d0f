"""A player's Dalmuti figures and roles, counted hand by hand from the stored results (pure)."""

from __future__ import annotations

from collections.abc import Mapping

from ..roles import RoleBook, Roles
from ..stats import average
from ..tally import Figures, Tally
from .ranks import ROLES, role_of
from .shapes import DalmutiResult

Result = DalmutiResult


def tally(name: str, result: Result) -> Tally:
    """Return what one hand adds: played, the place (1 = first out), the rank held, a revolution.

    The rank is read from the ranks during the hand, so after a greater revolution (three
    players have no merchant: the middle seat is the Lesser Dalmuti); a revolution counts for
    the player who declared it.
    """
    ranks = result.get("ranks_after") or ()
    if name not in ranks:
        return {}
    during = result.get("ranks_during") or []
    counted = {
        "hands_played": 1,
        "place_sum": list(ranks).index(name) + 1,
        "revolutions": int(result.get("revolution_by") == name),
    }
    if name in during:
        counted[f"hands_as_{role_of(during.index(name) + 1, len(during))}"] = 1
    return counted


def figures_from(counted: Mapping[str, int]) -> Figures:
    """Return the hands played, the average finishing place, the hands at either end of ranks."""
    hands = counted.get("hands_played", 0)
    return {
        "hands_played": hands,
        "average_finish": average(counted.get("place_sum", 0), hands),
        "hands_as_greater_dalmuti": counted.get("hands_as_greater_dalmuti", 0),
        "hands_as_greater_peasant": counted.get("hands_as_greater_peasant", 0),
        "revolutions": counted.get("revolutions", 0),
    }


def roles_from(counted: Mapping[str, int]) -> Roles:
    """Return the hands held in each rank, the hands, the average finishing place, revolutions."""
    hands = counted.get("hands_played", 0)
    return {
        "hands_by_rank": {role: counted.get(f"hands_as_{role}", 0) for role in ROLES},
        "hands": hands,
        "average_finish": average(counted.get("place_sum", 0), hands),
        "revolutions": counted.get("revolutions", 0),
    }


#: the record of the most hands in a row one player held the Greater Dalmuti's rank
RUN_KEY = "longest_greater_dalmuti_run"
#: Dalmuti's own records
RECORD_KEYS = (RUN_KEY,)


def run_holder(result: Result) -> str | None:
    """Return the hand's Greater Dalmuti (during the hand), who holds the run."""
    during = result.get("ranks_during") or []
    return during[0] if during else None


ROLE_BOOK = RoleBook[Result](roles_from=roles_from, run_key=RUN_KEY, run_holder=run_holder)
