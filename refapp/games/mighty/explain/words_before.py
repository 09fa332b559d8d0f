"""Explanation sentences of earlier versions, in rounds stored before their words changed."""

from ...errors import N_

#: kept marked (and translated) because rounds stored with them show them again
EARLIER = (
    N_("0 or less (point cards 1, SA 0, joker -1)"),
    N_("less than 0.5 (A K Q J 1, SA 0, tens 0.5, joker -1)"),
    N_("less than 1 (A K Q J 1, SA 0, tens 0.5, joker -1)"),
    N_(
        "Back-run penalty (seed rule): boss -10 x {bid} = {penalty}, friend -{bid}; the "
        "opposition +{m} each as usual. This hand is not zero-sum."
    ),
    N_(
        "Back-run penalty (seed rule): boss -10 x {bid} = {penalty}; the opposition +{m} "
        "each as usual. This hand is not zero-sum."
    ),
    N_("Friend: whoever holds {card}; it has not been played yet."),
    N_("Friend: {card}, in the boss's own hand or the kitty (a self friend)."),
    N_("Friend: {friend}, who holds {card}."),
    N_("Nobody played {card}: it is in the kitty, a self friend."),
    N_("Trick {number}: {winner} takes it with {card} ({reason_t}); no point cards."),
    N_("Trick {number}: {winner} takes it with {card} ({reason_t}); point cards: {points}."),
    N_(
        "{boss} is the boss with {count} {trump_t}; friend: {card}, in the boss's own "
        "hand or the kitty (a self friend)."
    ),
    N_("{boss} is the boss with {count} {trump_t}; friend: {friend}, who holds {card}."),
    N_("{card} takes trick {number} ({reason_t}); no point cards."),
    N_("{card} takes trick {number} ({reason_t}); point cards: {points}."),
    N_("{card} was played by the boss {player} in trick {trick}: a self friend."),
    N_("{card} was played by {player} in trick {trick}, so {player} is the friend."),
    N_(
        "Back-run penalty (the Korean wiki's rule): boss -10 x {bid} = {penalty}, friend "
        "-{bid}; the opposition +{m} each as usual. This hand is not zero-sum."
    ),
    N_(
        "Back-run penalty (the Korean wiki's rule): boss -10 x {bid} = {penalty}; the "
        "opposition +{m} each as usual. This hand is not zero-sum."
    ),
    N_("Friend: {card_t}, in the boss's own hand or the kitty (a self friend)."),
    N_("Nobody played the joker: it is in the kitty."),
    N_("Nobody played the mighty {card}: it is in the kitty."),
    N_("The mighty {card} was played by {player} ({holder_t}) in trick {trick}."),
    N_("x2 back-run"),
    N_("x2 declared no friend"),
    N_("x2 declared run"),
    N_("x2 no joker"),
    N_("x2 no mighty"),
    N_("x2 no-trump"),
    N_("x2 run"),
    N_(
        "{boss} is the boss with {count} {trump_t}; friend: {card_t}, in the boss's own "
        "hand or the kitty (a self friend)."
    ),
    N_(
        "Back-run penalty (the Korean wiki's rule): boss -10 × {bid} = {penalty}, friend -{bid}; "
        "the opposition +{m} each as usual. This hand is not zero-sum."
    ),
    N_(
        "Back-run penalty (the Korean wiki's rule): boss -10 × {bid} = {penalty}; the opposition "
        "+{m} each as usual. This hand is not zero-sum."
    ),
    N_("The friend card {card_t} is {special_t} itself."),
)
