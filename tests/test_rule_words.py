"""Every house rule speaks the player's language: a name, a topic, a sentence and words for each
choice, in English, Korean and Hungarian, with no code (option key or value) in sight.

The keys and values stay English codes in forms' ``name=``/``value=`` attributes and in the API;
what a player reads never shows them.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from flask_babel import force_locale, gettext

from refapp.games import GAMES
from refapp.games.options import RuleOption
from refapp.i18n import rule_groups, rule_label, rule_value

LANGUAGES = ("en", "ko", "hu")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
#: (language, English text) whose translation rightly reads the same as the English
SAME_AS_ENGLISH: set[tuple[str, str]] = set()
#: (language, word) a translation may use although an option key or value is spelled so:
#: Hungarian Mighty tables say "run" (the seed's 런) as English ones do
#: choice values that are also the word a language reads (Hungarian names the cards "mighty" and
#: "joker", the values of ``friend_forbidden``)
WORDS_IN_USE = {("hu", "run"), ("hu", "mighty"), ("hu", "joker")}

OPTIONS = [
    pytest.param(option, id=f"{slug}.{option.key}")
    for slug, game in GAMES.items()
    for option in game.options
]

#: every game's topics of house rules, (key, words)
TOPICS = {key: words for game in GAMES.values() for key, words in game.topics.items()}


def is_code(word: str) -> bool:
    """Return True for a key or value no player says: snake_case, digits, a card, a site's name."""
    return "_" in word or any(ch.isdigit() for ch in word) or word.isupper() or word == "pagat"


def codes(option: RuleOption) -> set[str]:
    """Return the option's key and choice values that must never be read."""
    return {word for word in (option.key, *map(str, option.choices)) if is_code(word)}


#: the app's card notation (SA, H10, JK): option values are cards, and pages write cards so too
CARD = re.compile(r"[SHDC](?:[AKQJ]|10|[2-9])|JK")


def every_code(cards: bool = True) -> set[str]:
    """Every code of every game (on pages, without cards: a round form writes cards as codes)."""
    found = {code for game in GAMES.values() for option in game.options for code in codes(option)}
    return found if cards else {code for code in found if not CARD.fullmatch(code)}


def every_word(cards: bool = True) -> set[str]:
    """Every key and choice value, codes and plain English words alike (unread in ko and hu)."""
    found = {
        str(word)
        for game in GAMES.values()
        for option in game.options
        for word in (option.key, *option.choices)
    }
    return found if cards else {word for word in found if not CARD.fullmatch(word)}


def shown_codes(text: str, language: str, words: set[str]) -> list[str]:
    """Return the codes (any key or value outside English) that appear in text as whole words."""
    found = SNAKE.findall(text)
    for word in words:
        if (language, word) not in WORDS_IN_USE and re.search(rf"\b{re.escape(word)}\b", text):
            found.append(word)
    return found


def words_of(option: RuleOption) -> list[tuple[str, str]]:
    """Return (what, English text) for everything a player reads about the option."""
    found = [
        ("label", option.label),
        ("description", option.description),
        ("group", TOPICS.get(option.group, "")),
    ]
    pairs = zip(option.choices, option.choice_labels, strict=True)
    found += [(f"choice {value}", words) for value, words in pairs]
    return found


def topics_of(option) -> dict[str, str]:
    """Return the topics of the game the option belongs to."""
    return next(dict(game.topics) for game in GAMES.values() if option in game.options)


@pytest.mark.parametrize("option", OPTIONS)
def test_every_option_has_a_name_a_topic_and_words_for_each_choice(option):
    assert option.label, option.key
    assert option.group in topics_of(option), f"{option.key}: its game has no {option.group}"
    if option.kind in ("choice", "choices"):
        assert len(option.choice_labels) == len(option.choices), option.key
        assert len(set(option.choice_labels)) == len(option.choice_labels), option.key
    else:
        assert option.choice_labels == (), option.key


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("option", OPTIONS)
def test_option_words_are_translated_and_free_of_codes(app, option, language):
    words = every_code() if language == "en" else every_word()
    with app.test_request_context(), force_locale(language):
        for what, english in words_of(option):
            text = gettext(english)
            assert text.strip(), f"{option.key} {what} is empty in {language}"
            if language != "en" and (language, english) not in SAME_AS_ENGLISH:
                assert text != english, f"{option.key} {what} is not translated to {language}"
            if language == "ko":
                assert HANGUL.search(text), f"{option.key} {what} has no Korean: {text}"
            assert shown_codes(text, language, words) == [], f"{language} {what}: {text}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_topic_is_named_in_every_language(app, language):
    with app.test_request_context(), force_locale(language):
        for key, english in TOPICS.items():
            text = gettext(english)
            assert text.strip() and SNAKE.search(text) is None, key
            if language != "en":
                assert text != english or (language, english) in SAME_AS_ENGLISH, key


