"""A round's input paths and values in the reader's language, for the history of changes.

The rules name what changed by input path ("contract.trump", "tribute.greater_peasant",
"votes.Dee"); this table turns each path of the three games into words ("Trump (기루다) of the
contract", "Tribute cards of the Greater Peasant", "Dee's vote") and each coded value into what
the pages show (a trump's label, a card's face, a holder, a revolution's kind). It lives in the
web layer so that the rules stay free of Flask. Player names are data: they are never
translated and always isolated in <bdi>. A path the table does not know reads as
``Game.describe_path`` says (as before), never an error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape

from ..games.dalmuti import ROLES
from ..games.game import Game
from ..games.mighty.cards import JOKER
from ..games.mighty.table_view import card_face
from ..i18n import bdi, bdi_join
from .games.dalmuti import role_title
from .games.mighty import HOLDER_LABELS, TRUMP_LABELS

#: what a path's placeholder matches: a player's name (any text), a number from 1, a role code
PLACES = {"player": ".+", "n": "[0-9]+", "m": "[0-9]+", "role": "|".join(ROLES)}


@dataclass(frozen=True)
class PathWords:
    """One path pattern of a game's input, the words that name it and the kind of its value."""

    pattern: re.Pattern[str]
    template: Any  # a lazy-translated template with %(player)s, %(n)s, %(role)s ...
    kind: str = "plain"


def path(spec: str, template: Any, kind: str = "plain") -> PathWords:
    """Return the words of a path written as "votes.{player}" or "bidding.{n}.trump"."""
    parts = []
    for segment in spec.split("."):
        name = segment[1:-1] if segment.startswith("{") and segment.endswith("}") else None
        parts.append(f"(?P<{name}>{PLACES[name]})" if name else re.escape(segment))
    return PathWords(re.compile(r"\.".join(parts)), template, kind)


# The more specific pattern of a prefix comes first: the first that matches names the path.
WORDS: dict[str, tuple[PathWords, ...]] = {
    "dixit": (
        path("storyteller", _l("Storyteller"), "name"),
        path("positions", _l("Who laid cards 1, 2, 3, ..."), "names"),
        path("positions.{n}", _l("Owner of card %(n)s"), "name"),
        path("votes", _l("Votes")),
        path("votes.{player}.{n}", _l("%(player)s's vote no. %(n)s")),
        path("votes.{player}", _l("%(player)s's vote")),
    ),
    "mighty": (
        path("dealer", _l("Dealer (딜러)"), "name"),
        path("bidding", _l("Auction (경매)")),
        path("bidding.{n}.player", _l("Bidder at auction turn %(n)s"), "name"),
        path("bidding.{n}.bid", _l("Count bid at auction turn %(n)s")),
        path("bidding.{n}.trump", _l("Trump (기루다) bid at auction turn %(n)s"), "trump"),
        path("bidding.{n}.pass", _l("Pass (패스) at auction turn %(n)s")),
        path("all_pass", _l("Everyone passed (모두 패스)")),
        path("contract.boss", _l("Boss (주공)"), "name"),
        path("contract.bid", _l("Count of the contract (공약)")),
        path("contract.trump", _l("Trump (기루다) of the contract"), "trump"),
        path("friend.card", _l("Friend card"), "card"),
        path("friend.player", _l("Friend (프렌드)"), "name"),
        path("friend.first_trick", _l("Friend (프렌드) as the winner of trick 1"), "name"),
        path("friend.none", _l("No friend (노 프렌드)")),
        path("friend.kitty", _l("Friend card in the kitty (바닥패)")),
        path("opposition_points", _l("Opposition's point cards (야당 점수카드)")),
        path("mighty_holder", _l("Mighty (마이티) ended with"), "holder"),
        path("joker_holder", _l("Joker (조커) ended with"), "holder"),
        path("misdeal.player", _l("Player who declared the misdeal (파토)"), "name"),
        path("misdeal.hand", _l("Misdeal (파토) hand"), "cards"),
        path("tricks", _l("Tricks")),
        path("tricks.{n}", _l("Trick %(n)s")),
        path("tricks.{n}.{m}.player", _l("Player of card %(m)s in trick %(n)s"), "name"),
        path("tricks.{n}.{m}.card", _l("Card %(m)s in trick %(n)s"), "card"),
        path("tricks.{n}.{m}.suit", _l("Suit the joker named in trick %(n)s"), "trump"),
        path("tricks.{n}.{m}.call", _l("Joker call (조커콜) in trick %(n)s")),
    ),
    "dalmuti": (
        path("finish_order", _l("Finishing order"), "names"),
        path("tribute", _l("Tribute")),
        path("tribute.{role}", _l("Tribute cards of the %(role)s")),
        path("revolution", _l("Revolution")),
        path("revolution.player", _l("Player who declared the revolution"), "name"),
        path("revolution.kind", _l("Kind of revolution"), "revolution"),
        path("hands", _l("Hands as dealt")),
        path("hands.{player}", _l("%(player)s's hand as dealt")),
        path("merchant_trades", _l("Merchants' swaps (house rule)"), "names"),
        path("merchant_trades.{n}", _l("Merchants' swap %(n)s"), "names"),
    ),
}


