"""The error codes Dixit's rules raise: each one's kind and meaning (status 422), registered."""

from __future__ import annotations

from ..codes import Kind, register_codes

#: a broken rule of Dixit
register_codes(
    Kind.RULE,
    {
        "duplicate_vote": "a voter is listed twice or puts two votes on one card",
        "missing_vote": "a player other than the storyteller has not voted",
        "storyteller_voted": "the storyteller votes",
        "too_many_votes": "a player casts more votes than the house rules allow",
        "vote_out_of_range": "a vote names a position that is not on the table",
        "vote_own_card": "a player votes for their own card",
        "wrong_card_count": "a player lays the wrong number of cards, or positions do not add up",
        "wrong_storyteller": "the storyteller named is not the one whose turn it is",
    },
)
