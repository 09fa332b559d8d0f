"""Mighty's page helpers: the words for trumps, friends and holders, the auction pad's view, the
words for why the dealer deals, the price of changing the contract, what the tap pickers need
(the deck, the misdeal values, the suits' symbols), and the filters its templates use.

The rules work everything out (``refapp.games.mighty`` and its ``table_view``); this module only
words it in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flask_babel import format_decimal
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ....i18n import fit_words
from ...errors import Refusal
from .. import (
    MAX_BID,
    POINT_CARDS,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    TRUMP_NAMES,
    TRUMPS,
    Auction,
    allowed_contract_changes,
    joker_call_card,
    mighty_card,
    next_bid,
    run_auction,
)
from ..bidding.misdeal import misdeal_limit
from ..cards import card_face, card_suit
from ..house_rules.rules import MightyRules, MightyTable
from ..scoring.score import MULTIPLIER_NAMES, OUTCOME_NAMES, multiplier_steps
from ..seats.dealer import DealerReason
from ..shapes import MightyState
from ..table_view import (
    bid_rows,
    is_zero_sum,
    misdeal_counts,
    misdeals_played,
    next_hand,
    trump_symbol,
)
from ..tricks.trick import TRICKS
from . import blueprint

TRUMP_LABELS = {
    "S": _l("♠ Spades"),
    "H": _l("♥ Hearts"),
    "D": _l("♦ Diamonds"),
    "C": _l("♣ Clubs"),
    "NT": _l("No-trump (노기루다)"),
}
FRIEND_LABELS = {
    "card": _l("A card (카드)"),
    "none": _l("No friend (노 프렌드)"),
    "first_trick": _l("Winner of trick 1"),
}
HOLDER_LABELS = {
    "": _l("Ruling side (여당), the default"),
    "boss": _l("Boss (주공)"),
    "friend": _l("Friend (프렌드)"),
    "opposition": _l("Opposition (야당)"),
    "kitty": _l("Kitty (바닥패), buried"),
}


def bid_words(count: object, trump: str | None) -> str:
    """Return a bid as the table says it: "15 ♥", "16 NT" (노기, szan)."""
    return f"{count} {_('NT') if trump == 'NT' else trump_symbol(trump or '')}".strip()


def trump_words(trump: str) -> str:
    """Return a trump's name for a sentence ("hearts", "no-trump"), translated."""
    return str(_(TRUMP_NAMES[trump])) if trump in TRUMP_NAMES else trump


#: the form's hint on the dealer, by the rule that names them (``seats.dealer.REASON_RULES``)
DEALER_HINTS = {
    "first_hand": _l("The first hand: anyone may deal."),
    "free": _l("Nobody knows who dealt the last hand: anyone may deal."),
    "misdeal": _l("%(dealer)s declared the last misdeal."),
    "all_pass": _l("Everyone passed, so %(dealer)s deals again."),
    "previous_friend": _l("%(dealer)s was the last hand's friend (or boss)."),
    "clockwise": _l("%(dealer)s sits next after the last hand's dealer."),
    "boss_if_won_else_friend": _l(
        "%(dealer)s deals: the last hand's boss after a win or critic, its friend after a loss."
    ),
    "previous_boss": _l("%(dealer)s was the last hand's boss."),
}
#: the session page's words on the next dealer, by the same rule
DEALER_NOTES = {
    "first_hand": _l("anyone (first hand)"),
    "free": _l("anyone"),
    "misdeal": _l("declared the misdeal"),
    "all_pass": _l("everyone passed: same dealer"),
    "previous_friend": _l("the last hand's friend, or its boss"),
    "clockwise": _l("next after the last dealer"),
    "boss_if_won_else_friend": _l("the last hand's boss after a win, its friend after a loss"),
    "previous_boss": _l("the last hand's boss"),
}


def dealer_hint(state: MightyState, rules: Mapping[str, object]) -> str:
    """Say in the form why the expected dealer deals the hand after ``state``."""
    reason = next_hand(MightyRules.of(rules), state).dealer
    # filled here, outside gettext: fit the particle after the name (Korean 서연이, 철이)
    return fit_words(str(DEALER_HINTS[reason.rule]) % {"dealer": reason.dealer})


