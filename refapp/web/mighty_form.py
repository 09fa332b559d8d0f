"""The Mighty hand form: the dealer, a misdeal, the auction pad, the contract, friend and points.

The auction pad works without JavaScript: the bidding log so far travels in a hidden field as
JSON, and the pad's buttons (``bid_S`` .. ``bid_NT``, ``pass``, ``unbid``) are dry runs that
append to (or take back from) the log; the rules check it and the page shows whose turn it is.
The one-tap ``misdeal`` and ``all_pass`` buttons store a zero round at once.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import has_request_context, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import Field, HiddenField, RadioField, SelectField, StringField

from .. import services
from ..games.base import RuleViolation, Table
from ..games.mighty import (
    MAX_BID,
    TRUMP_NAMES,
    TRUMPS,
    Auction,
    allowed_contract_changes,
    joker_call_card,
    mighty_card,
    next_bid,
    run_auction,
)
from ..services import SessionView
from .forms import add_error, options
from .round_form import RoundForm as BaseRoundForm

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}
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
#: the pad's buttons: dry runs that change the bidding log
PAD_ACTIONS = ("pass", "unbid", *(f"bid_{trump}" for trump in TRUMPS))
#: the buttons that store the round (every other action is a dry run)
STORING_ACTIONS = ("record", "misdeal", "all_pass")
WHOLE = re.compile(r"\s*[0-9]{1,9}\s*")


def number(text: Any) -> Any:
    """Return a typed whole number as an int, blank as None, anything else as typed (refused)."""
    if text is None or not str(text).strip():
        return None
    return int(text) if WHOLE.fullmatch(str(text)) else str(text).strip()


def bid_words(count: Any, trump: str | None) -> str:
    """Return a bid as the table says it: "15 ♥", "16 NT"."""
    return f"{count} {SUIT_SYMBOLS.get(trump or '', trump or '')}".strip()


def state_before(view: SessionView) -> dict[str, Any]:
    """Return the stored game state before the round this form records or corrects.

    On the correction page (``.../rounds/<number>/edit``) that is the state before round n,
    otherwise the state after the last round.
    """
    count = view.count
    number_ = (request.view_args or {}).get("number") if has_request_context() else None
    if isinstance(number_, int) and 1 <= number_ <= count:
        return services.state_before(view.session, number_)
    return services.state_before(view.session, count + 1)


class MightyHandForm(BaseRoundForm):
    """One Mighty hand as the table records it: a played hand, a misdeal or an all-pass."""

    table: Table = Table(())
    min_bid = 13
    expected_dealer: str | None = None
    last_outcome: str | None = None
    friend_types: tuple[str, ...] = ()
    #: how the stored round being corrected was played: "hand", "misdeal" or "all_pass"
    stored_kind: str | None = None
    #: where the auction in the hidden log stands, once worked out: (Auction or None,)
    _auction_cache: tuple[Auction | None] | None = None

    @classmethod
    def build(cls, view: SessionView, entered: dict[str, Any] | None = None, **kwargs: Any):
        """Build the form for this table, prefilled from a stored round's input if given."""
        players = view.table.players
        rules = view.table.rules
        before = state_before(view)
        floor = before.get("min_bid", rules.get("min_bid", 13))
        counts = list(range(rules.get("min_bid", 13), MAX_BID + 1))
        types = tuple(rules.get("friend_types") or ("card", "none"))
        anyone = options(["", *players], ["-", *players])
        holders = options(HOLDER_LABELS, HOLDER_LABELS.values())
        loose = {"validate_choice": False}  # the rules judge every value, with better words
        fields: dict[str, Field] = {
            "dealer": SelectField(_("Dealer (딜러)"), choices=anyone, **loose),
            "bidding": HiddenField(),
            "bidder": SelectField(_("Bidder"), choices=options(players), **loose),
            "bid_count": SelectField(_("Count"), choices=options(counts), **loose),
            "boss": SelectField(_("Boss (주공)"), choices=anyone, **loose),
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
                render_kw={
                    "autocapitalize": "characters",
                    "autocomplete": "off",
                    "spellcheck": "false",
                    "placeholder": _("e.g. %(cards)s", cards="JK, HA, SK"),
                },
            ),
            "friend_player": SelectField(_("Friend (프렌드)"), choices=anyone, **loose),
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
            "misdeal_player": SelectField(_("Declared by"), choices=anyone, **loose),
            "misdeal_hand": StringField(
                _("Their 10 cards"),
                render_kw={
                    "autocapitalize": "characters",
                    "autocomplete": "off",
                    "spellcheck": "false",
                    "placeholder": _("e.g. %(cards)s", cards="S2 S5 H3 H7 D4 D8 C6 C9 JK H2"),
                },
            ),
        }
        form_class = type("MightyHandForm_", (cls,), fields)
        form_class.table = Table(players, dict(rules))
        form_class.min_bid = floor
        form_class.expected_dealer = before.get("next_dealer")
        form_class.last_outcome = before.get("last_outcome")
        form_class.friend_types = types
        first = before.get("next_dealer") or ""
        data: dict[str, Any] = {
            "dealer": first,
            "bidder": first or players[0],
            "bid_count": str(floor),
            "friend_kind": types[0],
        }
        if entered is not None:
            data.update(initial_data(entered))
        form = form_class(data=data, **kwargs)
        if entered is not None:
            form.stored_kind = stored_kind(entered)
            form.follow_auction()
        return form

    # -- what the buttons mean ----------------------------------------------------------------

    def action(self) -> str:
        """Return the button the table pressed ("record" when none is named)."""
        return request.form.get("action", "record") if has_request_context() else "record"

    def is_check(self) -> bool:
        """Return True for a dry run: any action but record and the one-tap zero rounds."""
        return self.action() not in STORING_ACTIONS

    def is_pad_action(self) -> bool:
        """Return True when the auction pad was used (a bid, a pass or a take-back)."""
        return self.action() in PAD_ACTIONS

    def round_input(self) -> dict[str, Any]:
        """Return the API-shaped round input for the pressed button.

        ``misdeal`` sends only the misdeal, ``all_pass`` only the everyone-passed flag (with the
        log, if one was entered), a pad button only the changed bidding log; ``record`` and
        ``check`` send every part that was filled in.
        """
        action = self.action()
        body: dict[str, Any] = {}
        if self.dealer.data:
            body["dealer"] = self.dealer.data
        log = self.log()
        if action == "misdeal":
            body["misdeal"] = self.misdeal_part()
        elif action == "all_pass":
            if log:
                body["bidding"] = log
            body["all_pass"] = True
        elif action in PAD_ACTIONS:
            changed = self.pad_log(action, log)
            if changed:
                body["bidding"] = changed
        else:
            body.update(self.hand_parts(log))
        if self.expected() is not None:
            body["expected_round"] = self.expected()
        return body

    def log(self) -> Any:
        """Return the bidding log in the hidden field ([] when empty, the text if unreadable)."""
        text = (self.bidding.data or "").strip()
        if not text:
            return []
        try:
            return json.loads(text)
        except (ValueError, RecursionError):  # nested too deep is unreadable too
            return text

    def pad_log(self, action: str, log: Any) -> Any:
        """Return the log with the pad's entry added, or with the last entry taken back."""
        if not isinstance(log, list):
            return [] if action == "unbid" else log  # a broken log: the rules say why
        if action == "unbid":
            return log[:-1]
        player = self.bidder.data or None
        if action == "pass":
            return [*log, {"player": player, "pass": True}]
        trump = action.removeprefix("bid_")
        return [*log, {"player": player, "bid": number(self.bid_count.data), "trump": trump}]

    def hand_parts(self, log: Any) -> dict[str, Any]:
        """Return the parts of a played hand that were filled in (a dry run may send some)."""
        parts: dict[str, Any] = {}
        if log:
            parts["bidding"] = log
        if self.boss.data or self.contract_bid.data or self.contract_trump.data:
            parts["contract"] = {
                "boss": self.boss.data or None,
                "bid": number(self.contract_bid.data),
                "trump": self.contract_trump.data or None,
            }
        friend = self.friend_part()
        if friend is not None:
            parts["friend"] = friend
        points = number(self.opposition_points.data)
        if points is not None:
            parts["opposition_points"] = points
        for key in ("mighty_holder", "joker_holder"):
            if self[key].data:
                parts[key] = self[key].data
        if not parts and (self.misdeal_hand.data or "").strip():
            # nothing but a misdeal was entered: record that (e.g. correcting a stored misdeal)
            parts["misdeal"] = self.misdeal_part()
        return parts

    def friend_part(self) -> dict[str, Any] | None:
        """Return the friend as the API writes it, or None when nothing was entered."""
        kind = self.friend_kind.data or self.friend_types[0]
        player = self.friend_player.data or None
        if kind == "none":
            return {"none": True}
        if kind == "first_trick":
            return {"first_trick": player} if player else None
        card = (self.friend_card.data or "").strip()
        if kind != "card":
            return {kind: card or player or True}  # an unknown way: the rules refuse it
        if not card and not player:
            return None
        friend: dict[str, Any] = {}
        if card:
            friend["card"] = card
        if player:
            friend["player"] = player
        return friend

    def misdeal_part(self) -> dict[str, Any]:
        """Return the misdeal: who declared it and the cards they typed."""
        cards = [card for card in re.split(r"[\s,;]+", self.misdeal_hand.data or "") if card]
        return {"player": self.misdeal_player.data or None, "hand": cards or None}

    # -- after a dry run or a refusal ---------------------------------------------------------

    def show_check(self, checked: dict[str, Any]) -> None:
        """Take a successful dry run: keep the new bidding log, or show the check's result."""
        result = checked.get("result", {})
        if self.is_pad_action():
            log = checked.get("input", {}).get("bidding") or []
            self.bidding.data = json.dumps(log, ensure_ascii=False) if log else ""
            self._auction_cache = None
            finished_now = self.action() != "unbid"
            self.follow_auction(prefill_contract=finished_now)
            return
        if result.get("complete") is False:
            # a partial check scores nothing; without deltas the page says "nothing wrong so far"
            result = {key: value for key, value in result.items() if key != "deltas"}
            checked = {**checked, "result": result}
        self.checked = checked

    def follow_auction(self, prefill_contract: bool = False) -> None:
        """Point the pad at whose turn it is; once the auction is won, offer its contract."""
        auction = self.auction()
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

    def field_for(self, path: str) -> Field | None:
        """Return the field an input path points at ("contract.bid" -> the contract count)."""
        head, _dot, rest = path.partition(".")
        if head == "bidding":
            tail = rest.partition(".")[2]
            if tail == "player":
                return self.bidder
            return self.bid_count if rest else self.bidding
        if head == "all_pass":
            return self.bidding
        if head == "contract":
            return {"bid": self.contract_bid, "trump": self.contract_trump}.get(rest, self.boss)
        if head == "friend":
            if rest in ("player", "first_trick"):
                return self.friend_player
            return self.friend_card if rest == "card" else self.friend_kind
        if head == "misdeal":
            return self.misdeal_player if rest == "player" else self.misdeal_hand
        if head in ("dealer", "opposition_points", "mighty_holder", "joker_holder"):
            return self[head]
        return None

    def show_violation(self, error: RuleViolation) -> None:
        """Put a refusal next to its field; a refused pad entry leaves the log as it was."""
        add_error(self, self.field_for(error.field or ""), error.message)

    # -- what the page shows ------------------------------------------------------------------

    def auction(self) -> Auction | None:
        """Return where the auction in the hidden log stands (None if the log is unreadable)."""
        if self._auction_cache is None:
            log = self.log()
            dealer = self.dealer.data if self.dealer.data in self.table.players else None
            found = None
            # a log that does not start with the chosen dealer is refused by its field; still
            # show the log as entered
            for starter in dict.fromkeys((dealer, None)):
                try:
                    found = run_auction(self.table, log, min_bid=self.min_bid, dealer=starter)
                except RuleViolation:
                    continue
                break
            self._auction_cache = (found,)
        return self._auction_cache[0]

    def next_bid_words(self) -> str:
        """Say what the next bidder may do, e.g. 'at least 14, or pass'."""
        auction = self.auction()
        if auction is None or auction.finished:
            return ""
        kind, values = next_bid(auction)
        if kind == "at_least":
            return _("at least %(count)s, or pass", count=values["count"])
        if kind == "no_trump_or_suit":
            return _(
                "at least %(count)s no-trump or %(next)s in a suit, or pass",
                count=values["count"],
                next=values["next"],
            )
        if kind == "no_trump":
            return _("%(count)s no-trump, or pass", count=values["count"])
        return _(
            "nothing beats %(count)s %(trump)s, so pass",
            count=values["count"],
            trump=_(values["trump_t"]),
        )

    def log_lines(self) -> list[tuple[str, str]]:
        """Return the auction so far as (player, what they said) pairs."""
        auction = self.auction()
        if auction is None:
            return []
        return [
            (
                entry["player"],
                _("pass (패스)") if entry.get("pass") else bid_words(entry["bid"], entry["trump"]),
            )
            for entry in auction.entries
        ]

    def contract_prices(self) -> list[dict[str, Any]]:
        """Return, once the auction is won, each trump with the lowest contract it needs."""
        auction = self.auction()
        if auction is None or not auction.finished or auction.highest is None:
            return []
        won = auction.highest
        prices = allowed_contract_changes(won.count, won.trump, self.table.rules)
        return [
            {
                "trump": trump,
                "label": TRUMP_LABELS[trump],
                "price": prices[trump],
                "keep": trump == won.trump,
            }
            for trump in TRUMPS
        ]

    def price_rule(self) -> str:
        """Say in one sentence what changing the contract after the kitty costs at this table."""
        rules = self.table.rules
        costs = {
            "to_no_trump": rules.get("to_no_trump_cost", 1),
            "suit_change": rules.get("suit_change_cost", 2),
            "from_no_trump": rules.get("from_no_trump_cost", 2),
            "most": MAX_BID,
        }
        if rules.get("allow_no_trump_at_20"):
            return _(
                "The boss may keep the winning bid or raise it; changing the trump costs "
                "+%(to_no_trump)s to no-trump, +%(suit_change)s to another suit and "
                "+%(from_no_trump)s from no-trump to a suit (at most %(most)s); a bid of "
                "%(most)s locks the trump, except to no-trump.",
                **costs,
            )
        return _(
            "The boss may keep the winning bid or raise it; changing the trump costs "
            "+%(to_no_trump)s to no-trump, +%(suit_change)s to another suit and "
            "+%(from_no_trump)s from no-trump to a suit (at most %(most)s); a bid of "
            "%(most)s locks the trump.",
            **costs,
        )

    def special_cards(self) -> dict[str, dict[str, str]]:
        """Return the mighty and the joker-call card under each trump (for the page's script)."""
        rules = self.table.rules
        return {
            trump: {
                "mighty": mighty_card(trump, rules),
                "joker_call": joker_call_card(trump, rules),
            }
            for trump in TRUMPS
        }

    def dealer_reason(self) -> str:
        """Say why the expected dealer deals this hand."""
        dealer = self.expected_dealer
        if dealer is None:
            return _("The first hand: anyone may deal.")
        if self.last_outcome == "misdeal":
            return _("%(dealer)s declared the last misdeal.", dealer=dealer)
        if self.last_outcome == "all_pass":
            return _("Everyone passed, so %(dealer)s deals again.", dealer=dealer)
        return _("%(dealer)s was the last hand's friend (or boss).", dealer=dealer)

    def misdeal_allowed(self) -> bool:
        """Return True unless misdeals are off at this table."""
        return self.table.rules.get("misdeal", "point_cards") != "off"

    def misdeal_open(self) -> bool:
        """Return True when the misdeal part should show open (filled in, or refused)."""
        fields = (self.misdeal_player, self.misdeal_hand)
        return any(field.errors or field.data for field in fields)

    def won_words(self) -> str:
        """Say who won the auction with what, once it is over ('' before)."""
        auction = self.auction()
        if auction is None or not auction.finished or auction.highest is None:
            return ""
        return _(
            "%(player)s won the auction with %(count)s %(trump)s",
            player=auction.leader,
            count=auction.highest.count,
            trump=self.trump_words(auction.highest.trump),
        )

    @staticmethod
    def trump_words(trump: str) -> str:
        """Return a trump's name for a sentence ("hearts", "no-trump"), translated."""
        return _(TRUMP_NAMES[trump]) if trump in TRUMP_NAMES else trump


