"""The error codes Dalmuti's rules raise: each one's kind and meaning (status 422), registered."""

from __future__ import annotations

from ..codes import Kind, register_codes

#: a field Dalmuti reads that is not of its shape
register_codes(
    Kind.MALFORMED,
    {
        "invalid_rank": "a Dalmuti card is not a rank 1 to 12 or `J` (jester)",
    },
)

#: a broken rule of Dalmuti
register_codes(
    Kind.RULE,
    {
        "card_not_in_hand": "a card is played or given that the hand does not hold",
        "draw_tie": "a tie in the draw for seats is left unbroken: the tied players draw again",
        "finish_order_invalid": "the finishing order leaves a player out or names one twice",
        "jester_in_tribute": "jesters never change hands in the tax",
        "mixed_ranks": "a play mixes ranks (only jesters may join another rank)",
        "play_not_better": "a play does not beat the play before it with a lower number",
        "revolution_kind_not_allowed": "this revolution (plain or greater) is not allowed here",
        "revolution_without_jesters": "a revolution is declared without holding both jesters",
        "supply_exceeded": "more copies of a rank are entered than the deck has",
        "tribute_not_allowed": (
            "a tribute is entered where none is paid (no tax this hand, or the Lesser pair "
            "below its fewest players)"
        ),
        "tribute_not_best": "a tribute to a greater player is not the giver's best cards",
        "tribute_required": "the tax is due this hand but its tribute is missing",
        "wrong_hand_size": "a dealt hand does not have the size its seat gets",
        "wrong_play_count": "a play is empty or not as many cards as the play before",
        "wrong_tribute_count": "a tribute is not the number of cards the role gives",
    },
)