def dealer_hint_words(
    rules: Mapping[str, object], players: Sequence[str], after: str
) -> dict[str, str]:
    """Return the form's hint on a dealer the rotation names, for each player who may deal, its
    particle fitted to the name (a correction's next round shows it as the corrected round moves
    the dealer); ``after`` follows each hint."""
    hint = str(DEALER_HINTS[MightyRules.of(rules).next_dealer])
    return {name: f"{fit_words(hint % {'dealer': name})} {after}" for name in players}


def dealer_note(reason: DealerReason) -> str:
    """Say on the session page, in a few words, why the next dealer deals."""
    return str(DEALER_NOTES[reason.rule])


def multiplier_name(name: str) -> str:
    """Return a multiplier's name as a round's summary shows it ("run (런)"), translated."""
    return str(_(MULTIPLIER_NAMES[name])) if name in MULTIPLIER_NAMES else name


def outcome_name(outcome: str) -> str:
    """Return a played hand's outcome as a round's summary names it, translated."""
    return str(_(OUTCOME_NAMES[outcome]))


def price_rule(given: Mapping[str, object]) -> str:
    """Say in one sentence what changing the contract after the kitty costs at this table."""
    rules = MightyRules.of(given)
    costs = {
        "to_no_trump": rules.to_no_trump_cost,
        "suit_change": rules.suit_change_cost,
        "from_no_trump": rules.from_no_trump_cost,
        "most": MAX_BID,
    }
    if rules.allow_no_trump_at_20:
        return str(
            _(
                "The boss may keep the winning bid or raise it; changing the trump costs "
                "+%(to_no_trump)s to no-trump, +%(suit_change)s to another suit and "
                "+%(from_no_trump)s from no-trump to a suit (at most %(most)s); a bid of "
                "%(most)s locks the trump, except to no-trump.",
                **costs,
            )
        )
    return str(
        _(
            "The boss may keep the winning bid or raise it; changing the trump costs "
            "+%(to_no_trump)s to no-trump, +%(suit_change)s to another suit and "
            "+%(from_no_trump)s from no-trump to a suit (at most %(most)s); a bid of "
            "%(most)s locks the trump.",
            **costs,
        )
    )


def special_cards(given: Mapping[str, object]) -> dict[str, dict[str, str]]:
    """Return the mighty and the joker-call card under each trump (for the page's script)."""
    rules = MightyRules.of(given)
    return {
        trump: {"mighty": mighty_card(trump, rules), "joker_call": joker_call_card(trump, rules)}
        for trump in TRUMPS
    }


@dataclass(frozen=True)
class AuctionPad:
    """The auction pad as the page shows it: where the bidding log stands and what comes next.

    ``auction`` is None when the log cannot be read (the page offers to take entries back).
    """

    table: MightyTable
    auction: Auction | None

    @classmethod
    def follow(cls, table: MightyTable, log: object, floor: int, dealer: str | None) -> AuctionPad:
        """Run the log through the rules from the chosen dealer (else from its first bidder).

        A log that does not start with the chosen dealer is refused by its field; the pad
        still shows the log as entered.
        """
        starter = dealer if dealer in table.players else None
        for first in dict.fromkeys((starter, None)):
            try:
                return cls(table, run_auction(table, log, min_bid=floor, dealer=first))
            except Refusal:
                continue
        return cls(table, None)

    @property
    def won(self) -> bool:
        """Return True once the auction is over with a winner."""
        auction = self.auction
        return auction is not None and auction.finished and auction.highest is not None

    def next_bid_words(self) -> str:
        """Say what the next bidder may do, e.g. 'at least 14, or pass'."""
        if self.auction is None or self.auction.finished:
            return ""
        kind, values = next_bid(self.auction)
        if kind == "at_least":
            return str(_("at least %(count)s, or pass", count=values["count"]))
        if kind == "no_trump_or_suit":
            return str(
                _(
                    "at least %(count)s no-trump or %(next)s in a suit, or pass",
                    count=values["count"],
                    next=values["next"],
                )
            )
        if kind == "no_trump":
            return str(_("%(count)s no-trump, or pass", count=values["count"]))
        return str(
            _(
                "nothing beats %(count)s %(trump)s, so pass",
                count=values["count"],
                trump=_(values["trump_t"]),
            )
        )

    def log_lines(self) -> list[tuple[str, str]]:
        """Return the auction so far as (player, what they said) pairs."""
        if self.auction is None:
            return []
        return [
            (
                entry["player"],
                _("pass (패스)") if entry.get("pass") else bid_words(entry["bid"], entry["trump"]),
            )
            for entry in self.auction.entries
        ]

    def bid_rows(self) -> list[tuple[int, tuple[str, ...]]]:
        """Return the pad's grid: each count the next bidder may bid, with the trumps allowed."""
        return [] if self.auction is None else bid_rows(self.auction, self.table.rules)

    def won_words(self) -> str:
        """Say who won the auction with what, once it is over ('' before)."""
        if not self.won or self.auction is None:
            return ""
        return str(
            _(
                "%(player)s won the auction with %(count)s %(trump)s",
                player=self.auction.leader,
                count=self.auction.top.count,
                trump=trump_words(self.auction.top.trump),
            )
        )

    def contract_prices(self) -> list[dict[str, object]]:
        """Return, once the auction is won, each trump with the lowest contract it needs."""
        if not self.won or self.auction is None:
            return []
        won = self.auction.top
        prices = allowed_contract_changes(won.count, won.trump, self.table.rules)
        return [
            {
                "trump": trump,
                "label": TRUMP_LABELS[trump],
                "price": prices[trump],
                "keep": trump == won.trump,
                "most": MAX_BID,
            }
            for trump in TRUMPS
        ]