def stored_kind(entered: dict[str, Any]) -> str:
    """Return how a stored round was played: "misdeal", "all_pass" or "hand"."""
    if entered.get("misdeal"):
        return "misdeal"
    if entered.get("all_pass"):
        return "all_pass"
    return "hand"


def initial_data(entered: dict[str, Any]) -> dict[str, Any]:
    """Return form data that shows a stored round (for correcting it)."""
    data: dict[str, Any] = {"dealer": entered.get("dealer") or ""}
    if entered.get("bidding"):
        data["bidding"] = json.dumps(entered["bidding"], ensure_ascii=False)
    contract = entered.get("contract") or {}
    if contract:
        data["boss"] = contract.get("boss")
        data["contract_bid"] = str(contract.get("bid"))
        data["contract_trump"] = contract.get("trump")
    friend = entered.get("friend") or {}
    if friend.get("none"):
        data["friend_kind"] = "none"
    elif friend.get("first_trick"):
        data["friend_kind"] = "first_trick"
        data["friend_player"] = friend["first_trick"]
    elif friend:
        data["friend_kind"] = "card"
        data["friend_card"] = friend.get("card")
        data["friend_player"] = friend.get("player")
    if entered.get("opposition_points") is not None:
        data["opposition_points"] = str(entered["opposition_points"])
    for key in ("mighty_holder", "joker_holder"):
        if entered.get(key):
            data[key] = entered[key]
    misdeal = entered.get("misdeal") or {}
    if misdeal:
        data["misdeal_player"] = misdeal.get("player")
        data["misdeal_hand"] = " ".join(misdeal.get("hand") or [])
    return data


RoundForm = MightyHandForm
