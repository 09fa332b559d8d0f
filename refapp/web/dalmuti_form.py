"""The Dalmuti hand form: a revolution or the tax, then the finishing order, each step checked.

A hand is entered in the order it happens at the table: a revolution (if someone shows both
jesters), the tribute cards (optionally checked against the hands as dealt), then the players
in the order they go out. ``action=check_tax`` (the "Check the tribute" button) is a dry run of
the first steps alone; ``action=record`` stores the hand once the finishing order is complete.

The form is built for the hand it records: the next one on the session page, or the stored
hand being corrected on the edit page, whose ranks are that hand's ``ranks_before``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask import has_request_context, request
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import Field, SelectField, StringField

from ..games import dalmuti
from ..games.base import RuleViolation
from ..services import SessionView
from .forms import add_error, options
from .round_form import RoundForm as BaseRoundForm

#: the button that checks the revolution and the tax before play starts
STEP_ACTION = "check_tax"
#: the parts of a hand whose refusals are shown above their group of fields
GROUPS = ("tribute", "hands", "merchant_trades", "finish_order")
NUMBER = re.compile(r"[0-9]{1,2}")
MISSING_ORDER = _l("Enter the finishing order: choose (or tap) the players as they go out.")


# -- cards as typed ---------------------------------------------------------------------------


def card_tokens(text: Any) -> list[int | str]:
    """Return the cards typed in a field ('2 4', '12, 11', 'j'): numbers as ints, jesters "J".

    Anything else is kept as typed, so that the rules refuse it quoting the player's input.
    """
    cards: list[int | str] = []
    for token in re.split(r"[\s,;]+", str(text or "").strip()):
        if not token:
            continue
        if NUMBER.fullmatch(token):
            cards.append(int(token))
        elif token.upper() == dalmuti.JESTER:
            cards.append(dalmuti.JESTER)
        else:
            cards.append(token)
    return cards


def cards_field(cards: Any) -> str:
    """Write stored cards back into a field: [2, 4] -> '2 4'."""
    items = cards if isinstance(cards, list) else [cards]
    return " ".join(str(card) for card in items)


# -- titles and sentences the pages share -----------------------------------------------------


def language() -> str:
    """Return the reader's language for the title tables (en outside a request)."""
    locale = get_locale() if has_request_context() else None
    code = locale.language if locale is not None else "en"
    return code if code in dalmuti.LANGUAGES else "en"


def role_title(role: str) -> str:
    """Return a role's title in the reader's language, as the seeds name it."""
    return dalmuti.role_name(role, language())


def rank_title(card: int | str) -> str:
    """Return a card's title in the reader's language, as the seeds name it."""
    return dalmuti.rank_name(card, language())


def titled(name: str, ranks: Sequence[str]) -> str:
    """Write a player with their role in the reader's language: 'Eve (Greater Peasant)'."""
    return _("%(name)s (%(role)s)", name=name, role=role_title(dalmuti.roles_of(ranks)[name]))


def gives_label(giver: str, receiver: str, count: int, which: str) -> str:
    """Write one side of an exchange: 'Eve (Greater Peasant) gives Ann their 2 best cards'."""
    if which == "best":
        return ngettext(
            "%(giver)s gives %(receiver)s their best card",
            "%(giver)s gives %(receiver)s their %(num)s best cards",
            count,
            giver=giver,
            receiver=receiver,
        )
    return ngettext(
        "%(giver)s gives %(receiver)s any %(num)s card",
        "%(giver)s gives %(receiver)s any %(num)s cards",
        count,
        giver=giver,
        receiver=receiver,
    )


