"""No code in a sentence: the rules' messages and explanations name house rules by their labels,
cards as players write them (♠A, the joker by its name), and counts without "(s)".

The templates are read the way the catalogs are extracted (the Makefile's keywords), so a new
message template is checked without being listed here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.frontend import parse_keywords
from flask_babel import force_locale

from refapp.games import GAMES
from refapp.games import dalmuti as dalmuti_rules
from refapp.games.errors import Refusal, fill
from refapp.games.game import Account
from refapp.games.mighty.bidding.friend import FRIEND_WORDS
from refapp.games.mighty.bidding.friend_card import check_friend_card_held
from refapp.games.mighty.explain.hand import say_contract
from refapp.games.mighty.house_rules.rules import MightyRules

ROOT = Path(__file__).resolve().parent.parent
GAMES_CODE = ROOT / "refapp" / "games"

#: a card code as the input writes it: SA, H10, JK
CARD_CODE = re.compile(r"\b(?:[SHDC](?:A|K|Q|J|10|[2-9])|JK)\b")
#: a placeholder of either style
PLACEHOLDER = re.compile(r"\{[a-z_0-9]+\}|%\([a-z_]+\)[sd]")
#: messages that teach the notation a player types: they may show codes ("e.g. 'H10'")
TEACHES_NOTATION = re.compile(r"e\.g\.|for the joker")
#: messages about the shape of an API body: they name its keys, which the client sends
API_SHAPES = (
    'friend must be one of {{"card": C, "player": P}}, {{"none": true}} or '
    '{{"first_trick": P}}, not {value}.',
)


def keywords() -> dict:
    """Return the extraction keywords the Makefile gives pybabel."""
    line = next(
        text
        for text in (ROOT / "Makefile").read_text().splitlines()
        if text.startswith("KEYWORDS :=")
    )
    names = re.findall(r"-k (\S+)", line)
    from babel.messages.extract import DEFAULT_KEYWORDS

    return {**DEFAULT_KEYWORDS, **parse_keywords(names)}


def templates() -> list[str]:
    """Return every message template of the games' Python code, each form of a plural too.

    Earlier versions' explanation words (``words_before.py``) are left out: rounds stored with
    them keep their English as written, and tests/test_words_render.py checks their translations.
    """
    found: list[str] = []
    for path in sorted(GAMES_CODE.rglob("*.py")):
        if path.name == "words_before.py":
            continue
        for _line, message, _comments, _context in extract_from_file(
            "python", str(path), keywords=keywords()
        ):
            found.extend(message if isinstance(message, tuple) else [message])
    return [text for text in found if text]


TEMPLATES = templates()
OPTION_KEYS = sorted(
    {option.key for game in GAMES.values() for option in game.options if "_" in option.key}
)


def test_the_scan_reads_the_games_templates():
    """The scan finds the rules' messages and explanations, so an empty list cannot pass."""
    assert len(TEMPLATES) > 300
    assert "No tax this hand ({why_t})." in TEMPLATES


@pytest.mark.parametrize("key", OPTION_KEYS)
def test_no_template_names_a_house_rule_by_its_key(key):
    naming = [text for text in TEMPLATES if re.search(rf"\b{key}\b", PLACEHOLDER.sub("", text))]
    assert naming == []


def test_no_template_counts_with_a_bracketed_plural():
    assert [text for text in TEMPLATES if "(s)" in text] == []


def test_cards_in_templates_only_where_the_notation_is_taught():
    coded = [
        text
        for text in TEMPLATES
        if CARD_CODE.search(PLACEHOLDER.sub("", text))
        and not TEACHES_NOTATION.search(text)
        and text not in API_SHAPES
    ]
    assert coded == []


def test_no_template_names_an_input_path():
    """A dotted input path (friend.player) or a snake_case key stays in the body's ``field``."""
    pathlike = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+\.[a-z_]+\b")
    named = [
        text
        for text in TEMPLATES
        if pathlike.search(PLACEHOLDER.sub("", text).replace("e.g.", ""))
        and text not in API_SHAPES
        and "send friend.player or friend.kitty" not in text
    ]
    assert named == []


def test_the_no_tax_reasons_name_their_rules_by_label():
    labels = {option.key: option.label for option in GAMES["dalmuti"].options}
    assert f"“{labels['tax']}”" in dalmuti_rules.NO_TAX_RULE
    assert f"“{labels['tax_first_hand']}”" in dalmuti_rules.NO_TAX_FIRST_HAND


def test_the_friend_words_cover_every_way_to_name_a_friend():
    option = next(o for o in GAMES["mighty"].options if o.key == "friend_types")
    assert set(FRIEND_WORDS) == set(option.choices)


@pytest.mark.parametrize(("language", "joker"), [("en", "Joker"), ("ko", "조커")])
def test_a_refusal_names_the_joker_in_the_readers_language(app, language, joker):
    forbidden = MightyRules({"friend_card_in_own_hand": "forbidden"})
    with app.test_request_context(), force_locale(language):
        with pytest.raises(Refusal) as caught:
            check_friend_card_held(forbidden, {"card": "JK", "kitty": True}, None)
        message = caught.value.message
    assert joker in message and "JK" not in message


def test_a_refusal_lists_the_friend_ways_in_words(api, client):
    sid = api.create(players=["Ann", "Ben", "Cy", "Dee", "Eve"], game="mighty")["id"]
    hand = {
        "contract": {"boss": "Ann", "bid": 15, "trump": "H"},
        "friend": {"first_trick": "Ben"},
        "opposition_points": 5,
    }
    body = client.post(f"/api/sessions/{sid}/rounds", json=hand).get_json()
    assert body["error"]["code"] == "friend_type_not_allowed"
    assert body["error"]["field"] == "friend.first_trick"
    assert body["error"]["message"] == (
        "This table does not allow the first-trick friend (초구 프렌드): its house rule “Ways "
        "to name the friend” allows only calling a card, declaring no friend (노 프렌드)."
    )


def test_an_explanation_writes_cards_as_players_do_in_every_language(app):
    hand = {
        "contract": {"boss": "Ann", "bid": 15, "trump": "H"},
        "friend": {"card": "JK", "player": "Ben"},
    }
    account = Account()
    say_contract(account, hand)
    assert account.lines == ["Ann is the boss with 15 hearts; friend: Ben, who holds Joker."]
    with app.test_request_context(), force_locale("ko"):
        korean = fill(*account.parts[0])
    assert "조커" in korean and "JK" not in korean and "Joker" not in korean


def test_fill_formats_a_face_and_a_word_list(app):
    from refapp.games.mighty.cards import Face
    from refapp.games.words import Words

    with app.test_request_context(), force_locale("ko"):
        text = fill("{card} / {ways_t}", {"card": Face("JK"), "ways_t": Words(["Joker", "SA"])})
    assert text == "조커 / 조커, SA"


@pytest.mark.parametrize(("language", "words"), [("en", "Joker ♠A"), ("ko", "조커 ♠A")])
def test_pages_have_a_filter_for_a_card_in_a_sentence(app, language, words):
    with app.test_request_context(), force_locale(language):
        shown = app.jinja_env.from_string("{{ 'JK' | mighty_card }} {{ 'SA' | mighty_card }}")
        assert shown.render() == words
