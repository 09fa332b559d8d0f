"""Mighty's house rules: every option, its default (the seed's rule) and its alternatives.

The helpers' descriptions are translation keys too: the Makefile's KEYWORDS find them as
``_choice:3``, ``_flag:3`` and ``_cost:3``, so keep these names. The words a player reads (each
option's label and its choices' labels) are marked N_ where they are written.
"""

from __future__ import annotations

from ...errors import N_
from ...options import RuleOption
from ..bidding.auction import MAX_BID
from ..bidding.friend import FRIEND_FORMS
from ..bidding.misdeal import MISDEAL_AT_MOST
from ..scoring.score import LOSS_MULTIPLIERS
from ..seats.dealer import ROTATION_WORDS, ROTATIONS
from .seats import SEAT_OPTIONS


def _choice(
    key: str,
    default: str,
    description: str,
    *choices: str,
    label: str,
    group: str,
    choice_labels: tuple[str, ...],
) -> RuleOption:
    """Return an option with one of several values, the default first (labels in that order)."""
    return RuleOption(
        key,
        "choice",
        default,
        description,
        choices=(default, *choices),
        label=label,
        group=group,
        choice_labels=choice_labels,
    )


def _flag(key: str, default: bool, description: str, *, label: str, group: str) -> RuleOption:
    """Return an option that is on or off."""
    return RuleOption(key, "bool", default, description, label=label, group=group)


def _cost(key: str, default: int, description: str, *, label: str) -> RuleOption:
    """Return a trump change's price in point cards: at most 9, so that a bid of 11 can pay it."""
    return RuleOption(
        key,
        "int",
        default,
        description,
        minimum=0,
        maximum=MAX_BID - 11,
        label=label,
        group="contract",
    )


