"""Explanation sentences of earlier versions, in rounds stored before their words changed."""

from ..errors import N_

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
)
