"""The error codes Mighty's rules raise: each one's kind and meaning (status 422), registered."""

from __future__ import annotations

from ..codes import Kind, register_codes

#: a field Mighty reads that is not of its shape
register_codes(
    Kind.MALFORMED,
    {
        "invalid_card": "a Mighty card is not written as a suit and rank (`H10`) or `JK`",
        "invalid_hand": "a Mighty dealt hand has the wrong size, a non-card or a card twice",
        "invalid_points": "Mighty `opposition_points` is not a whole number of point cards",
    },
)

#: a broken rule of Mighty
register_codes(
    Kind.RULE,
    {
        "auction_not_finished": "the bidding log stops while someone may still bid",
        "bid_after_pass": "a player who passed bids again in the same auction",
        "bid_not_higher": "a bid does not beat the highest bid so far",
        "bid_too_high": "a bid is more than the point cards in the deck",
        "bid_too_low": "a bid is below the auction's minimum",
        "boss_not_auction_winner": "the boss named is not the one who won the auction",
        "card_not_in_deck": "a card a table of four plays without (a 2, a 4, a 3 but the call)",
        "card_played_twice": "a card appears twice in the tricks",
        "contract_lowered": "the contract is lower than the winning bid",
        "friend_card_forbidden": "the friend card is one this table does not allow to be called",
        "friend_card_held_by_boss": "the friend card was the boss's own and this table forbids it",
        "friend_type_not_allowed": "this table does not allow that way of calling a friend",
        "holder_conflict": "who held the mighty, joker or friend card contradicts the points",
        "invalid_kill": "a kill where nobody is killed, the boss killed, a card or player twice",
        "joker_call_ignored": "the joker was called and its holder kept it",
        "misdeal_not_allowed": "a misdeal is off at this table or the hand is worth too much",
        "out_of_turn": "a bid or a play is made by someone whose turn it is not",
        "player_not_in_hand": "a player resting or killed is named in the hand after being out",
        "revoke": "a player did not follow suit while holding the suit led",
        "tricks_disagree": "the recorded tricks contradict the round's totals or friend",
        "tricks_incomplete": "a recorded hand does not have all 10 tricks, a card from each player",
        "trump_change_too_cheap": "changing the trump needs a higher contract",
        "trump_in_first_trick": "trump is played in trick 1 where this table forbids it",
        "trump_led_in_first_trick": "the boss leads trump in trick 1 while holding another suit",
        "trump_locked": "the auction's win locks the trump and another is named",
        "wrong_dealer": "the dealer named is not the one whose turn it is to deal",
        "wrong_sitter": "the players named as resting are not the ones the rule names",
        "wrong_leader": "a trick is led by someone other than its leader",
    },
)
