"""The "How we score" page: a session's house rules in sentences, reachable from the session."""

from __future__ import annotations

import re

import pytest

from refapp.games import GAMES
from refapp.games.game import Table

from .conftest import shown

PLAYERS = {
    "dixit": ["Ann", "Ben", "Cy", "Dee"],
    "dalmuti": ["Ann", "Ben", "Cy", "Dee", "Eve"],
    "mighty": ["Ann", "Ben", "Cy", "Dee", "Eve"],
}


@pytest.mark.parametrize("slug", sorted(PLAYERS))
def test_the_session_page_links_to_how_we_score(api, client, slug):
    """Both the rules card and the session's links lead to the page."""
    created = api.create(PLAYERS[slug], game=slug)
    page = client.get(f"/sessions/{created['id']}").get_data(as_text=True)
    assert page.count(f'href="/sessions/{created["id"]}/how-we-score"') == 2


@pytest.mark.parametrize("slug", sorted(PLAYERS))
@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_how_we_score_says_every_topic_in_words(api, client, slug, language):
    """Every topic the game gives is a heading with sentences, and no option key is shown."""
    created = api.create(PLAYERS[slug], game=slug)
    response = client.get(
        f"/sessions/{created['id']}/how-we-score", headers={"Accept-Language": language}
    )
    assert response.status_code == 200
    text = re.sub(r"<[^>]+>", " ", shown(response))
    game = GAMES[slug]
    table_sections = game.how_we_score(
        game.with_house_rules(Table(tuple(created["players"]), created["rules"]))
    )
    assert len(table_sections) >= 3 and all(said.lines for _, said in table_sections)
    assert shown(response).count("<h2>") == len([topic for topic, _ in table_sections if topic])
    for option in game.options:  # a one-word key (tax, critic) is also a word of the game
        if "_" in option.key:
            assert option.key not in text, option.key
    sentences = re.findall(r"<li>(.*?)</li>", shown(response), re.S)
    assert len(sentences) == sum(len(said.lines) for _, said in table_sections)
    if language == "ko":
        assert all(re.search("[가-힣]", sentence) for sentence in sentences)
    if language == "hu":
        english = {line for _, said in table_sections for line in said.lines}
        assert not english & set(sentences)


def test_how_we_score_of_a_missing_session_is_404(client):
    """No such session: not found, not a 500."""
    assert client.get("/sessions/999999/how-we-score").status_code == 404