def fill(template: Any, **values: Any) -> Markup:
    """Fill a translated template: its words escaped, each value escaped unless it is Markup."""
    return escape(str(template)) % values


def words_of(game: Game, where: str) -> tuple[PathWords, dict[str, str]] | None:
    """Return the words of a game's input path and the placeholders' text, or None if unknown."""
    for words in WORDS.get(game.slug, ()):
        found = words.pattern.fullmatch(where)
        if found:
            return words, found.groupdict()
    return None


def describe_path(game: Game, where: str) -> Markup:
    """Name an input path in the reader's language: "Dee's vote", "Boss (주공)"."""
    known = words_of(game, where)
    if known is None:
        return escape(game.describe_path(where))  # a path no table knows reads as before
    words, places = known
    values: dict[str, Any] = dict(places)
    if "player" in places:
        values["player"] = bdi(places["player"])
    if "role" in places:
        values["role"] = role_title(places["role"])
    return fill(words.template, **values)


# -- values as a player reads them --------------------------------------------------------------


def shown(value: Any) -> str:
    """Write a stored value briefly, as a player would read it."""
    if value is None:
        return _("nothing")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(shown(item) for item in value) or _("nothing")
    if isinstance(value, (int, float, str)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def names(values: Any) -> str:
    """Write a list of player names, or "nobody"."""
    if not isinstance(values, list):
        return shown(values) if values else _("nobody")
    return ", ".join(map(str, values)) or _("nobody")


def card_words(card: Any) -> str:
    """Write a Mighty card as the pages do: "♠A", "♥10", the joker by its name."""
    if card == JOKER:
        return _("Joker")
    return card_face(card) if isinstance(card, str) and card else shown(card)


def name_words(value: Any) -> Markup | str:
    """Isolate one player's name (a list of names: each one)."""
    if isinstance(value, list):
        return names_words(value)
    return bdi(value) if isinstance(value, str) else shown(value)


def names_words(value: Any) -> Markup | str:
    """Write player names, each isolated, or "nobody"."""
    if not isinstance(value, list):
        return name_words(value) if value else _("nobody")
    if not all(isinstance(name, str) for name in value):
        return shown(value)
    return bdi_join(value) if value else _("nobody")


def trump_words(value: Any) -> str:
    """Write a trump or suit code by its label ("♥ Hearts", "No-trump (노기루다)")."""
    return (
        str(TRUMP_LABELS[value])
        if isinstance(value, str) and value in TRUMP_LABELS
        else shown(value)
    )


def holder_words(value: Any) -> str:
    """Write who held the mighty or the joker ("Friend (프렌드)"), not its code."""
    if isinstance(value, str) and value and value in HOLDER_LABELS:
        return str(HOLDER_LABELS[value])
    return shown(value)


def revolution_words(value: Any) -> str:
    """Write a revolution's kind in words."""
    if value == "greater":
        return _("Greater revolution")
    if value == "plain":
        return _("Plain revolution")
    return shown(value)


def cards_words(value: Any) -> str:
    """Write a list of Mighty cards as the pages do."""
    if not isinstance(value, list):
        return card_words(value)
    return ", ".join(card_words(card) for card in value) or _("nothing")


VALUES: dict[str, Callable[[Any], Markup | str]] = {
    "plain": shown,
    "name": name_words,
    "names": names_words,
    "trump": trump_words,
    "holder": holder_words,
    "revolution": revolution_words,
    "card": card_words,
    "cards": cards_words,
}


def describe_value(game: Game, where: str, value: Any) -> Markup | str:
    """Write the value stored at an input path as a player reads it (names isolated)."""
    if value is None:
        return _("nothing")
    known = words_of(game, where)
    return VALUES[known[0].kind if known else "plain"](value)