def tax_lines(due: Sequence[Mapping[str, Any]]) -> list[str]:
    """Write the tax of a hand pair by pair: 'Eve gives Ann their 2 best cards; Ann gives ...'."""
    lines = []
    for item in due:
        if item["which"] != "best":
            continue
        back = next((b for b in due if b["which"] == "any" and b["from"] == item["to"]), None)
        values = {"peasant": item["from"], "dalmuti": item["to"]}
        if back is None:
            lines.append(
                ngettext(
                    "%(peasant)s gives %(dalmuti)s their best card.",
                    "%(peasant)s gives %(dalmuti)s their %(num)s best cards.",
                    item["count"],
                    **values,
                )
            )
        elif back.get("after_receiving"):
            lines.append(
                ngettext(
                    "%(peasant)s gives %(dalmuti)s their best card; %(dalmuti)s gives "
                    "%(peasant)s any %(back)s (chosen after picking up the tribute).",
                    "%(peasant)s gives %(dalmuti)s their %(num)s best cards; %(dalmuti)s gives "
                    "%(peasant)s any %(back)s (chosen after picking up the tribute).",
                    item["count"],
                    back=back["count"],
                    **values,
                )
            )
        else:
            lines.append(
                ngettext(
                    "%(peasant)s gives %(dalmuti)s their best card; %(dalmuti)s gives "
                    "%(peasant)s any %(back)s.",
                    "%(peasant)s gives %(dalmuti)s their %(num)s best cards; %(dalmuti)s gives "
                    "%(peasant)s any %(back)s.",
                    item["count"],
                    back=back["count"],
                    **values,
                )
            )
    return lines


