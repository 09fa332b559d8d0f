"""The Dalmuti hand form: a revolution or the tax, then the finishing order, each step checked.

A hand is entered in the order it happens at the table: a revolution (if someone shows both
jesters), the tribute cards (optionally checked against the hands as dealt), then the players
in the order they go out. ``action=check_tax`` (the "Check the tribute" button) is a dry run of
the first steps alone; ``action=record`` stores the hand once the finishing order is complete.

The form is built for the hand it records: the next one on the session page, or the stored
hand being corrected on the edit page, whose ranks are that hand's ``ranks_before``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from flask import request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, Field, SelectField, StringField

from ....services import SessionView
from ....web.forms.base import At, RoundBody, RoundForm, Slot
from ....web.forms.common import add_error, options
from ... import dalmuti
from ...errors import Refusal
from ..shapes import DalmutiInput, Exchange
from ..table_view import merchants_trading, revolution_choices
from .refusals import field_refused
from .words import card_tokens, cards_field, gives_label, ordinal, place_label, titled

#: Flask-Babel's gettext, typed (the package ships no types): the translated words
_: Callable[..., str] = gettext

#: the button that checks the revolution and the tax before play starts
STEP_ACTION = "check_tax"
MISSING_ORDER = _l("Enter the finishing order: choose (or tap) the players as they go out.")


def typed_cards(text: object) -> list[int | str] | None:
    """Read a field of cards as the input lists them, or None when none were typed."""
    return card_tokens(text) or None


def hand_context(view: SessionView, correcting: int | None) -> tuple[list[str], int]:
    """Return the ranks before the hand the form records and the hands played before it.

    On the edit page the ranks are the stored hand's own ``ranks_before``: the current ranks
    (``view.state``) belong to the next hand, not to the one being corrected.
    """
    stored = {played.number: played for played in view.rounds}
    if correcting is not None and correcting in stored:
        ranks = stored[correcting].result.get("ranks_before") or view.state["ranks"]
        return list(ranks), correcting - 1
    return list(view.state["ranks"]), int(view.state.get("hands_played", 0))


class DalmutiHandForm(RoundForm):
    """One hand of The Great Dalmuti: revolution or tax, then who went out in which order."""

    template = "dalmuti/form.html"
    paths = {
        "revolution_player": "revolution.player",
        "revolution_kind": At("revolution.kind", read=lambda kind: kind or "plain"),
        "tribute_paid": At("tribute.paid", read=lambda paid: True if paid else None, show=bool),
        "tribute_{role}": At("tribute.{role}", read=typed_cards, show=cards_field),
        "hand_{seat}": At("hands.{player}", read=typed_cards, show=cards_field),
        "finish_{place}": "finish_order.{place}",
    }
    refusals = {"revolution": "revolution_player"}
    groups = ("tribute", "hands", "merchant_trades", "finish_order")

    seats: tuple[str, ...] = ()
    ranks: tuple[str, ...] = ()
    due: tuple[Exchange, ...] = ()
    merchants: tuple[str, ...] = ()
    greater_by: tuple[str, ...] = ()
    #: who may declare which revolutions (rank order), for the one-tap revolution buttons
    revolutions: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: the cards a tribute may hold at this table, best first (the tap pads' numbers)
    cards: tuple[int, ...] = ()
    #: True when the Dalmutis may give a jester back (dalmuti_may_return_jester)
    jester_back: bool = False
    correcting: int | None = None
    no_tax: str = ""

    #: the round object of a dry run that did not score the hand yet (a step), for the template
    step_checked: Mapping[str, object] | None = None

    @classmethod
    def build(
        cls,
        view: SessionView,
        entered: Mapping[str, object] | None = None,
        correcting: int | None = None,
        **kwargs: object,
    ) -> DalmutiHandForm:
        """Build the form for the hand it records, prefilled from a stored hand if given."""
        ranks, played = hand_context(view, correcting)
        rules = dalmuti.house_rules(view.table.rules)
        due = dalmuti.tribute_due(ranks, rules, played)
        merchants = merchants_trading(ranks, rules)
        form_class = cls.subclass(
            hand_fields(view.table.players, ranks, rules, due, merchants),
            seats=tuple(view.table.players),
            ranks=tuple(ranks),
            due=tuple(due),
            merchants=tuple(merchants),
            greater_by=tuple(dalmuti.greater_revolution_by(ranks, rules)),
            revolutions=tuple(
                (name, tuple(dalmuti.revolution_kinds(ranks, name, rules))) for name in ranks
            ),
            cards=tuple(card for card in dalmuti.RANKS if card not in rules.removed_ranks),
            jester_back=bool(rules.dalmuti_may_return_jester),
            correcting=correcting if correcting in {p.number for p in view.rounds} else None,
            no_tax="" if due else _(dalmuti.no_tax_reason(rules)),
        )
        data = form_class.data_from(entered) if entered is not None else None
        return form_class(data=data, **kwargs)

    @classmethod
    def slots(cls) -> dict[str, list[Slot]]:
        """Return the tax's giving roles, the seats in rank order and the finishing places."""
        return {
            "role": [{"role": item["role"]} for item in cls.due],
            "seat": [{"seat": cls.seats.index(name), "player": name} for name in cls.ranks],
            "place": [{"place": place} for place in range(1, len(cls.ranks) + 1)],
        }

    @classmethod
    def data_from(cls, stored: Mapping[str, object]) -> dict[str, object]:
        """Return form data that shows a stored hand; each merchant's swap names the other."""
        data = super().data_from(stored)
        # a stored round's input is one the rules took: a Dalmuti hand's
        for pair in cast(DalmutiInput, stored).get("merchant_trades") or []:
            if len(pair) == 2 and all(name in cls.seats for name in pair):
                first, second = pair
                data[f"trade_{cls.seats.index(first)}"] = second
                data[f"trade_{cls.seats.index(second)}"] = first
        return data

    # -- the fields, grouped for the template ----------------------------------------------

    def tribute_fields(self) -> list[Field]:
        """Return the tribute fields in the order of the tax (peasant, then the answer)."""
        return [self[f"tribute_{item['role']}"] for item in self.due]

    def tribute_rows(self) -> list[tuple[Field, Exchange]]:
        """Return each tribute field with its exchange (who gives how many), for the tap pads."""
        return list(zip(self.tribute_fields(), self.due, strict=True))

    def tribute_cards(self, item: Exchange) -> list[int | str]:
        """Return the numbers a giver's pad offers, a jester only where a Dalmuti may give one."""
        jester = item["which"] == "any" and self.jester_back
        return [*self.cards, *([dalmuti.JESTER] if jester else [])]

    def revolution_taps(self) -> list[tuple[str, str, list[str]]]:
        """Return each revolution a tap declares: its kind, its words and who may declare it."""
        taps = []
        for kind in dalmuti.REVOLUTION_KINDS:
            names = [name for name, kinds in self.revolutions if kind in kinds]
            if names:
                taps.append((kind, kind_label(kind), names))
        return taps

    def hand_fields(self) -> list[Field]:
        """Return the 'hand as dealt' fields in rank order."""
        return [self[f"hand_{self.seats.index(name)}"] for name in self.ranks]

    def trade_fields(self) -> list[Field]:
        """Return the merchants' swap fields in rank order (empty unless the house rule is on)."""
        return [self[f"trade_{self.seats.index(name)}"] for name in self.merchants]

    def finish_fields(self) -> list[Field]:
        """Return the finishing places in order, first out first."""
        return [self[f"finish_{place}"] for place in range(1, len(self.ranks) + 1)]

    def hands_open(self) -> bool:
        """Return True when the hands section should be open: something is entered or wrong."""
        return bool(self.group_errors["hands"]) or any(
            (field.data or "").strip() or field.errors for field in self.hand_fields()
        )

    def step_label(self) -> str:
        """Name the check of the steps before play."""
        return _("Check the tribute") if self.due else _("Check the revolution")

    # -- reading the input -----------------------------------------------------------------

    def is_step_check(self) -> bool:
        """Return True when the table asked to check only the steps before play."""
        return request.form.get("action") == STEP_ACTION

    def validate(
        self, extra_validators: Mapping[str, Sequence[Callable[..., object]]] | None = None
    ) -> bool:
        """Check the fields, and that the finishing places are filled from the first one on.

        A missing order is left to the rules, so that the steps before it are checked first.
        """
        valid = super().validate(extra_validators)
        if self.is_step_check():
            return valid
        places = self.finish_fields()
        for index, field in enumerate(places[:-1]):
            if not field.data and any(later.data for later in places[index + 1 :]):
                place = index + 1
                message = _("Choose who went out %(place)s.", place=ordinal(place), number=place)
                field.errors = [*field.errors, message]
                valid = False
        return valid

    def finish_order(self) -> list[str] | None:
        """Return the places chosen, first out first; the last place fills itself."""
        order = self.read("finish_order").get("finish_order")
        if not isinstance(order, list) or not order:
            return None
        left = [name for name in self.ranks if name not in order]
        if len(order) == len(self.ranks) - 1 and len(left) == 1:
            order.append(left[0])
        return order

    def trades(self) -> list[list[str]]:
        """Return the merchants' swaps as pairs, each pair once."""
        pairs: list[list[str]] = []
        for name, field in zip(self.merchants, self.trade_fields(), strict=True):
            if field.data:
                pair = sorted([name, field.data], key=self.ranks.index)
                if pair not in pairs:
                    pairs.append(pair)
        return pairs

    def compose(self) -> RoundBody:
        """Return the API-shaped hand: only the parts entered (all of them, to record)."""
        body = self.read("revolution") if self.filled("revolution.player") else {}
        body.update(self.read("tribute", "hands"))
        if self.trades():
            body["merchant_trades"] = self.trades()
        if not self.is_step_check():
            order = self.finish_order()
            if order is not None:
                body["finish_order"] = order
        return body

    # -- showing checks and refusals ---------------------------------------------------------

    def show_check(self, checked: Mapping[str, object]) -> None:
        """Keep a dry run: a scored hand for the shared box, a step for the tax section."""
        result = checked["result"]
        if isinstance(result, Mapping) and "deltas" in result and result.get("complete", True):
            self.checked = checked
        else:
            self.step_checked = checked

    def still_to_enter(self) -> list[str]:
        """Return the tribute still missing after a step check (nothing after a revolution)."""
        if not self.step_checked or self.revolution_player.data:
            return []
        return [f.label.text for f in self.tribute_fields() if not card_tokens(f.data)]

    def group_of(self, path: str) -> str | None:
        """Return the group a refusal stands above; the swaps' only while swaps are offered."""
        group = super().group_of(path)
        return None if group == "merchant_trades" and not self.merchants else group

    def show_violation(self, error: Refusal) -> None:
        """Put a refusal next to its field, above its group of fields, or on the form; one
        about the whole order or the whole tax by the control that mends it."""
        paid = self._fields.get("tribute_paid")
        field = field_refused(error, self.finish_fields(), paid, self.tribute_fields())
        if error.code == "missing_field" and error.field == "finish_order":
            self.group_errors["finish_order"].append(MISSING_ORDER)
        elif field is not None:
            add_error(self, field, error.message)
        else:
            super().show_violation(error)


