"""A Dixit turn as sent, parsed once: the request body becomes a `TurnEntry`.

Parsing reads the shape only (seated names, lists, whole numbers); what the rules say of the
values (whose turn it is, how many cards each lays, which votes count) is checked afterwards on
the parsed entry (``turn``), never on the body.
"""

from __future__ import annotations

from ..errors import RuleViolation
from ..game import Table
from ..inputs import mapping, require, sequence, whole_number
from .shapes import TurnEntry, Vote


def parse_turn(table: Table, raw: object) -> TurnEntry:
    """Return the turn's body parsed, or raise the refusal of the first part out of shape."""
    body = mapping(raw, "round")
    storyteller = table.player(require(body, "storyteller"), "storyteller")
    laid = sequence(require(body, "positions"), "positions")
    positions = [table.player(owner, f"positions.{i}") for i, owner in enumerate(laid, 1)]
    votes = body.get("votes")
    return TurnEntry(storyteller, positions, None if votes is None else votes_sent(table, votes))


def votes_sent(table: Table, raw: object) -> dict[str, Vote]:
    """Return each voter's vote by seated name: a position, or a list of positions."""
    votes: dict[str, Vote] = {}
    for key, value in mapping(raw, "votes").items():
        voter = table.player(key, f"votes.{key}")
        if voter in votes:
            raise RuleViolation(
                "duplicate_vote",
                "{voter} is listed twice among the votes.",
                f"votes.{voter}",
                voter=voter,
            )
        votes[voter] = vote_sent(value, f"votes.{voter}")
    return votes


def vote_sent(value: object, where: str) -> Vote:
    """Return one vote: a whole number, or a list of them (how many counts is the rules')."""
    if isinstance(value, list):
        return [whole_number(pick, where) for pick in value]
    return whole_number(value, where)
