"""Presets and saved house rules on the pages: the new-session form posted as a browser would
(every field, each pre-filled with the chosen preset's value), the session page's preset
sentence, and the saved sets saved, listed, renamed, deleted and used."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from refapp.extensions import db
from refapp.models import GameSession, RuleSet

from .conftest import shown

MIGHTY = "/sessions/new?game=mighty"
PLAYERS = "Ann\nBen\nCy\nDee\nEve"


class FormFields(HTMLParser):
    """Collect what a browser would send for the page's first post form (no script run)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self.radios: dict[str, list[tuple[str, bool]]] = {}
        self.select: str | None = None
        self.option: str | None = None
        self.textarea: str | None = None
        self.done = False

    def handle_starttag(self, tag, attrs):
        if self.done:
            return
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind == "radio":
                self.radios.setdefault(name, []).append((a.get("value", ""), "checked" in a))
            elif kind == "checkbox":
                if "checked" in a:
                    self.fields.append((name, a.get("value", "on")))
            elif kind != "submit":
                self.fields.append((name, a.get("value", "")))
        elif tag == "select":
            self.select = name
        elif tag == "option" and self.select and "selected" in a:
            self.fields.append((self.select, a.get("value", "")))
        elif tag == "textarea":
            self.textarea = name
            self.fields.append((name, ""))

    def handle_data(self, data):
        if self.textarea and self.fields and self.fields[-1][0] == self.textarea:
            self.fields[-1] = (self.textarea, self.fields[-1][1] + data)

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None
        elif tag == "form":
            self.done = True


def browser_post(page: str, **changes) -> dict[str, list[str]]:
    """Return the form's fields as a browser sends them, with some replaced."""
    parser = FormFields()
    parser.feed(page)
    data: dict[str, list[str]] = {}
    for name, value in parser.fields:
        data.setdefault(name, []).append(value)
    for name, radios in parser.radios.items():
        data[name] = [value for value, checked in radios if checked]
    for name, value in changes.items():
        data[name] = value if isinstance(value, list) else [value]
    return data


def start(client, url=MIGHTY, **changes):
    """Fill the new-session form as a phone would and post it; return the response."""
    page = shown(client.get(url))
    return client.post(url, data=browser_post(page, players=PLAYERS, **changes))


def stored(app, session_id: int) -> GameSession:
    with app.app_context():
        session = db.session.get(GameSession, session_id)
        db.session.expunge(session)
        return session


def session_id(response) -> int:
    assert response.status_code == 302, shown(response)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_form_offers_presets_with_words_and_groups_closed(client):
    page = shown(client.get(MIGHTY))
    assert 'value="korean_wiki" checked' in page or "checked id" in page
    assert "Online programs" in page and "Korean wiki" in page and "the seed" not in page
    assert "most Korean online programs use" in page
    assert '<details class="rule-group">' in page and "<summary>Auction</summary>" in page
    assert "in the order they play" in page and "counter-clockwise" in page
    assert 'src="/static/presets.js?v=' in page


def test_a_preset_prefills_the_fields(client):
    page = shown(client.get(MIGHTY + "&preset=online"))
    assert '<option selected value="win">' in page  # critic: a win under online
    default = shown(client.get(MIGHTY))
    assert '<option selected value="ruling_plus_one">' in default


def test_session_from_a_preset_with_one_change(app, client):
    page = shown(client.get(MIGHTY + "&preset=online"))
    data = browser_post(page, players=PLAYERS, rule_critic="draw")
    made = session_id(client.post(MIGHTY, data=data))
    session = stored(app, made)
    assert session.preset == "online"
    assert session.rules["critic"] == "draw"
    assert session.rules["win_formula"] == "pagat"  # the preset's
    shown_page = shown(client.get(f"/sessions/{made}"))
    sentence = "Preset Online programs, with 1 change: Critic (크리틱) → A draw (nobody scores)"
    assert sentence in shown_page
    assert '<details class="rules-all">' in shown_page
    assert client.get(f"/api/sessions/{made}").get_json()["rules_changed"] == ["critic"]


def test_choosing_a_preset_without_the_script_keeps_its_rules(app, client):
    """Fields still at the first fill (Korean wiki) are not changes when online is chosen."""
    made = session_id(start(client, preset="online", rule_min_bid="12"))
    session = stored(app, made)
    assert session.preset == "online"
    assert session.rules["critic"] == "win" and session.rules["min_bid"] == 12
    page = shown(client.get(f"/sessions/{made}"))
    assert "Preset Online programs, with 1 change: Lowest bid → 12" in page
    printed = shown(client.get(f"/sessions/{made}/print"))
    assert "Preset Online programs, with 1 change: Lowest bid → 12" in printed