def kind_label(kind: str) -> str:
    """Word a revolution's kind: what it does to the tax and the ranks."""
    if kind == "greater":
        return _("Greater: ranks reverse, no tax")
    return _("Plain: no tax, ranks stay")


def hand_fields(
    seats: Sequence[str],
    ranks: list[str],
    rules: Mapping[str, object],
    due: Sequence[Exchange],
    merchants: list[str],
) -> dict[str, Field]:
    """Return the hand's fields: the revolution, the tribute due, the hands, swaps, places."""
    names = [titled(name, ranks) for name in ranks]
    kinds = revolution_choices(ranks, rules)
    fields: dict[str, Field] = {
        "revolution_player": SelectField(
            _("Who showed both jesters?"),
            choices=options(["", *ranks], [_("Nobody: no revolution"), *names]),
            default="",
        ),
        "revolution_kind": SelectField(
            _("Which revolution?"),
            choices=options(kinds, [kind_label(kind) for kind in kinds]),
            default="plain",
        ),
    }
    if due:
        fields["tribute_paid"] = BooleanField(_("Tax paid as due"))
    for item in due:
        fields[f"tribute_{item['role']}"] = tribute_field(item, ranks)
    sizes = dalmuti.hand_sizes(ranks, rules)
    for seat, name in enumerate(seats):
        fields[f"hand_{seat}"] = StringField(
            titled(name, ranks),
            description=_("%(count)s cards as dealt", count=sizes[name]),
            render_kw={
                "placeholder": _("e.g. %(example)s", example="1 3 3 5 ... 12 13"),
                "autocomplete": "off",
                "inputmode": "decimal",  # digits and "." (a card separator) on every phone
            },
        )
    for name in merchants:
        others = [other for other in merchants if other != name]
        fields[f"trade_{seats.index(name)}"] = SelectField(
            name, choices=options(["", *others], [_("no swap"), *others]), default=""
        )
    for place in range(1, len(ranks) + 1):
        fields[f"finish_{place}"] = SelectField(
            place_label(place, len(ranks)),
            choices=options(["", *ranks], ["-", *ranks]),
            default="",
        )
    return fields


def tribute_field(item: Exchange, ranks: list[str]) -> StringField:
    """Return the field of one side of the tax: who gives whom which cards, with a hint."""
    if item["which"] == "best":
        hint = _("Their lowest numbers, never a jester.")
    elif item["after_receiving"]:
        hint = _("Chosen after picking up the tribute; no jester.")
    else:
        hint = _("Chosen before picking up the tribute; no jester.")
    # the best cards are the lowest numbers past the Dalmuti's 1; any others, the worst first
    shown = dalmuti.RANKS[1:] if item["which"] != "any" else dalmuti.RANKS[::-1]
    example = " ".join(str(rank) for rank in shown[: item["count"]])
    return StringField(
        gives_label(titled(item["from"], ranks), item["to"], item["count"], item["which"]),
        description=hint,
        render_kw={
            "placeholder": _("e.g. %(example)s", example=example),
            "autocomplete": "off",
            "inputmode": "decimal",  # digits and "." (a card separator) on every phone
        },
    )
