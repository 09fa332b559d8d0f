"""The Mighty hand form: the dealer, a misdeal, the auction pad, the contract, friend and points.

The auction pad works without JavaScript: the bidding log so far travels in a hidden field as
JSON, and the pad's buttons are dry runs that append to (or take back from) the log: a bid
carries its count and trump (``bid_H_14``; ``bid_H`` takes the count from ``bid_count``),
``pass`` and ``unbid``; the rules check it and the page shows whose turn it is.
The one-tap ``misdeal`` and ``all_pass`` buttons store a zero round at once; ``misdeal_shown``
stores a throw-in the table saw, without its cards (``"shown": true``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import cast

from flask import has_request_context, request
from flask_babel import format_decimal
from flask_babel import gettext as _
from wtforms import BooleanField, Field, HiddenField, RadioField, SelectField, StringField

from .... import services
from ....services import SessionView
from ....web.forms.base import At, RoundBody, RoundForm
from ....web.forms.common import options
from .. import GAME, MAX_BID, TRUMPS
from ..bidding.misdeal import MISDEAL_BOUNDS, MISDEAL_COUNTINGS
from ..house_rules.rules import MightyTable
from ..seats.deal import deal_for
from ..shapes import MightyInput, MightyState
from ..table_view import bid_counts, next_hand
from .pad import is_pad_action, log_text, number, pad_log, passes_to_end, read_log
from .seats import Seats, bidders, greyed, kill_part, seat_data, seat_fields, seats_of, sitters_part
from .words import FRIEND_LABELS, HOLDER_LABELS, TRUMP_LABELS, AuctionPad

#: cards as typed: separated by spaces, commas or semicolons
CARD_SEPARATORS = re.compile(r"[\s,;]+")


#: a weak hand to show how cards are typed, as long as any dealt hand: every card in the deck at
#: four seats too, worth -1 (the joker) by every counting; the first ``hand_size`` are shown
MISDEAL_EXAMPLE = ("S5", "S6", "H7", "H8", "D9", "D6", "C7", "JK", "C8", "H5")


def card_list(text: object) -> list[str] | None:
    """Return the cards typed in a field, or None when none were."""
    typed = text if isinstance(text, str) else ""
    return [card for card in CARD_SEPARATORS.split(typed) if card] or None


def cards_text(cards: object) -> str:
    """Write a stored list of cards back as the field shows them: "S5 S6 JK"."""
    return " ".join(map(str, cards)) if isinstance(cards, list) else str(cards)


class MightyHandForm(RoundForm):
    """One Mighty hand as the table records it: a played hand, a misdeal or an all-pass."""

    template = "mighty/form.html"
    #: record, and the one-tap zero rounds (every other action is a dry run)
    storing_actions = ("record", "misdeal", "misdeal_shown", "all_pass")
    paths = {
        "dealer": "dealer",
        "bidding": At("bidding", read=lambda text: read_log(text) or None, show=log_text),
        "boss": "contract.boss",
        "contract_bid": At("contract.bid", read=number),
        "contract_trump": "contract.trump",
        "friend_card": "friend.card",
        "friend_player": "friend.player",
        "opposition_points": At("opposition_points", read=number),
        "mighty_holder": "mighty_holder",
        "joker_holder": "joker_holder",
        "misdeal_player": "misdeal.player",
        "misdeal_hand": At("misdeal.hand", read=card_list, show=cards_text),
        "misdeal_shown": At("misdeal.shown", read=lambda on: True if on else None, show=bool),
        "tricks": At("tricks", read=lambda text: read_log(text) or None, show=log_text),
    }
    refusals = {
        "bidding.*.player": "bidder",  # a pad entry refused: by the pad's fields
        "bidding.*": "bid_count",
        "all_pass": "bidding",
        "contract": "boss",
        "friend.first_trick": "friend_player",
        "friend": "friend_kind",
        "misdeal": "misdeal_hand",
        "tricks": "tricks",
    }

    table: MightyTable = MightyTable(())
    #: the lowest bid of this hand's auction, and the state before the hand
    floor: int = 0
    before: Mapping[str, object] = {}
    friend_types: tuple[str, ...] = ()
    #: what the seat count asks of the hand: the kills, who rests
    seats: Seats = Seats()
    #: how the stored round being corrected was played: "hand", "misdeal" or "all_pass"
    stored_kind: str | None = None
    _pad: AuctionPad | None = None

    @classmethod
    def build(
        cls,
        view: SessionView,
        entered: Mapping[str, object] | None = None,
        correcting: int | None = None,
        **kwargs: object,
    ) -> MightyHandForm:
        """Build the form for this table, prefilled from a stored round's input if given."""
        table = GAME.with_house_rules(view.table)
        # the state a Mighty session stores is the one Mighty.start and Mighty.play wrote
        before = cast(
            MightyState, services.state_before(view.session, correcting or view.count + 1)
        )
        public = GAME.public_state(table, before, {})
        form_class = cls.for_table(table, before, public)
        first = next_hand(table.rules, before).dealer.dealer or ""
        playing, starter = bidders(table, form_class.seats, {"dealer": first})
        data: dict[str, object] = {
            "dealer": first,
            "bidder": starter or playing.players[0],  # a resting dealer does not bid
            "bid_count": str(form_class.floor),
            "friend_kind": form_class.friend_types[0],
        }
        if entered is not None:
            data.update(form_class.data_from(entered))
        form = form_class(data=data, **kwargs)
        if entered is not None:
            form.stored_kind = stored_kind(entered)
            form.follow_auction()
        return form

    @classmethod
    def for_table(
        cls, table: MightyTable, before: MightyState, public: Mapping[str, object]
    ) -> type[MightyHandForm]:
        """Return the form's class for this table and the state before the hand (``public``:
        that state as the table sees it, which says who rests and how many kills it needs)."""
        types = tuple(table.rules.friend_types)
        seats = seats_of(table.players, table.rules, public)
        form_class = cls.subclass(
            {**hand_fields(table, types, seats.resting), **seat_fields(table.players, seats)},
            table=table,
            floor=next_hand(table.rules, before).floor,
            before=before,
            friend_types=types,
            seats=seats,
            refusals={**seats.refusals, **cls.refusals},
        )
        return cast(type[MightyHandForm], form_class)  # subclass() makes a subclass of cls

    @classmethod
    def data_from(cls, stored: Mapping[str, object]) -> dict[str, object]:
        """Return form data that shows a stored round; the friend's kind is the form it took."""
        data = {"dealer": "", **super().data_from(stored)}
        # a stored round's input is one the rules took: a Mighty hand's
        friend = cast(MightyInput, stored).get("friend") or {}
        if friend.get("none"):
            data["friend_kind"] = "none"
        elif friend.get("first_trick"):
            data["friend_kind"] = "first_trick"
            data["friend_player"] = friend["first_trick"]
        elif friend:
            data["friend_kind"] = "card"
        data.update(seat_data(stored, cls.seats))
        return data

    # -- what the buttons mean ----------------------------------------------------------------

    def action(self) -> str:
        """Return the button the table pressed ("record" when none is named)."""
        return request.form.get("action", "record") if has_request_context() else "record"

    def is_pad_action(self) -> bool:
        """Return True when the auction pad was used (a bid, a pass or a take-back)."""
        return is_pad_action(self.action())

    def compose(self) -> RoundBody:
        """Return the round input for the pressed button.

        ``misdeal`` sends only the misdeal (``misdeal_shown`` says the table saw the hand: its
        cards are checked only when some were tapped), ``all_pass`` only the everyone-passed
        flag (with the log, if one was entered), a pad button only the changed bidding log;
        ``record`` and ``check`` send every part that was filled in.
        """
        action = self.action()
        body = self.read("dealer")
        sitters = sitters_part(self.data, self.seats)
        if sitters is not None:
            body["sits_out"] = sitters
        log = self.log()
        if action in ("misdeal", "misdeal_shown"):
            body.update(self.read("misdeal", blanks=True))
            misdeal = body.get("misdeal")
            if action == "misdeal_shown" and isinstance(misdeal, dict):
                misdeal["shown"] = True
        elif action == "all_pass":
            if log:
                body["bidding"] = log
            body["all_pass"] = True
        elif self.is_pad_action():
            changed = self.pad_log(action, log)
            if changed:
                body["bidding"] = changed
        else:
            body.update(self.hand_parts(log))
        return body

    def log(self) -> object:
        """Return the bidding log in the hidden field ([] when empty, the text if unreadable)."""
        return read_log(self.bidding.data)

    def pad_log(self, action: str, log: object) -> object:
        """Return the log the pad's button makes: an entry added, the passes of everyone left
        after the highest bid (``pass_rest``), or the last entry taken back."""
        if action == "pass_rest":
            playing, first = bidders(self.table, self.seats, self.data)
            return passes_to_end(playing, log, self.floor, first)
        return pad_log(action, log, self.bidder.data or None, self.bid_count.data)

    def hand_parts(self, log: object) -> RoundBody:
        """Return the parts of a played hand that were filled in (a dry run may send some)."""
        parts: RoundBody = {}
        if log:
            parts["bidding"] = log
        if self.filled("contract"):
            parts.update(self.read("contract", blanks=True))
        kill = kill_part(self.data, self.seats.kills)
        if kill is not None:
            parts["kill"] = kill
        friend = self.friend_part()
        if friend is not None:
            parts["friend"] = friend
        parts.update(self.read("opposition_points", "mighty_holder", "joker_holder", "tricks"))
        if not parts and ((self.misdeal_hand.data or "").strip() or self.misdeal_shown.data):
            # nothing but a misdeal was entered: record that (e.g. correcting a stored misdeal)
            parts.update(self.read("misdeal", blanks=True))
        return parts

    def friend_part(self) -> dict[str, object] | None:
        """Return the friend in the form its kind takes, or None when nothing was entered."""
        kind = self.friend_kind.data or self.friend_types[0]
        player = self.friend_player.data or None
        if kind == "none":
            return {"none": True}
        if kind == "first_trick":
            return {"first_trick": player} if player else None
        card = (self.friend_card.data or "").strip()
        if kind != "card":
            return {kind: card or player or True}  # an unknown way: the rules refuse it
        friend: dict[str, object] = {}
        if card:
            friend["card"] = card
        if player:
            friend["player"] = player
        return friend or None

    # -- after a dry run, and what the page shows ---------------------------------------------

    def show_check(self, checked: Mapping[str, object]) -> None:
        """Take a successful dry run: keep the new bidding log, or show the check's result."""
        result = part(checked, "result")
        if self.is_pad_action():
            log = part(checked, "input").get("bidding") or []
            self.bidding.data = json.dumps(log, ensure_ascii=False) if log else ""
            self._pad = None
            self.follow_auction(prefill_contract=self.action() != "unbid")
            return
        if result.get("complete") is False:
            # a partial check scores nothing; without deltas the page says "nothing wrong so far"
            result = {key: value for key, value in result.items() if key != "deltas"}
            checked = {**checked, "result": result}
        self.checked = checked

    @property
    def pad(self) -> AuctionPad:
        """Return the auction pad: where the bidding log in the hidden field stands."""
        if self._pad is None:
            playing, first = bidders(self.table, self.seats, self.data)
            self._pad = AuctionPad.follow(playing, self.log(), self.floor, first)
        return self._pad

    def follow_auction(self, prefill_contract: bool = False) -> None:
        """Point the pad at whose turn it is; once the auction is won, offer its contract."""
        auction = self.pad.auction
        if auction is None:
            return
        if not auction.finished:
            if auction.next_bidder:
                self.bidder.data = auction.next_bidder
            if auction.lowest_next:
                self.bid_count.data = str(auction.lowest_next[0])
        elif auction.highest is not None and (prefill_contract or not self.boss.data):
            self.boss.data = auction.leader
            self.contract_bid.data = str(auction.highest.count)
            self.contract_trump.data = auction.highest.trump

    def auction_just_won(self) -> bool:
        """Return True when the pad's button just ended the auction with a winner: the page
        then shows the contract (the auction needs nothing more)."""
        return self.is_pad_action() and self.action() != "unbid" and self.pad.won

    def misdeal_open(self) -> bool:
        """Return True when the misdeal part should show open (filled in, or refused)."""
        fields = (self.misdeal_player, self.misdeal_hand, self.misdeal_shown)
        return any(field.errors or field.data for field in fields)

    def misdeal_words(self) -> dict[str, str]:
        """Return the misdeal's limit and its card values, translated, for the form's hint: the
        table's own limit ("at most 2,5") or the counting's ("0 or less")."""
        rules = self.table.rules
        at_most = rules.misdeal_at_most
        mode = rules.misdeal
        limit = (
            _("at most %(most)s", most=format_decimal(at_most))
            if at_most is not None
            else _(MISDEAL_BOUNDS[mode])
        )
        return {"limit": limit, "counting": _(MISDEAL_COUNTINGS[mode])}

    def misdeal_cards_open(self) -> bool:
        """Return True when the misdeal's cards should show (some entered, or refused)."""
        return bool(self.misdeal_hand.errors or (self.misdeal_hand.data or "").strip())