def test_values_read_as_words_in_the_readers_language(app):
    mighty, dalmuti, dixit = GAMES["mighty"], GAMES["dalmuti"], GAMES["dixit"]
    misdeal = next(o for o in mighty.options if o.key == "misdeal")
    friends = next(o for o in mighty.options if o.key == "friend_types")
    removed = next(o for o in dalmuti.options if o.key == "removed_ranks")
    tax = next(o for o in dalmuti.options if o.key == "tax")
    cap = next(o for o in dixit.options if o.key == "bonus_cap")
    with app.test_request_context():
        with force_locale("en"):
            assert rule_label(misdeal) == rule_label("misdeal") == "Throw-in (파토)"
            assert rule_value(misdeal, "half_ten") == "Tens count half, below 1"
            assert rule_value(misdeal, "off") == "No misdeals"
            assert rule_value(friends, ["card", "first_trick"]) == (
                "Call a card (its holder is the friend), "
                "The winner of the first trick (초구 프렌드)"
            )
            assert rule_value(friends, []) == "none"
            assert rule_value(removed, [11, 12]) == "11, 12"
            assert rule_value(tax, True) == "yes" and rule_value(tax, False) == "no"
            assert rule_value(cap, None) == "none" and rule_value(cap, 3) == "3"
        with force_locale("ko"):
            assert rule_label(misdeal) == "파토"
            assert rule_value(misdeal, "off") == "파토 없음"
            assert rule_value(tax, True) == "예"
            assert rule_value(friends, ["card", "none"]) == (
                "카드 지정 (그 카드를 가진 사람이 프렌드), 노 프렌드 선언"
            )
        with force_locale("hu"):
            assert rule_label(tax) == "Adó (kártyacsere)"
            assert rule_value(misdeal, "point_cards") == "pontkártyák, legfeljebb 0"
            assert rule_value(cap, None) == "nincs"
            groups = [words for words, _ in rule_groups(mighty)]
            assert groups[0] == "Játékosok és osztás" and "Bedobás (gyenge lap)" in groups


class Visible(HTMLParser):
    """Collects the text a page shows: text nodes and the attributes a reader sees, not names,
    values, ids, scripts or a command to type (<code>)."""

    SHOWN = ("placeholder", "title", "aria-label", "alt", "data-confirm")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs) -> None:
        if tag in ("script", "style", "code"):
            self.hidden += 1
        self.parts.extend(value or "" for name, value in attrs if name in self.SHOWN)

    def handle_endtag(self, tag) -> None:
        if tag in ("script", "style", "code"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = Visible()
    parser.feed(html)
    return " ".join(parser.parts)


SESSIONS = {
    "dixit": {"players": ["Ann", "Ben", "Cy", "Dee"]},
    "mighty": {
        "players": ["Ann", "Ben", "Cy", "Dee", "Eve"],
        "rules": {"friend_types": ["card", "none", "first_trick"], "misdeal": "half_ten"},
    },
    "dalmuti": {"players": ["Ann", "Ben", "Cy", "Dee", "Eve"], "rules": {"removed_ranks": [12]}},
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_pages_show_rules_in_words_not_codes(app, client, api, slug, language):
    game = GAMES[slug]
    body = SESSIONS[slug]
    sid = api.create(body["players"], game=slug, rules=body.get("rules", {}))["id"]
    client.set_cookie("lang", language)
    words = every_code(cards=False) if language == "en" else every_word(cards=False)
    pages = {
        "new": client.get(f"/sessions/new?game={slug}"),
        "session": client.get(f"/sessions/{sid}"),
        "print": client.get(f"/sessions/{sid}/print"),
    }
    with app.test_request_context(), force_locale(language):
        expected = [rule_label(option) for option in game.options]
        expected += [group for group, _ in rule_groups(game)]
        chosen = {**{o.key: o.default for o in game.options}, **body.get("rules", {})}
        values = [rule_value(option, chosen[option.key]) for option in game.options]
        choices = [gettext(w) for option in game.options for w in option.choice_labels]
    for name, response in pages.items():
        assert response.status_code == 200, name
        html = response.get_data(as_text=True)
        text = visible(html)
        assert shown_codes(text, language, words) == [], f"{slug} {name} {language}"
        for label in expected if name != "print" else expected[: len(game.options)]:
            assert label in text, f"{slug} {name} {language}: {label}"
        if name == "new":
            for words_shown in choices:  # every choice's words in the select or checkboxes
                assert words_shown in text, f"{slug} {language}: {words_shown}"
            for option in game.options:  # while the form still sends the codes
                assert f'name="rule_{option.key}"' in html
        else:
            for value in values:
                assert value in text, f"{slug} {name} {language}: {value}"


def test_the_new_session_form_still_sends_codes(client):
    page = client.get("/sessions/new?game=mighty").get_data(as_text=True)
    assert '<option selected value="point_cards">Point cards, 0 or less</option>' in page
    assert 'value="first_trick"' in page and "The winner of the first trick (초구 프렌드)" in page
    client.set_cookie("lang", "ko")
    korean = client.get("/sessions/new?game=mighty").get_data(as_text=True)
    assert '<option selected value="point_cards">점수카드 기준 0점 이하</option>' in korean
