"""The forms' own refusals speak in the app's voice: each names its field, in the reader's language.

WTForms' defaults ("Not a valid choice.", "올바르지 않은 선택값입니다.") never reach a page: a
value a select does not offer is refused with the field's label and the app's sentence.
"""

from __future__ import annotations

import html

import pytest
from flask_babel import force_locale, gettext

from .conftest import shown
from .test_web_mighty import hand_fields

#: WTForms' own words, in English and in its Korean and Hungarian translations
WTFORMS_WORDS = (
    "Not a valid choice",
    "This field is required",
    "Not a valid integer",
    "올바르지 않은",
    "필수 항목",
    "Érvénytelen",
    "Nem érvényes",
    "Ez a mező kötelező",
)


def expected(app, language: str, label: str) -> str:
    """Return the app's sentence for a choice the field does not offer, as the page shows it."""
    with app.test_request_context(), force_locale(language):
        return gettext("%(field)s: pick one of the choices.", field=gettext(label))


def posted(client, language: str, sid: int, data: dict) -> str:
    """Post a round form in a language and return the refused page's text."""
    client.set_cookie("lang", language)
    response = client.post(f"/sessions/{sid}/rounds", data=data)
    assert response.status_code == 422
    return html.unescape(shown(response))


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_a_choice_the_dixit_form_does_not_offer_names_the_storyteller_field(
    client, api, app, language
):
    sid = api.create(players=["Ann", "Ben", "Cy", "Dee"], game="dixit")["id"]
    data = {"storyteller": "Zed", "pos_1": "Ann", "pos_2": "Ben", "pos_3": "Cy", "pos_4": "Dee"}
    page = posted(client, language, sid, data)
    block = page.split('name="storyteller"')[1].split("</fieldset>")[0]
    assert expected(app, language, "Storyteller") in block
    assert not any(words in page for words in WTFORMS_WORDS)


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_a_choice_the_dalmuti_form_does_not_offer_names_the_field(client, api, app, language):
    sid = api.create(players=["Ann", "Ben", "Cy", "Dee", "Eve"], game="dalmuti")["id"]
    page = posted(client, language, sid, {"revolution_kind": "sideways"})
    assert expected(app, language, "Which revolution?") in page
    assert not any(words in page for words in WTFORMS_WORDS)


def test_the_korean_sentence_is_translated(client, api, app):
    """The app's sentence and the field's label are both in Korean, not English."""
    english = expected(app, "en", "Storyteller")
    korean = expected(app, "ko", "Storyteller")
    assert korean != english and "Storyteller" not in korean and "pick one" not in korean


def test_a_mighty_count_that_is_not_a_number_names_the_point_cards_in_words(client, api):
    """A count the form cannot read is refused in words naming the field, quoting the input."""
    sid = api.create(players=["Ann", "Ben", "Cy", "Dee", "Eve"], game="mighty")["id"]
    page = posted(client, "en", sid, hand_fields(opposition_points="lots"))
    assert (
        'data-field="opposition_points">The opposition\'s point cards are a whole number '
        "from 0 to 20, not 'lots'." in page
    )
    assert "opposition_points must" not in page
