"""The Great Dalmuti's named sets of house rules a session may start from, the default first."""

from __future__ import annotations

from ..errors import N_
from ..options import Preset

#: the presets a session may start from, the default first
PRESETS = (
    Preset(
        "official",
        N_("Official rules"),
        N_("The publisher's rules, as the Hungarian rulebook gives them: every default."),
    ),
    Preset(
        "korean_wiki",
        N_("Korean wiki customs"),
        N_(
            "The Korean article's customs: the extra cards go to the Greater Peasant first, the "
            "Dalmutis give back after picking up the tribute, a peasant's revolution is always "
            "a greater one."
        ),
        {
            "extra_cards_to": "greater_peasant_first",
            "tax_timing": "sequential",
            "gp_may_choose_plain": False,
        },
    ),
)
