"""How a Mighty hand's stored values read in the history: trumps, holders and cards by name."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import pgettext

from ....web.path_words import shown
from ..cards import JOKER, card_face
from . import blueprint
from .words import HOLDER_LABELS, TRUMP_LABELS


def card_value(card: object) -> str:
    """Write a Mighty card as the pages do: "♠A", "♥10", the joker by its name."""
    if card == JOKER:
        return str(pgettext("card in a sentence", "Joker"))
    return card_face(card) if isinstance(card, str) and card else shown(card)


def cards_value(value: object) -> str:
    """Write a list of Mighty cards as the pages do."""
    if not isinstance(value, list):
        return card_value(value)
    return ", ".join(card_value(card) for card in value) or _("nothing")


def trump_value(value: object) -> str:
    """Write a trump or suit code by its label ("♥ Hearts", "No-trump (노기루다)")."""
    if isinstance(value, str) and value in TRUMP_LABELS:
        return str(TRUMP_LABELS[value])
    return shown(value)


def holder_value(value: object) -> str:
    """Write who held the mighty or the joker ("Friend (프렌드)"), not its code."""
    if isinstance(value, str) and value and value in HOLDER_LABELS:
        return str(HOLDER_LABELS[value])
    return shown(value)


#: the words of each kind of value a Mighty hand's input declares
VALUE_WORDS = {
    "card": card_value,
    "cards": cards_value,
    "trump": trump_value,
    "holder": holder_value,
}

#: a card in a page's sentence as players write it: ``{{ card | mighty_card }}`` (♠A, 조커)
blueprint.add_app_template_filter(card_value, "mighty_card")