def exchanges(ranks: Sequence[str], tribute: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Return a stored tribute as giver, receiver and cards, in the order of the tax."""
    if not tribute:
        return []
    who = dalmuti.holders(ranks)
    rows = []
    for role in dalmuti.TRIBUTE:
        if role in tribute and role in who:
            receiver = who[dalmuti.TRIBUTE[role][0]]
            rows.append({"from": who[role], "to": receiver, "role": role, "cards": tribute[role]})
    return rows


def place_label(place: int, count: int) -> str:
    """Label a finishing place with the rank it earns: '1st out: next Greater Dalmuti'."""
    role = role_title(dalmuti.role_of(place, count))
    if place == count:
        return _("Last: next %(role)s", role=role)
    return _("%(place)s out: next %(role)s", place=ordinal(place), number=place, role=role)


# -- which hand the form records --------------------------------------------------------------


def hand_context(view: SessionView) -> tuple[int | None, list[str], int]:
    """Return (hand being corrected or None, the ranks before that hand, hands played before it).

    On the edit page the ranks are the stored hand's own ``ranks_before``: the current ranks
    (``view.state``) belong to the next hand, not to the one being corrected.
    """
    args = request.view_args or {}
    number = args.get("number") if request.endpoint == "web.edit_round" else None
    stored = {played.number: played for played in view.rounds}
    if isinstance(number, int) and number in stored:
        result = stored[number].result
        ranks = result.get("ranks_before") or view.state["ranks"]
        return number, list(ranks), number - 1
    return None, list(view.state["ranks"]), int(view.state.get("hands_played", 0))


class DalmutiHandForm(BaseRoundForm):
    """One hand of The Great Dalmuti: revolution or tax, then who went out in which order."""

    seats: tuple[str, ...] = ()
    ranks: tuple[str, ...] = ()
    roles: dict[str, str] = {}
    due: tuple[dict[str, Any], ...] = ()
    sizes: dict[str, int] = {}
    merchants: tuple[str, ...] = ()
    greater_by: tuple[str, ...] = ()
    correcting: int | None = None
    no_tax: str = ""

    #: the round object of a dry run that did not score the hand yet (a step), for the template
    step_checked: dict[str, Any] | None = None

    @classmethod
    def build(cls, view: SessionView, entered: dict[str, Any] | None = None, **kwargs: Any):
        """Build the form for the hand it records, prefilled from a stored hand if given."""
        number, ranks, played = hand_context(view)
        rules = dalmuti.settings(view.table.rules)
        roles = dalmuti.roles_of(ranks)
        due = dalmuti.tribute_due(ranks, rules, played)
        names = [titled(name, ranks) for name in ranks]
        greater_by = [n for n in ranks if "greater" in dalmuti.revolution_kinds(ranks, n, rules)]
        kinds = ["plain", "greater"] if greater_by else ["plain"]
        kind_labels = {
            "plain": _("Plain: no tax, ranks stay"),
            "greater": _("Greater: ranks reverse, no tax"),
        }
        fields: dict[str, Field] = {
            "revolution_player": SelectField(
                _("Who showed both jesters?"),
                choices=options(["", *ranks], [_("Nobody: no revolution"), *names]),
                default="",
            ),
            "revolution_kind": SelectField(
                _("Which revolution?"),
                choices=options(kinds, [kind_labels[kind] for kind in kinds]),
                default="plain",
            ),
        }
        for item in due:
            giver = titled(item["from"], ranks)
            if item["which"] == "best":
                hint = _("Their lowest numbers, never a jester.")
            elif item["after_receiving"]:
                hint = _("Chosen after picking up the tribute; no jester.")
            else:
                hint = _("Chosen before picking up the tribute; no jester.")
            example = "2 4" if item["count"] == 2 else "3"
            if item["which"] == "any":
                example = "12 11" if item["count"] == 2 else "12"
            fields[f"tribute_{item['role']}"] = StringField(
                gives_label(giver, item["to"], item["count"], item["which"]),
                description=hint,
                render_kw={
                    "placeholder": _("e.g. %(example)s", example=example),
                    "autocomplete": "off",
                },
            )
        sizes = dalmuti.hand_sizes(ranks, rules)
        for seat, name in enumerate(view.table.players):
            fields[f"hand_{seat}"] = StringField(
                titled(name, ranks),
                description=_("%(count)s cards as dealt", count=sizes[name]),
                render_kw={
                    "placeholder": _("e.g. %(example)s", example="1 3 3 5 ... 12 J"),
                    "autocomplete": "off",
                },
            )
        merchants = [name for name in ranks if roles[name] == "merchant"]
        if rules["merchant_trade"] and len(merchants) >= 2:
            for name in merchants:
                others = [other for other in merchants if other != name]
                fields[f"trade_{view.table.players.index(name)}"] = SelectField(
                    name,
                    choices=options(["", *others], [_("no swap"), *others]),
                    default="",
                )
        else:
            merchants = []
        for place in range(1, len(ranks) + 1):
            fields[f"finish_{place}"] = SelectField(
                place_label(place, len(ranks)),
                choices=options(["", *ranks], ["-", *ranks]),
                default="",
            )
        form_class = type("DalmutiHandForm_", (cls,), fields)
        form_class.seats = tuple(view.table.players)
        form_class.ranks = tuple(ranks)
        form_class.roles = roles
        form_class.due = tuple(due)
        form_class.sizes = sizes
        form_class.merchants = tuple(merchants)
        form_class.greater_by = tuple(greater_by)
        form_class.correcting = number
        form_class.no_tax = "" if due else _(dalmuti.no_tax_reason(rules))
        data = initial_data(form_class, entered) if entered is not None else None
        return form_class(data=data, **kwargs)

    # -- the fields, grouped for the template ----------------------------------------------

    def tribute_fields(self) -> list[Field]:
        """Return the tribute fields in the order of the tax (peasant, then the answer)."""
        return [self[f"tribute_{item['role']}"] for item in self.due]

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

    @property
    def group_errors(self) -> dict[str, list[str]]:
        """Return the messages about a group of fields as a whole (the tribute, the order...)."""
        if not hasattr(self, "_group_errors"):
            self._group_errors: dict[str, list[str]] = {group: [] for group in GROUPS}
        return self._group_errors

    def step_label(self) -> str:
        """Name the check of the steps before play."""
        return _("Check the tribute") if self.due else _("Check the revolution")

    # -- reading the input -----------------------------------------------------------------

    def is_step_check(self) -> bool:
        """Return True when the table asked to check only the steps before play."""
        return request.form.get("action") == STEP_ACTION

    def validate(self, extra_validators=None) -> bool:
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
        order = [field.data for field in self.finish_fields() if field.data]
        if not order:
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

    def round_input(self) -> dict[str, Any]:
        """Return the API-shaped hand: only the parts entered (all of them, to record)."""
        body: dict[str, Any] = {}
        if self.revolution_player.data:
            body["revolution"] = {
                "player": self.revolution_player.data,
                "kind": self.revolution_kind.data or "plain",
            }
        tribute = {}
        for item, field in zip(self.due, self.tribute_fields(), strict=True):
            cards = card_tokens(field.data)
            if cards:
                tribute[item["role"]] = cards
        if tribute:
            body["tribute"] = tribute
        hands = {}
        for name, field in zip(self.ranks, self.hand_fields(), strict=True):
            cards = card_tokens(field.data)
            if cards:
                hands[name] = cards
        if hands:
            body["hands"] = hands
        if self.trades():
            body["merchant_trades"] = self.trades()
        if not self.is_step_check():
            order = self.finish_order()
            if order is not None:
                body["finish_order"] = order
        if self.expected() is not None:
            body["expected_round"] = self.expected()
        return body

    # -- showing checks and refusals ---------------------------------------------------------

    def show_check(self, checked: dict[str, Any]) -> None:
        """Keep a dry run: a scored hand for the shared box, a step for the tax section."""
        result = checked["result"]
        if "deltas" in result and result.get("complete", True):
            self.checked = checked
        else:
            self.step_checked = checked

    def still_to_enter(self) -> list[str]:
        """Return the tribute still missing after a step check (nothing after a revolution)."""
        if not self.step_checked or self.revolution_player.data:
            return []
        return [f.label.text for f in self.tribute_fields() if not card_tokens(f.data)]

    def field_for(self, path: str) -> Field | None:
        """Return the field an input path points at ("tribute.greater_peasant", "hands.Ann")."""
        head, _, rest = path.partition(".")
        if head == "revolution":
            return self.revolution_kind if rest == "kind" else self.revolution_player
        if head == "tribute" and rest:
            return self._fields.get(f"tribute_{rest}")
        if head == "hands" and rest in self.seats:
            return self[f"hand_{self.seats.index(rest)}"]
        return None

    def show_violation(self, error: RuleViolation) -> None:
        """Put a refusal next to its field, or above its group of fields."""
        path = error.field or ""
        if error.code == "missing_field" and path == "finish_order":
            self.group_errors["finish_order"].append(MISSING_ORDER)
            return
        field = self.field_for(path)
        group = path.partition(".")[0]
        if field is None and group in GROUPS:
            if group == "merchant_trades" and not self.merchants:
                self.form_errors.append(error.message)
            else:
                self.group_errors[group].append(error.message)
        else:
            add_error(self, field, error.message)


def ordinal(number: int) -> str:
    """Write 1st, 2nd, 3rd... in the reader's language."""
    return _(dalmuti.ordinal(number))


def initial_data(form_class: type[DalmutiHandForm], entered: Mapping[str, Any]) -> dict[str, Any]:
    """Return form data that shows a stored hand (for correcting it)."""
    data: dict[str, Any] = {}
    revolution = entered.get("revolution")
    if isinstance(revolution, Mapping):
        data["revolution_player"] = revolution.get("player", "")
        data["revolution_kind"] = revolution.get("kind", "plain")
    for role, cards in (entered.get("tribute") or {}).items():
        data[f"tribute_{role}"] = cards_field(cards)
    seats = form_class.seats
    for name, cards in (entered.get("hands") or {}).items():
        if name in seats:
            data[f"hand_{seats.index(name)}"] = cards_field(cards)
    for pair in entered.get("merchant_trades") or []:
        if len(pair) == 2 and all(name in seats for name in pair):
            first, second = pair
            data[f"trade_{seats.index(first)}"] = second
            data[f"trade_{seats.index(second)}"] = first
    for place, name in enumerate(entered.get("finish_order") or [], 1):
        data[f"finish_{place}"] = name
    return data


RoundForm = DalmutiHandForm
