"""Presets in a real browser at phone size (CSRF on): in English, Korean and Hungarian a Mighty
session starts from the online preset with one changed rule through the new-session form (the
page's script refilling the untouched fields when the preset changes), and neither the form nor
the session page shows a code name to the players. The form with its rule groups closed stays
under one and a half screens."""

from __future__ import annotations

import re

import pytest

from refapp.games import GAMES

from . import browser_support

# the shared fixtures, brought into this module so that its tests can ask for them
chromium, live_csrf, table_phone = (
    browser_support.chromium,
    browser_support.live_csrf,
    browser_support.table_phone,
)

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]
SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
#: every code name a player must not read: option keys, preset keys and choice values with "_"
CODES = sorted(
    {option.key for game in GAMES.values() for option in game.options if "_" in option.key}
    | {preset.key for game in GAMES.values() for preset in game.presets if "_" in preset.key}
    | {
        str(choice)
        for game in GAMES.values()
        for option in game.options
        for choice in option.choices
        if "_" in str(choice)
    }
)


def speak(phone, language: str) -> None:
    """Pick the page language with the picker's cookie."""
    phone.page.context.add_cookies([{"name": "lang", "value": language, "url": phone.base}])


def assert_no_codes(phone, where: str) -> None:
    """Assert the visible text holds no code name (open every details first)."""
    phone.page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    text = phone.page.evaluate("document.body.innerText")
    found = [code for code in CODES if code in text] + SNAKE.findall(text)
    assert found == [], f"{where} shows code names: {found}"


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_a_session_from_a_preset_with_one_change(table_phone, language):
    phone = table_phone
    speak(phone, language)
    page = phone.open("/sessions/new?game=mighty")
    assert page.evaluate("document.documentElement.lang") == language
    page.fill("#players", "\n".join(PLAYERS))
    # the form starts at the default preset; choosing online refills the untouched fields
    assert page.locator("input[name=preset][value=korean_wiki]").is_checked()
    assert page.locator("#rule_critic").input_value() == "ruling_plus_one"
    page.locator("input[name=preset][value=online]").check()
    assert page.locator("#rule_critic").input_value() == "win"
    assert page.locator("input[name=filled_from]").input_value() == "online"
    # one change, in the scoring group (closed until tapped)
    scoring = page.locator("details.rule-group", has=page.locator("#rule_critic"))
    assert not scoring.evaluate("node => node.open")
    scoring.locator("summary").click()
    page.select_option("#rule_critic", "draw")
    assert_no_codes(phone, f"the new-session form ({language})")
    phone.tap("form.new-session > button[type=submit]")
    sid = phone.session_id()
    session = phone.session(sid)
    assert session["preset"] == "online" and session["rules_changed"] == ["critic"]
    assert session["rules"]["critic"] == "draw" and session["rules"]["win_formula"] == "pagat"
    line = page.locator("#rules .preset-line").inner_text()
    words = {"en": "1 change", "ko": "변경 1개", "hu": "1 módosítással"}[language]
    assert words in line, line
    assert not page.locator("details.rules-all").evaluate("node => node.open")
    assert_no_codes(phone, f"the session page ({language})")


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_the_mighty_form_fits_in_one_and_a_half_screens(table_phone, language):
    phone = table_phone
    speak(phone, language)
    page = phone.open("/sessions/new?game=mighty")
    assert page.evaluate("Array.from(document.querySelectorAll('details')).every(d => !d.open)")
    height = page.evaluate("document.body.scrollHeight")
    screen = page.viewport_size["height"]
    assert height < 1.5 * screen, f"{language}: {height}px for a {screen}px screen"


def test_a_changed_field_survives_a_preset_change(table_phone):
    phone = table_phone
    page = phone.open("/sessions/new?game=mighty")
    page.locator("details.rule-group", has=page.locator("#rule_min_bid")).locator("summary").click()
    page.fill("#rule_min_bid", "12")
    page.locator("input[name=preset][value=online]").check()
    assert page.locator("#rule_min_bid").input_value() == "12"
    assert page.locator("#rule_critic").input_value() == "win"
    page.locator("input[name=preset][value=korean_wiki]").check()
    assert page.locator("#rule_critic").input_value() == "ruling_plus_one"
    assert page.locator("#rule_min_bid").input_value() == "12"
