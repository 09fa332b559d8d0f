"""A player's Dixit figures, read from the turns' stored results (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..stats import average

Result = Mapping[str, Any]


def figures(name: str, results: Sequence[Result]) -> dict[str, Any]:
    """Return the storyteller turns, how often some (not all, not none) found the card, the bonus.

    The vote bonus is averaged over the turns the player voted in (not their own as storyteller),
    as scored, so after any cap.
    """
    told = [result for result in results if result.get("storyteller") == name]
    some = sum(result.get("outcome") == "some_found" for result in told)
    bonuses = [
        result["vote_bonus"][name] for result in results if name in result.get("vote_bonus", {})
    ]
    return {
        "storyteller_turns": len(told),
        "some_found": some,
        "some_found_share": average(some, len(told)),
        "average_vote_bonus": average(sum(bonuses), len(bonuses)),
    }
