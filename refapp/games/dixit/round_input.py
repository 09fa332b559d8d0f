"""A Dixit turn's input, declared once: every path, the words naming it, the kind of its value."""

from __future__ import annotations

from ..errors import N_
from ..round_input import InputPath

#: the more specific pattern of a prefix comes first: the first that matches names the path
ROUND_INPUT = (
    InputPath("storyteller", N_("Storyteller"), "name"),
    InputPath("positions", N_("Who laid cards 1, 2, 3, ..."), "names"),
    InputPath("positions.{n}", N_("Owner of card %(n)s"), "name"),
    InputPath("votes", N_("Votes")),
    InputPath("votes.{player}.{n}", N_("%(player)s's vote no. %(n)s")),
    InputPath("votes.{player}", N_("%(player)s's vote")),
)


def path_words(path: str) -> str | None:
    """Name a turn's input path in words ("Dee's vote"), or None for the generic words."""
    head, _, rest = path.partition(".")
    if head == "votes" and rest:
        return f"{rest}'s vote"
    if path == "positions":
        return "who laid cards 1, 2, ..."
    return None