def part(checked: Mapping[str, object], key: str) -> Mapping[str, object]:
    """Return one part of a dry run's answer (its input, its result), empty when absent."""
    found = checked.get(key)
    return found if isinstance(found, Mapping) else {}


def stored_kind(entered: Mapping[str, object]) -> str:
    """Return how a stored round was played: "misdeal", "all_pass" or "hand"."""
    if entered.get("misdeal"):
        return "misdeal"
    if entered.get("all_pass"):
        return "all_pass"
    return "hand"


def hand_fields(
    table: MightyTable, types: tuple[str, ...], resting: tuple[str, ...] = ()
) -> dict[str, Field]:
    """Return the hand's fields for this table: its players, counts and ways to name a friend
    (the players resting this hand greyed where a player in the hand is named)."""
    counts = bid_counts(table.rules)
    size = deal_for(table.rules, table.size).hand_size
    anyone = options(["", *table.players], ["-", *table.players])
    active = greyed(anyone, resting)
    holders = options(HOLDER_LABELS, HOLDER_LABELS.values())
    loose = {"validate_choice": False}  # the rules judge every value, with better words
    typed = {"autocomplete": "off", "spellcheck": "false", "autocapitalize": "characters"}
    return {
        "dealer": SelectField(_("Dealer (딜러)"), choices=anyone, **loose),
        "bidding": HiddenField(),
        "tricks": HiddenField(),  # the card pad's tricks as JSON, when the hand was played on it
        "bidder": SelectField(
            _("Bidder"), choices=greyed(options(table.players), resting), **loose
        ),
        "bid_count": SelectField(_("Count"), choices=options(counts), **loose),
        "boss": SelectField(_("Boss (주공)"), choices=active, **loose),
        "contract_bid": SelectField(
            _("Count"), choices=options(["", *counts], ["-", *counts]), **loose
        ),
        "contract_trump": RadioField(
            _("Trump (기루다)"),
            choices=options(TRUMPS, [TRUMP_LABELS[t] for t in TRUMPS]),
            **loose,
        ),
        "friend_kind": RadioField(
            _("How the friend is named"),
            choices=options(types, [FRIEND_LABELS[t] for t in types]),
            **loose,
        ),
        "friend_card": StringField(
            _("Friend card"),
            render_kw={**typed, "placeholder": _("e.g. %(cards)s", cards="JK, HA, SK")},
        ),
        "friend_player": SelectField(_("Friend (프렌드)"), choices=active, **loose),
        "opposition_points": StringField(
            _("Opposition's point cards (야당 점수카드)"),
            render_kw={
                "inputmode": "numeric",
                "autocomplete": "off",
                "placeholder": _("%(low)s to %(high)s", low=0, high=MAX_BID),
            },
        ),
        "mighty_holder": SelectField(_("Mighty (마이티) ended with"), choices=holders, **loose),
        "joker_holder": SelectField(_("Joker (조커) ended with"), choices=holders, **loose),
        "misdeal_player": SelectField(_("Declared by"), choices=active, **loose),
        "misdeal_shown": BooleanField(_("The table saw the hand: its cards are not entered")),
        "misdeal_hand": StringField(
            _("Their %(size)s cards", size=size),
            render_kw={
                **typed,
                "placeholder": _("e.g. %(cards)s", cards=" ".join(MISDEAL_EXAMPLE[:size])),
            },
        ),
    }