#: the options in the order a new session's form lists them
OPTIONS = (
    RuleOption(
        "min_bid",
        "int",
        13,
        "The fewest point cards a player may bid in the auction.",
        minimum=11,
        maximum=MAX_BID,
        label=N_("Lowest bid"),
        group="auction",
    ),
    _choice(
        "alt_mighty",
        "DA",
        "The card that is the mighty instead of the ace of spades when spades are trump.",
        "CA",
        "HA",
        label=N_("Mighty when spades are trump"),
        group="play",
        choice_labels=(N_("Ace of diamonds"), N_("Ace of clubs"), N_("Ace of hearts")),
    ),
    _choice(
        "alt_joker_call",
        "S3",
        "The card that calls the joker instead of the three of clubs when clubs are trump.",
        "H3",
        label=N_("Joker call (조커콜) when clubs are trump"),
        group="play",
        choice_labels=(N_("Three of spades"), N_("Three of hearts")),
    ),
    _choice(
        "misdeal",
        "point_cards",
        "How weak a hand must be for its player to call a misdeal before the auction: counting "
        "point cards, worth 0 or less; counting tens as half, below 1 or below 0.5; or never.",
        "half_ten",
        "half_ten_strict",
        "off",
        label=N_("Throw-in (파토)"),
        group="misdeal",
        choice_labels=(
            N_("Point cards, 0 or less"),
            N_("Tens count half, below 1"),
            N_("Tens count half, below 0.5"),
            N_("No misdeals"),
        ),
    ),
    MISDEAL_AT_MOST,
    _flag(
        "no_trump_beats_same_number",
        True,
        "A no-trump bid beats a suit bid of the same count.",
        label=N_("No-trump beats the same number"),
        group="auction",
    ),
    _flag(
        "pass_is_final",
        True,
        "A player who passed may not bid again in that auction.",
        label=N_("A pass is final"),
        group="auction",
    ),
    _choice(
        "all_pass",
        "redeal",
        "What happens when every player passes and nobody bids: the hand is dealt again as a round "
        "of zero points, or the kitty is turned up and the auction starts again from the lowest "
        "bid + 2.",
        "open_kitty",
        label=N_("When everyone passes"),
        group="auction",
        choice_labels=(N_("Deal again (0 points)"), N_("Turn up the kitty, bid again")),
    ),
    _flag(
        "bid20_ends_auction",
        False,
        "A bid of 20 ends the auction at once.",
        label=N_("A bid of 20 ends the auction"),
        group="auction",
    ),
    _cost(
        "to_no_trump_cost",
        1,
        "How many point cards the boss must add to the bid to change a suit to no-trump.",
        label=N_("Raise to change a suit to no-trump"),
    ),
    _cost(
        "suit_change_cost",
        2,
        "How many point cards the boss must add to the bid to change the trump to another suit.",
        label=N_("Raise to change to another suit"),
    ),
    _cost(
        "from_no_trump_cost",
        2,
        "How many point cards the boss must add to the bid to change no-trump to a suit.",
        label=N_("Raise to change no-trump to a suit"),
    ),
    _flag(
        "allow_no_trump_at_20",
        False,
        "A boss who won the auction with a suit bid of 20 may still change it to no-trump 20.",
        label=N_("A suit 20 may become no-trump 20"),
        group="contract",
    ),
    RuleOption(
        "friend_types",
        "choices",
        ["card", "none"],
        "The ways the boss may choose from to name a friend.",
        choices=FRIEND_FORMS,
        label=N_("Ways to name the friend"),
        group="friend",
        choice_labels=(
            N_("Call a card (its holder is the friend)"),
            N_("Declare no friend (노 프렌드)"),
            N_("The winner of the first trick (초구 프렌드)"),
        ),
    ),
    _choice(
        "friend_card_in_own_hand",
        "self_friend",
        "Whether the boss may call a card that they hold or discarded to the kitty: if allowed, "
        "the boss is their own friend (셀프 프렌드); if forbidden, there is no fake friend.",
        "forbidden",
        label=N_("Calling a card the boss holds"),
        group="friend",
        choice_labels=(N_("Allowed (셀프 프렌드)"), N_("Forbidden (no fake friend)")),
    ),
    _choice(
        "trick1_trump",
        "no_lead",
        "Who may play a trump in the first trick: the boss may not lead trump while the others may "
        "trump when void in the suit led, or nobody may play trump.",
        "none",
        label=N_("Trump in the first trick (초구)"),
        group="play",
        choice_labels=(N_("The boss may not lead it"), N_("Nobody may play trump")),
    ),
    _choice(
        "win_formula",
        "bid_minus_10",
        "What a win is worth, before doubling, when the ruling side takes more point cards "
        "than the bid: the bid minus 10, the point cards taken minus 10, or 2 × (bid - lowest "
        "bid) + the point cards over the bid.",
        "taken_minus_10",
        "pagat",
        label=N_("Points for a win"),
        group="scoring",
        choice_labels=(
            N_("The bid minus 10"),
            N_("The point cards taken minus 10"),
            N_("2 × (bid - lowest bid) + extra"),
        ),
    ),
    _choice(
        "critic",
        "ruling_plus_one",
        "What it is worth when the ruling side takes exactly as many point cards as it bid.",
        "draw",
        "win",
        label=N_("Critic (크리틱)"),
        group="scoring",
        choice_labels=(
            N_("The ruling side wins 1 point"),
            N_("A draw (nobody scores)"),
            N_("An ordinary win"),
        ),
    ),
    _choice(
        "lose_formula",
        "twice_shortfall",
        "What the opposition wins when the ruling side takes fewer point cards than it bid.",
        "shortfall",
        label=N_("Points for a loss"),
        group="scoring",
        choice_labels=(N_("Twice the point cards missing"), N_("The point cards missing")),
    ),
    _choice(
        "run",
        "double",
        "What a win is worth when the ruling side takes all 20 point cards.",
        "fixed_20",
        "none",
        label=N_("Run (런), all 20 point cards"),
        group="scoring",
        choice_labels=(N_("The win doubles"), N_("The win is worth 20"), N_("No bonus")),
    ),
    _flag(
        "declared_run_double",
        True,
        "A bid of 20 that takes all 20 point cards doubles once more.",
        label=N_("A declared run doubles again"),
        group="scoring",
    ),
    _flag(
        "double_no_trump",
        True,
        "A no-trump win doubles.",
        label=N_("No-trump win doubles"),
        group="scoring",
    ),
    _flag(
        "double_no_mighty",
        True,
        "A win without the mighty doubles.",
        label=N_("Win without the mighty doubles"),
        group="scoring",
    ),
    _flag(
        "double_no_joker",
        True,
        "A win without the joker doubles.",
        label=N_("Win without the joker doubles"),
        group="scoring",
    ),
    _flag(
        "double_no_friend",
        True,
        "A win after the boss declared no friend doubles; a hidden self friend does not.",
        label=N_("Declared no-friend win doubles"),
        group="scoring",
    ),
    _choice(
        "no_card_means",
        "not_held_by_ruling",
        "When a win counts as won without the mighty or without the joker, for doubling: when the "
        "ruling side did not hold the card, or only when it was buried in the kitty.",
        "buried_only",
        label=N_("What counts as a win without the mighty or joker"),
        group="scoring",
        choice_labels=(
            N_("The ruling side did not hold it"),
            N_("It was buried in the kitty"),
        ),
    ),
    RuleOption(
        "loss_multipliers",
        "choices",
        [],
        "Which lost contracts double what the opposition wins, each once and together.",
        choices=LOSS_MULTIPLIERS,
        label=N_("Lost contracts that double"),
        group="scoring",
        choice_labels=(
            N_("A lost no-trump contract"),
            N_("A lost contract after declaring no friend"),
        ),
    ),
    _choice(
        "back_run_when",
        "opposition_reaches_bid",
        "How badly the ruling side must lose for the hand to count as a back-run: the opposition "
        "takes as many point cards as the bid, or more; or the ruling side takes 9 point cards or "
        "fewer (or 10 or fewer).",
        "ruling_under_10",
        "ruling_10_or_less",
        label=N_("When a loss is a back-run (백런)"),
        group="scoring",
        choice_labels=(
            N_("The opposition reaches the bid"),
            N_("Ruling side takes 9 or fewer"),
            N_("Ruling side takes 10 or fewer"),
        ),
    ),
    _choice(
        "back_run",
        "flag",
        "What happens when the opposition takes as many point cards as the bid, or more: it is "
        "only noted and scored as an ordinary loss, the loss doubles, or a penalty (the boss -10 × "
        "bid, the friend -bid; not zero-sum).",
        "double",
        "seed_penalty",
        label=N_("Back-run (백런)"),
        group="scoring",
        choice_labels=(
            N_("Only noted"),
            N_("The loss doubles"),
            N_("Penalty (not zero-sum)"),
        ),
    ),
    _choice(
        "next_dealer",
        ROTATIONS[0],
        "Who deals after a played hand: the previous hand's friend (its boss when there was "
        "none), the next player after the previous dealer, the boss after a win or critic and the "
        "friend after a loss, or the previous hand's boss. After a misdeal its declarer deals, "
        "and after everyone passed the same dealer deals again.",
        *ROTATIONS[1:],
        label=N_("Who deals the next hand"),
        group="seats",
        choice_labels=tuple(ROTATION_WORDS[rotation].label for rotation in ROTATIONS),
    ),
    *SEAT_OPTIONS,
)