def misdeal_rule(given: Mapping[str, object]) -> str:
    """Say what a hand may be worth at most to be thrown in at this table, translated."""
    rules = MightyRules.of(given)
    at_most = rules.misdeal_at_most
    if at_most is not None:
        return str(_("at most %(most)s", most=format_decimal(at_most)))
    return str(_(misdeal_limit(rules)))


def suit_symbols() -> dict[str, str]:
    """Return the suits' symbols ({"S": "♠", ...}) for the scripts that print cards."""
    return dict(SUIT_SYMBOLS)


def deck() -> dict[str, object]:
    """Return the suits and ranks the card pickers lay out, the point cards there are and the
    tricks of a hand."""
    return {"suits": SUITS, "ranks": RANKS, "points": POINT_CARDS, "tricks": TRICKS}


# -- what the Mighty templates use ------------------------------------------------------------

blueprint.add_app_template_filter(trump_symbol, "trump_symbol")
blueprint.add_app_template_filter(card_face, "card_face")
blueprint.add_app_template_filter(card_suit, "card_suit")
blueprint.add_app_template_global(dealer_hint, "mighty_dealer_hint")
blueprint.add_app_template_global(dealer_hint_words, "mighty_dealer_hint_words")
blueprint.add_app_template_global(dealer_note, "mighty_dealer_note")
blueprint.add_app_template_global(deck, "mighty_deck")
blueprint.add_app_template_global(misdeal_counts, "mighty_misdeal_counts")
blueprint.add_app_template_global(misdeal_rule, "mighty_misdeal_rule")
blueprint.add_app_template_global(misdeals_played, "mighty_misdeals_played")
blueprint.add_app_template_global(multiplier_name, "mighty_multiplier_name")
blueprint.add_app_template_global(multiplier_steps, "mighty_steps")
blueprint.add_app_template_global(outcome_name, "mighty_outcome_name")
blueprint.add_app_template_global(next_hand, "mighty_next_hand")
blueprint.add_app_template_global(is_zero_sum, "mighty_zero_sum")
blueprint.add_app_template_global(price_rule, "mighty_price_rule")
blueprint.add_app_template_global(special_cards, "mighty_special_cards")
blueprint.add_app_template_global(suit_symbols, "mighty_suit_symbols")
blueprint.add_app_template_global(trump_words, "mighty_trump_words")


@blueprint.app_template_global()
def mighty_trumps() -> list[tuple[str, str]]:
    """Return each trump with its label ("♠ Spades"), in the order of the suits."""
    return [(trump, str(TRUMP_LABELS[trump])) for trump in TRUMPS]
