"""Explanation words of earlier versions, in rounds stored before their words changed."""

from ..errors import N_

#: kept marked (and translated) because rounds stored with them show them again
EARLIER = (
    N_("players below"),
    N_("players below + 1"),
    N_("the first hand, and tax_first_hand is off"),
    N_("the house rule tax is off"),
    N_("one for each player who finished below"),
    N_("one for each player who finished below, plus one"),
    N_("{name} went out {place_t} of {count}: {points} point ({note_t})."),
    N_("{name} went out {place_t} of {count}: {points} points ({note_t})."),
    N_("{name} finished last, {place_t} of {count}: {points} point ({note_t})."),
    N_("{name} finished last, {place_t} of {count}: {points} points ({note_t})."),
    N_("Tax: {giver} ({role_t}) gave {cards} to {receiver}."),
)
