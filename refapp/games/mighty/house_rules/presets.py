"""Mighty's presets: named sets of house rules a session may start from."""

from __future__ import annotations

from ...errors import N_
from ...game import Preset

#: the presets a session may start from, the default first
PRESETS = (
    Preset(
        "korean_wiki",
        N_("Korean wiki"),
        N_("Every rule as the Korean wiki article plays it: the default of each house rule."),
    ),
    Preset(
        "online",
        N_("Online programs"),
        N_(
            "The rules most Korean online programs use: a win counts from the lowest bid, a "
            "critic wins, lost no-trump and no-friend contracts double, the deal goes round."
        ),
        {
            "win_formula": "pagat",
            "critic": "win",
            "lose_formula": "shortfall",
            "declared_run_double": False,
            "double_no_mighty": False,
            "double_no_joker": False,
            "double_no_trump": True,
            "double_no_friend": True,
            "loss_multipliers": ["no_trump", "no_friend"],
            "back_run": "double",
            "back_run_when": "ruling_under_10",
            "friend_card_in_own_hand": "forbidden",
            "next_dealer": "clockwise",
        },
    ),
    Preset(
        "network_kill",
        N_("Mighty Network 6마 and 7마"),
        N_(
            "For six or seven players, as Mighty Network plays them: the boss kills one player "
            "(two at seven), bids start at 14, the previous boss deals."
        ),
        {
            "six_player_rule": "kill",
            "seven_player_rule": "kill",
            "min_bid": 14,
            "next_dealer": "previous_boss",
        },
        seats=(6, 7),
    ),
)
