"""The friend: how the boss names a partner, and who that partner really is.

A friend is named by a card (its holder; the boss's own card or the kitty's makes a self friend),
declared as none, or, when the table allows it, as the winner of trick 1. A hand entered with its
tricks may leave the card's holder out: the tricks show it (``tricks.totals``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...errors import N_, MalformedInput, RuleViolation, quote
from ...inputs import mapping, require
from ...words import Words
from ..cards import parse_card
from ..round_form import need
from ..shapes import Friend

if TYPE_CHECKING:
    from ..house_rules.rules import MightyTable

#: the ways to name a friend, as the input writes them (the ``friend_types`` option's choices)
FRIEND_FORMS = ("card", "none", "first_trick")
#: each way to name a friend in words, for a sentence (FRIEND_FORMS' order)
FRIEND_WORDS = {
    "card": N_("calling a card"),
    "none": N_("declaring no friend (노 프렌드)"),
    "first_trick": N_("the first-trick friend (초구 프렌드)"),
}
#: the label of the ``friend_types`` option, as options.py writes it (its choices: FRIEND_FORMS)
FRIEND_TYPES_LABEL = N_("Ways to name the friend")


def friend_words(forms: Sequence[str]) -> Words:
    """Return ways to name a friend as words for a message, in the rule's order."""
    return Words(FRIEND_WORDS[form] for form in FRIEND_FORMS if form in forms)


def read_friend(
    table: MightyTable, sent: object, partial: bool, derive: bool = False
) -> Friend | None:
    """Return the friend as named; None if a dry run did not send one.

    The forms: {card, player}, {card, kitty: true} (the called card was discarded: a self
    friend), {none} and {first_trick}. With ``derive`` (the hand carries its tricks, which
    show who played the card) a card call may leave out its player: {card}.
    """
    if partial and sent is None:
        return None
    given = mapping(need(sent, "friend"), "friend")
    form = _form(table, given)
    if form == "none":
        if given["none"] is not True:
            raise MalformedInput(
                "invalid_value",
                "{where} must be true, not {value}.",
                "friend.none",
                where="friend.none",
                value=quote(given["none"]),
            )
        return {"none": True}
    if form == "first_trick":
        return {"first_trick": table.player(given["first_trick"], "friend.first_trick")}
    card = parse_card(given["card"], "friend.card")
    if _in_kitty(given):
        return {"card": card, "kitty": True}
    if derive and given.get("player") is None:
        return {"card": card}
    player = table.player(require(given, "player", "friend.player"), "friend.player")
    return {"card": card, "player": player}


def _in_kitty(given: Mapping[str, object]) -> bool:
    """Return True for a called card entered as discarded to the kitty ({card, kitty: true})."""
    kitty = given.get("kitty")
    if kitty is None or kitty is False:
        return False
    if kitty is not True:
        raise MalformedInput(
            "invalid_value",
            "{where} must be true or false, not {value}.",
            "friend.kitty",
            where="friend.kitty",
            value=quote(kitty),
        )
    if given.get("player") is not None:
        raise MalformedInput(
            "invalid_value",
            "A called card in the kitty has no player: send friend.player or friend.kitty, "
            "not both.",
            "friend.kitty",
        )
    return True


def _form(table: MightyTable, given: Mapping[str, object]) -> str:
    """Return the one form the friend is named in, if the table allows it."""
    forms = [form for form in FRIEND_FORMS if given.get(form) is not None]
    if not forms and given.get("player") is not None:
        require(given, "card", "friend.card")
    if len(forms) != 1:
        raise MalformedInput(
            "invalid_value",
            'friend must be one of {{"card": C, "player": P}}, {{"none": true}} or '
            '{{"first_trick": P}}, not {value}.',
            "friend",
            value=json.dumps(given, default=str),
        )
    form = forms[0]
    if form not in table.rules.friend_types:
        raise RuleViolation(
            "friend_type_not_allowed",
            "This table does not allow {form_t}: its house rule “{rule_t}” allows only "
            "{allowed_t}.",
            f"friend.{form}",
            form_t=FRIEND_WORDS[form],
            rule_t=FRIEND_TYPES_LABEL,
            allowed_t=friend_words(table.rules.friend_types),
        )
    return form


def friend_player(friend: Friend, boss: str) -> str | None:
    """Return the real friend's name, or None for a declared none or a self friend.

    None too for a card call whose player is not known yet (a dry run's unfinished tricks).
    """
    player = friend.get("player") or friend.get("first_trick")
    return None if player is None or player == boss else player