def test_no_change_says_so(client):
    made = session_id(start(client))
    page = shown(client.get(f"/sessions/{made}"))
    assert "Preset Korean wiki, no changes" in page


def test_a_refused_rule_stands_by_its_field(client):
    response = start(client, rule_min_bid="99")
    assert response.status_code == 422
    page = shown(response)
    assert "Lowest bid" in page and 'role="alert"' in page
    assert '<details class="rule-group" open>' in page


def test_an_unknown_preset_is_refused(client):
    response = start(client, preset="chess")
    assert response.status_code == 422
    assert "Choose one of the presets or saved rules." in shown(response)


def test_save_list_rename_use_and_delete_a_set(app, client):
    page = shown(client.get(MIGHTY + "&preset=online"))
    data = browser_post(page, players="", rule_min_bid="12", set_name="Friday club")
    saved = client.post("/rule-sets/save?game=mighty", data=data)
    assert saved.status_code == 200, shown(saved)
    again = shown(saved)
    assert "The rules are saved as Friday club." in again
    assert 'value="saved:Friday club" checked' in again or "Saved: Friday club" in again
    with app.app_context():
        kept = db.session.query(RuleSet).one()
        assert (kept.name, kept.game, kept.preset) == ("Friday club", "mighty", "online")
        assert kept.rules == {"min_bid": 12}

    listing = shown(client.get("/rule-sets"))
    assert "Friday club" in listing and "Lowest bid → 12" in listing
    assert "Preset Online programs" in listing
    assert "/rule-sets" in shown(client.get("/"))

    renamed = client.post("/rule-sets/rename", data={"name": "Friday club", "new_name": "Club"})
    assert renamed.status_code == 302
    listing = shown(client.get("/rule-sets"))
    assert "Renamed Friday club to Club." in listing
    assert "<h2>Club</h2>" in listing and "<h2>Friday club</h2>" not in listing

    form = shown(client.get(MIGHTY))
    assert "Saved: Club" in form
    made = session_id(start(client, preset="saved:Club", rule_critic="draw"))
    session = stored(app, made)
    assert session.preset == "online"
    assert session.rules["min_bid"] == 12 and session.rules["critic"] == "draw"
    page = shown(client.get(f"/sessions/{made}"))
    assert "with 2 changes: Lowest bid → 12, Critic (크리틱) → A draw (nobody scores)" in page

    deleted = client.post("/rule-sets/delete", data={"name": "Club"})
    assert deleted.status_code == 302
    assert "<h2>Club</h2>" not in shown(client.get("/rule-sets"))
    with app.app_context():
        assert db.session.query(RuleSet).count() == 0
        assert db.session.get(GameSession, made).rules["min_bid"] == 12


def test_a_saved_set_keeps_its_fill_when_chosen(client):
    page = shown(client.get(MIGHTY))
    data = browser_post(page, players="", rule_min_bid="14", set_name="High")
    assert client.post("/rule-sets/save?game=mighty", data=data).status_code == 200
    filled = shown(client.get(MIGHTY + "&preset=saved:High"))
    assert 'name="rule_min_bid" type="text" value="14"' in filled or 'value="14"' in filled


def test_rename_to_a_taken_name_is_refused(client):
    for name in ("One", "Two"):
        page = shown(client.get(MIGHTY))
        data = browser_post(page, players="", set_name=name)
        assert client.post("/rule-sets/save?game=mighty", data=data).status_code == 200
    refused = client.post("/rule-sets/rename", data={"name": "One", "new_name": "Two"})
    assert refused.status_code == 422
    assert "There are already saved house rules called Two." in shown(refused)


def test_saving_without_a_name_is_refused_by_its_field(client):
    page = shown(client.get(MIGHTY))
    response = client.post("/rule-sets/save?game=mighty", data=browser_post(page, set_name=""))
    assert response.status_code == 422
    assert "Write a name for these rules." in shown(response)
    assert '<details class="save-rules" open>' in shown(response)


def test_deleting_an_unknown_set_is_refused(client):
    response = client.post("/rule-sets/delete", data={"name": "Nobody"})
    assert response.status_code == 422
    assert "There are no saved house rules called" in shown(response)


def test_whole_number_house_rules_offer_the_number_keypad(client):
    page = shown(client.get("/sessions/new?game=dixit"))
    field = re.search(r'<input[^>]*name="rule_target_score"[^>]*>', page)
    assert field and 'inputmode="numeric"' in field.group(0)
