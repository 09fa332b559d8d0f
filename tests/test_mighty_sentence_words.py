"""Mighty's words inside sentences: the joker's own sentence word, a card named once.

The joker's word in a sentence is a word in the context "card in a sentence", apart from the
joker's button: it stays a ``_t`` value the installed gettext translates, also after the
explanation is stored as JSON. A forbidden friend card and the friend card that is the mighty
name the card once; one player of the opposition is "an opponent"; a misdeal's value has the
reader's decimal sign. The Korean and Hungarian page checks read the catalogs' words.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from refapp.games import errors
from refapp.games.errors import Refusal, fill
from refapp.games.mighty.bidding.friend_card import check_friend_card_allowed
from refapp.games.mighty.cards import JOKER_WORD, card_words
from refapp.games.mighty.house_rules.rules import MightyRules

from .conftest import shown

FIVE = ["Ann", "Ben", "Cy", "Dee", "Eve"]
#: a catalog with both words, as Hungarian has them: the button's and the sentence's
CATALOG = {
    "Joker": "Joker lap",
    "card in a sentence\x04Joker": "a joker",
    "x {card_t}": "y {card_t}",
}


def test_the_sentence_word_is_english_untranslated_and_its_own_word_translated(monkeypatch):
    assert f"{card_words('JK')}" == "Joker" and str(JOKER_WORD) == "Joker"
    monkeypatch.setattr(errors, "translate", lambda text: CATALOG.get(text, text))
    stored = json.loads(json.dumps([["x {card_t}", {"card_t": card_words("JK")}]]))
    assert fill(*stored[0]) == "y a joker"  # a stored explanation keeps the word's context
    assert errors.translate("Joker") == "Joker lap"  # the button keeps its label
    untranslated = {"card in a sentence\x04Joker": "card in a sentence\x04Joker"}
    monkeypatch.setattr(errors, "translate", lambda text: untranslated.get(text, text))
    with pytest.raises(Refusal) as caught:
        check_friend_card_allowed(MightyRules({"friend_forbidden": ["joker"]}), {"card": "JK"}, "H")
    assert "\x04" not in caught.value.message


@pytest.mark.parametrize(
    ("kind", "card", "trump", "said"),
    [
        ("joker", "JK", "H", "At this table the boss may not call the joker as the friend card."),
        (
            "mighty",
            "SA",
            "H",
            "At this table the boss may not call the mighty (♠A) as the friend card.",
        ),
        (
            "mighty",
            "DA",
            "S",
            "At this table the boss may not call the mighty (♦A) as the friend card.",
        ),
    ],
)
def test_a_forbidden_friend_card_is_named_once(kind, card, trump, said):
    rules = MightyRules({"friend_forbidden": [kind]})
    with pytest.raises(Refusal) as caught:
        check_friend_card_allowed(rules, {"card": card}, trump)
    assert caught.value.code == "friend_card_forbidden"
    assert caught.value.message == said


def history(client, sid: int, language: str) -> str:
    """Return a session page's text in a language, tags and entities read."""
    page = shown(client.get(f"/sessions/{sid}", headers={"Accept-Language": language}))
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_friend_card_that_is_the_mighty_is_said_once_and_the_joker_not_at_all(client, api):
    sid = api.create(players=FIVE, game="mighty")["id"]
    for card in ("SA", "JK"):
        hand = {
            "contract": {"boss": "Ann", "bid": 15, "trump": "H"},
            "friend": {"card": card, "player": "Ben"},
            "opposition_points": 3,
        }
        assert api.record(sid, hand).status_code == 201
    text = history(client, sid, "en")
    assert text.count("The friend card is the mighty itself (♠A).") == 1
    assert "itself" not in text.replace("The friend card is the mighty itself (♠A).", "")


def test_a_misdeal_value_has_the_readers_decimal_sign(client, api):
    rules = {"misdeal": "half_ten", "misdeal_at_most": 2.5}
    sid = api.create(players=FIVE, game="mighty", rules=rules)["id"]
    weak = ["HA", "HK", "D10", "S5", "S6", "C7", "C8", "H5", "H6", "D6"]  # 1 + 1 + 0.5
    assert api.record(sid, {"misdeal": {"player": "Ben", "hand": weak}}).status_code == 201
    assert "by Ben · hand worth 2.5" in history(client, sid, "en")
    hungarian = history(client, sid, "hu")
    assert "lapérték: 2,5" in hungarian and "2.5" not in hungarian


@pytest.mark.parametrize(
    ("language", "holding", "refused"),
    [
        (
            "ko",
            "프렌드: 조커를 가진 Ben",
            "이 테이블에서는 주공이 조커를 프렌드 카드로 부를 수 없어요.",
        ),
        (
            "hu",
            "nála van: a joker",
            "Ennél az asztalnál a bemondó a jokert nem hívhatja barátlapnak.",
        ),
    ],
)
def test_the_joker_reads_as_a_word_in_korean_and_hungarian(client, api, language, holding, refused):
    sid = api.create(players=FIVE, game="mighty")["id"]
    hand = {
        "contract": {"boss": "Ann", "bid": 15, "trump": "H"},
        "friend": {"card": "JK", "player": "Ben"},
        "opposition_points": 3,
    }
    assert api.record(sid, hand).status_code == 201
    text = history(client, sid, language)
    assert holding in text
    forbidden = api.create(players=FIVE, game="mighty", rules={"friend_forbidden": ["joker"]})
    response = client.post(
        f"/api/sessions/{forbidden['id']}/rounds", json=hand, headers={"Accept-Language": language}
    )
    assert response.status_code == 422
    assert response.get_json()["error"]["message"] == refused


def test_a_word_kept_with_its_context_never_shows_the_context():
    from refapp.games import errors

    shown = errors.fill("Held: {card_t}.", {"card_t": "card in a sentence\x04Joker"})
    assert shown == "Held: Joker."
