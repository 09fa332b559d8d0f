"""Dixit's presets (docs/API.md, Dixit), and what every game's presets share: a default first, a
label and a one-line description in every language, values the game's options accept."""

from __future__ import annotations

import re

import pytest
from flask_babel import force_locale, gettext

from refapp.games import GAMES
from refapp.games.dixit import Dixit
from refapp.games.errors import Refusal

GAME = Dixit()
HANGUL = re.compile(r"[\uac00-\ud7a3]")
PRESETS = [
    pytest.param(game, preset, id=f"{slug}.{preset.key}")
    for slug, game in GAMES.items()
    for preset in game.presets
]


def test_classic_is_the_default_and_odyssey_allows_two_votes():
    assert [preset.key for preset in GAME.presets] == ["classic", "odyssey"]
    assert GAME.default_preset == "classic"
    odyssey = GAME.resolve_rules({}, "odyssey")
    assert odyssey["two_votes_large_game"] is True
    assert GAME.player_range(odyssey) == (3, 12)
    assert GAME.rules_changed(odyssey) == ["two_votes_large_game"]
    assert GAME.rules_changed(odyssey, "odyssey") == []
    assert GAME.resolve_rules({"two_votes_large_game": False}, "odyssey") == GAME.resolve_rules({})
    assert GAME.rules_changed(GAME.resolve_rules({}), "odyssey") == ["two_votes_large_game"]


def test_an_unknown_preset_is_invalid_rules():
    with pytest.raises(Refusal) as caught:
        GAME.resolve_rules({}, "base")
    assert (caught.value.code, caught.value.field) == ("invalid_rules", "preset")
    assert "classic, odyssey" in caught.value.message


def test_bad_rules_are_refused_with_a_preset_too():
    for rules, field in (([], "rules"), ({"nope": 1}, "rules.nope")):
        with pytest.raises(Refusal) as caught:
            GAME.resolve_rules(rules, "odyssey")
        assert (caught.value.code, caught.value.field) == ("invalid_rules", field)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_game_defaults_to_its_first_preset_which_changes_nothing(slug):
    game = GAMES[slug]
    assert game.presets and game.default_preset == game.presets[0].key
    assert not game.presets[0].rules
    assert len({preset.key for preset in game.presets}) == len(game.presets)


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_every_preset_resolves_and_differs_only_where_it_says(game, preset):
    rules = game.resolve_rules({}, preset.key)
    defaults = game.resolve_rules({})
    assert {key: rules[key] for key in preset.rules} == dict(preset.rules)
    assert set(game.rules_changed(rules)) <= set(preset.rules)
    assert game.rules_changed(defaults, preset.key) == game.rules_changed(rules)


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_every_preset_has_words_in_every_language(app, game, preset, language):
    with app.test_request_context(), force_locale(language):
        for english in (preset.label, preset.description):
            text = gettext(english)
            assert text.strip() and "_" not in text, (preset.key, language)
            if language != "en":
                assert text != english, (preset.key, language, english)
            if language == "ko":
                assert HANGUL.search(text), (preset.key, text)
    assert "\n" not in preset.description and preset.description.endswith(".")
