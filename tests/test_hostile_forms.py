"""Random values posted to every form: never a 5xx, a refusal shown on the page, nothing stored.

The forms are posted as a browser would (CSRF off, as in the other page tests), each field with
random text (control characters and any Unicode), strings of a few KB, numbers, missing fields,
extra fields and unknown choices, starting from a valid form so that the random value reaches
the rules. After each post: the answer is below 500 and one of the form's documented answers (a
success redirect, the page again, or the form with its refusal next to a field); unless it was
a success redirect, not one stored row changed. Names that are stored, whatever their Unicode,
are shown HTML-escaped.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from markupsafe import escape

from refapp.extensions import db
from refapp.games import get_game
from refapp.services import owed

#: examples per test; REFAPP_FUZZ_EXAMPLES=500 for a longer hunt
FUZZ = settings(
    max_examples=int(os.environ.get("REFAPP_FUZZ_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
GAMES = ("dixit", "mighty", "dalmuti")
PLAYERS = ("Ann", "Ben", "Cy", "Dee", "Eve")
#: the largest id every database the app runs on can hold (PostgreSQL's integer)
MAX_ID = 2**31 - 1

#: names and texts that tend to break pages: markup, quotes, bidi marks, emoji, Hangul...
TRICKY = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "\"double\" & 'single'",
    "</textarea><b>x</b>",
    "{{ 7 * 7 }}",
    "%s %(name)s {0}",
    "\u202eevil\u202c",
    "\u200f\u05d0\u05d1\u05d2",
    "\u0645\u0631\u062d\u0628\u0627",
    "\U0001f0cf\U0001f0a1",
    "\U0001f469\u200d\U0001f467",
    "\ud55c\uad6d\uc5b4",
    "e\u0301",
    "\u200b",
    "Ann\x00",
    "\x07bell",
    "A" * 41,
    " ",
    "",
    "Zed",
    "Ann",
    "../../etc/passwd",
    "Ben\r\nCy",
]
#: any Unicode text, control characters included (not lone surrogates: they cannot be posted)
texts = st.text(max_size=30)
#: strings of a few KB
huge = st.text(min_size=1, max_size=8).map(lambda part: part * (4000 // len(part)))
numbers = st.integers(-(10**12), 10**12).map(str) | st.sampled_from(
    # digits str.isdigit() takes but int() or a person would not: superscripts, other scripts
    ["0", "-1", "1e400", "NaN", "99999999999999999999", "1.5", "０", "¹", "²3", "٣", "𝟙"]
)
values = st.sampled_from(TRICKY) | texts | huge | numbers


def mostly(usual: st.SearchStrategy, odd: st.SearchStrategy, share: int = 3):
    """Return the usual values share times in share + 1, the odd ones otherwise."""
    return st.sampled_from([True] * share + [False]).flatmap(lambda pick: usual if pick else odd)


def field_values(choices=()) -> st.SearchStrategy:
    """Return values for a field: its own choices half the time, random ones, or several."""
    one = mostly(st.sampled_from(list(choices) or [""]), values, share=1)
    return mostly(one, st.lists(one, min_size=2, max_size=3), share=5)


@st.composite
def mutated(draw, valid: dict[str, Any], choices: dict[str, list[str]]) -> dict[str, Any]:
    """Return a valid form with maybe a field left out and a few set to other values."""
    body = dict(valid)
    if draw(st.integers(0, 3)) == 0:
        body.pop(draw(st.sampled_from(sorted(body))))
    keys = sorted({*valid, *choices, "junk", "csrf_token"})
    for key in draw(st.lists(st.sampled_from(keys), max_size=3, unique=True)):
        body[key] = draw(field_values(choices.get(key, ())))
    return body


# -- what is stored, and what an answer may be ---------------------------------------------------


#: what a password check keeps of the client, not of the table (a right password trusts the
#: address, refapp/shared_throttle.py): left out of the snapshots
COUNTS = {"throttle_entry"}


def snapshot(app) -> dict[str, list[tuple]]:
    """Return every stored row of every table (but the throttle's counts), in a stable order,
    as a read leaves them: what running sessions' writes left owed to the players' figures is
    added first, as any read of the figures adds it (services/owed.py)."""
    with app.app_context():
        owed.pay_owed()
        rows = {
            table.name: sorted(
                (tuple(row) for row in db.session.execute(sa.select(table)).all()), key=repr
            )
            for table in db.metadata.sorted_tables
            if table.name not in COUNTS
        }
        db.session.remove()
        return rows


def count(app, table: str) -> int:
    """Count the rows of a table."""
    with app.app_context():
        query = sa.select(sa.func.count()).select_from(db.metadata.tables[table])
        number = db.session.execute(query).scalar_one()
        db.session.remove()
        return number


def assert_answered(response, allowed: set[int]) -> str:
    """The answer is one the form documents; a refused form shows why. Return the page."""
    page = response.get_data(as_text=True)
    if currently_in_test_context():
        event(f"answered {response.status_code}")
    assert response.status_code < 500, page[:500]
    assert response.status_code in allowed, (response.status_code, page[:500])
    if response.status_code in (401, 422):
        assert 'role="alert"' in page, f"refused without a message: {page[:500]}"
    return page


class Markup(HTMLParser):
    """Collects what a browser would run from a page: scripts and event-handler attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[str | None] = []
        self.handlers: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts.append(dict(attrs).get("src"))
        self.handlers += [(tag, name) for name, _ in attrs if name.startswith("on")]


def assert_escaped(page: str, text: str) -> None:
    """A stored text is shown as the template engine escapes it, and injects no markup.

    The page runs only the app's own scripts, and no element carries an event handler.
    """
    assert str(escape(text)) in page, f"{text!r} is not shown escaped"
    markup = Markup()
    markup.feed(page)
    assert all(src and src.startswith("/static/") for src in markup.scripts), markup.scripts
    assert markup.handlers == [], markup.handlers


def post_form(client, url: str, body: dict[str, Any]):
    """Post a form (lists become repeated fields), as a browser would."""
    return client.post(url, data=body, content_type="application/x-www-form-urlencoded")


# -- the forms' valid inputs ---------------------------------------------------------------------


def rule_fields(slug: str) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Return the house-rule fields of a game at their defaults, and each field's choices."""
    data: dict[str, Any] = {}
    choices: dict[str, list[str]] = {}
    for option in get_game(slug).options:
        key = f"rule_{option.key}"
        if option.kind == "bool":
            choices[key] = ["y", "on", "", "false"]
            if option.default:
                data[key] = "y"
        elif option.kind in ("choice", "choices"):
            choices[key] = [str(choice) for choice in option.choices]
            if option.kind == "choices":
                data[key] = [str(value) for value in option.default or []]
            else:
                data[key] = str(option.default)
        elif option.kind == "int_list":
            data[key] = ", ".join(str(value) for value in option.default or [])
            choices[key] = ["1", "12", "1, 12", "13", "-1", "x"]
        else:
            data[key] = "" if option.default is None else str(option.default)
            choices[key] = ["", "0", "1", "13", "100"]
    return data, choices


def new_session_form(slug: str) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Return a valid new-session form for a game and the choices of its fields."""
    rules, choices = rule_fields(slug)
    body = {"game": slug, "name": "Friday", "players": "\n".join(PLAYERS), **rules}
    choices.update(
        game=[*GAMES, "chess"],
        first_ranks=["order", "draw", "x"],
        players=["Ann 7\nBen 1\nCy J\nDee 3\nEve 12", "Ann\nAnn\nBen\nCy\nDee", "Ann"],
    )
    return body, choices


NAMES = ["", *PLAYERS, "Zed", "ann"]
CARDS = ["1", "2", "3", "4", "5", "6", "0", "J", ""]
ACTIONS = [
    "record",
    "check",
    "check_tax",
    "misdeal",
    "all_pass",
    "pass",
    "unbid",
    *(f"bid_{trump}" for trump in ("S", "H", "D", "C", "NT", "X")),
    "",
]
BIDDING = [
    "",
    "[]",
    '[{"player": "Ann", "bid": 13, "trump": "S"}]',
    '[{"player": "Ann", "pass": true}, {"player": "Ben", "bid": 14, "trump": "NT"}]',
    '[{"player": "Ann", "bid": 1e400, "trump": "S"}]',
    '[{"player": ["Ann"], "bid": NaN}]',
    '{"player": "Ann"}',
    "[1, 2, 3]",
    "not json",
    "[" * 50,
]

#: each game's round form, valid for the first and the second round, and its fields' choices
ROUNDS: dict[str, tuple[list[dict[str, Any]], dict[str, list[str]]]] = {
    "dixit": (
        [
            {
                "storyteller": "Ann",
                **{f"pos_{n}": owner for n, owner in enumerate(["Dee", "Ann", "Ben", "Cy"], 1)},
                "vote_1": "2",
                "vote_2": "2",
                "vote_3": "3",
            },
            {
                "storyteller": "Ben",
                **{f"pos_{n}": owner for n, owner in enumerate(["Ben", "Ann", "Cy", "Dee"], 1)},
                "vote_0": "1",
                "vote_2": "1",
                "vote_3": "1",
            },
        ],
        {
            "storyteller": NAMES,
            **{f"pos_{n}": NAMES for n in range(0, 6)},
            **{f"vote_{seat}": CARDS for seat in range(0, 5)},
            "vote2_1": CARDS,
        },
    ),
    "mighty": (
        [
            {
                "boss": "Ann",
                "contract_bid": "15",
                "contract_trump": "H",
                "friend_kind": "card",
                "friend_card": "JK",
                "friend_player": "Cy",
                "opposition_points": "3",
            },
            {
                "boss": "Dee",
                "contract_bid": "13",
                "contract_trump": "S",
                "friend_kind": "card",
                "friend_card": "HA",
                "friend_player": "Eve",
                "opposition_points": "4",
            },
        ],
        {
            "dealer": NAMES,
            "bidding": BIDDING,
            "bidder": NAMES,
            "bid_count": ["12", "13", "14", "20", "21", ""],
            "boss": NAMES,
            "contract_bid": ["12", "13", "15", "20", "21", ""],
            "contract_trump": ["S", "H", "D", "C", "NT", "X", ""],
            "friend_kind": ["card", "none", "first_trick", "x", ""],
            "friend_card": ["JK", "SA", "DA", "H10", "ZZ", "JOKER", "♠A", ""],
            "friend_player": NAMES,
            "opposition_points": ["0", "3", "20", "21", "-1", ""],
            "mighty_holder": ["", "boss", "friend", "opposition", "kitty", "x"],
            "joker_holder": ["", "boss", "friend", "opposition", "kitty", "x"],
            "misdeal_player": NAMES,
            "misdeal_hand": ["S2 S3 H4 H5 D6 D7 C8 C9 HK JK", "S2 S3", "ZZ", ""],
        },
    ),
    "dalmuti": (
        [
            {
                "tribute_greater_peasant": "5 6",
                "tribute_greater_dalmuti": "12 12",
                "tribute_lesser_peasant": "7",
                "tribute_lesser_dalmuti": "11",
                **{f"finish_{n}": name for n, name in enumerate(["Cy", "Ann", "Eve", "Ben"], 1)},
            },
            {
                "tribute_greater_peasant": "5 6",
                "tribute_greater_dalmuti": "12 12",
                "tribute_lesser_peasant": "7",
                "tribute_lesser_dalmuti": "11",
                **{f"finish_{n}": name for n, name in enumerate(["Ann", "Ben", "Cy", "Dee"], 1)},
            },
        ],
        {
            "revolution_player": NAMES,
            "revolution_kind": ["plain", "greater", "x", ""],
            **{
                f"tribute_{role}": ["5 6", "12 12", "7", "11", "J", "2 J", "1 1 1", "x", ""]
                for role in ("greater_peasant", "greater_dalmuti", "lesser_peasant")
            },
            "tribute_lesser_dalmuti": ["11", "12", ""],
            "hand_4": ["1 2 3", "2 4 4 7 8 9 9 10 10 11 11 12 12 12 12 J"],
            **{f"finish_{n}": NAMES for n in range(1, 7)},
            "trade_2": NAMES,
        },
    ),
}


def numbers_beyond(last: int) -> st.SearchStrategy:
    """Return round numbers that are not stored: 0, the next one, or any up to 64 bits."""
    return st.sampled_from([0, last + 1]) | st.integers(last + 1, MAX_ID)


def start(api, slug: str) -> int:
    """Start a session of a game with five players (Dixit: four, no target) and return its id."""
    if slug == "dixit":
        return api.create(players=PLAYERS[:4], rules={"target_score": 10**6})["id"]
    return api.create(players=PLAYERS, game=slug)["id"]


def played(client, api, slug: str, rounds: int) -> int:
    """Start a session and record its first rounds through the form; return its id."""
    sid = start(api, slug)
    for body in ROUNDS[slug][0][:rounds]:
        response = post_form(client, f"/sessions/{sid}/rounds", {**body, "action": "record"})
        assert response.status_code == 302, response.get_data(as_text=True)[:500]
    return sid


# -- a new session ---------------------------------------------------------------------------


@pytest.mark.parametrize("slug", GAMES)
@FUZZ
@given(data=st.data())
def test_new_session_form(client, app, slug, data):
    valid, choices = new_session_form(slug)
    body = data.draw(mutated(valid, choices))
    game = data.draw(mostly(st.just(slug), st.sampled_from(["chess", ""])), label="address game")
    before = snapshot(app)
    response = post_form(client, f"/sessions/new?game={quote(game)}", body)
    page = assert_answered(response, {302, 404, 422})
    if response.status_code != 302:
        assert snapshot(app) == before
        return
    assert count(app, "game_session") == len(before["game_session"]) + 1
    show = client.get(response.headers["Location"])
    assert show.status_code == 200
    sid = int(response.headers["Location"].rsplit("/", 1)[1])
    session = client.get(f"/api/sessions/{sid}").get_json()
    page = show.get_data(as_text=True)
    for name in [*session["players"], session["name"]]:
        assert_escaped(page, name)


#: names a table may well use: any Unicode but control characters and line breaks
fair = st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"))
names = mostly(
    st.sampled_from([name for name in TRICKY if name.strip() and len(name) <= 40])
    | st.text(fair, min_size=1, max_size=12).filter(str.strip),
    st.sampled_from(TRICKY) | texts,
    share=7,
)


@FUZZ
@given(
    players=st.lists(names, min_size=4, max_size=6, unique_by=lambda name: name.strip()),
    session_name=mostly(st.text(fair, max_size=30), values),
)
def test_any_unicode_name_is_stored_whole_and_shown_escaped(client, app, players, session_name):
    body = {
        **new_session_form("dalmuti")[0],
        "name": session_name,
        "players": "\n".join(players),
    }
    before = snapshot(app)
    response = post_form(client, "/sessions/new?game=dalmuti", body)
    assert_answered(response, {302, 422})
    if response.status_code != 302:
        assert snapshot(app) == before
        return
    sid = int(response.headers["Location"].rsplit("/", 1)[1])
    session = client.get(f"/api/sessions/{sid}").get_json()
    lines = [line.strip() for line in body["players"].splitlines() if line.strip()]
    assert session["players"] == [unicodedata.normalize("NFC", line) for line in lines]
    pages = [
        client.get(f"/sessions/{sid}").get_data(as_text=True),
        client.get(f"/sessions/{sid}/print").get_data(as_text=True),
        client.get("/players").get_data(as_text=True),
    ]
    for page in pages:
        for name in session["players"]:
            assert_escaped(page, name)
    assert_escaped(pages[0], session["name"])
    player = client.get(f"/players/{quote(session['players'][0], safe='')}")
    assert player.status_code == 200
    assert_escaped(player.get_data(as_text=True), session["players"][0])


# -- a round: record, check, a step, the auction pad --------------------------------------------


@pytest.mark.parametrize("slug", GAMES)
@FUZZ
@given(data=st.data())
def test_round_form(client, api, app, slug, data):
    sid = start(api, slug)
    bodies, choices = ROUNDS[slug]
    body = data.draw(mutated(bodies[0], choices))
    body["action"] = data.draw(mostly(st.just("record"), field_values(ACTIONS), 1), label="action")
    if data.draw(st.booleans(), label="with expected_round"):
        body["expected_round"] = data.draw(field_values(["1", "2", "0"]), label="expected_round")
    before = snapshot(app)
    response = post_form(client, f"/sessions/{sid}/rounds", body)
    assert_answered(response, {200, 302, 422})
    if response.status_code == 302:
        assert response.headers["Location"].split("?")[0].endswith(f"/sessions/{sid}")
        assert count(app, "round") == len(before["round"]) + 1
        assert client.get(f"/sessions/{sid}").status_code == 200
    else:
        assert snapshot(app) == before


# -- a correction ---------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", GAMES)
@FUZZ
@given(data=st.data())
def test_edit_form(client, api, app, slug, data):
    sid = played(client, api, slug, 2)
    number = data.draw(mostly(st.sampled_from([1, 2]), numbers_beyond(2)), label="round number")
    bodies, choices = ROUNDS[slug]
    valid = bodies[number - 1] if number in (1, 2) else bodies[0]
    body = data.draw(mutated(valid, choices))
    body["action"] = data.draw(mostly(st.just("record"), field_values(ACTIONS), 1), label="action")
    before = snapshot(app)
    response = post_form(client, f"/sessions/{sid}/rounds/{number}/edit", body)
    assert_answered(response, {200, 302, 404, 422})
    if response.status_code == 404:
        assert number not in (1, 2)
    if response.status_code == 302:
        assert count(app, "round") == len(before["round"])
        assert count(app, "audit_entry") == len(before["audit_entry"]) + 1
        assert client.get(f"/sessions/{sid}").status_code == 200
    else:
        assert snapshot(app) == before


# -- undo, finish ----------------------------------------------------------------------------------


@FUZZ
@given(
    slug=st.sampled_from(GAMES),
    number=mostly(st.sampled_from([1, 2]), numbers_beyond(2), share=2),
    body=st.dictionaries(st.sampled_from(["csrf_token", "junk", "action"]), field_values()),
)
def test_undo_button(client, api, app, slug, number, body):
    sid = played(client, api, slug, 2)
    before = snapshot(app)
    response = post_form(client, f"/sessions/{sid}/rounds/{number}/delete", body)
    assert_answered(response, {302})
    assert response.headers["Location"].endswith(f"/sessions/{sid}")
    if number == 2:
        assert count(app, "round") == len(before["round"]) - 1
    else:
        assert snapshot(app) == before  # only the last round may be undone
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert 'class="flash' in page


@FUZZ
@given(
    slug=st.sampled_from(GAMES),
    body=st.dictionaries(st.sampled_from(["csrf_token", "junk", "action"]), field_values()),
)
def test_finish_button(client, api, app, slug, body):
    sid = played(client, api, slug, 1)
    response = post_form(client, f"/sessions/{sid}/finish", body)
    assert_answered(response, {302})
    assert client.get(f"/api/sessions/{sid}").get_json()["finished"] is True
    # finishing again, or recording after the end, changes nothing
    before = snapshot(app)
    assert_answered(post_form(client, f"/sessions/{sid}/finish", body), {302})
    again = {**ROUNDS[slug][0][1], "action": "record"}
    assert_answered(post_form(client, f"/sessions/{sid}/rounds", again), {200, 302, 422})
    assert snapshot(app) == before


# -- every form of a session that is not there --------------------------------------------------


@FUZZ
@given(
    sid=st.integers(0, MAX_ID),
    path=st.sampled_from(
        ["", "/rounds", "/rounds/1/edit", "/rounds/1/delete", "/finish", "/check-play"]
    ),
    body=st.dictionaries(st.sampled_from(["action", "storyteller", "play", "junk"]), values),
)
def test_forms_of_a_missing_session(client, api, app, sid, path, body):
    api.create()
    before = snapshot(app)
    if sid in [row[0] for row in before["game_session"]]:
        sid += 1000
    response = post_form(client, f"/sessions/{sid}{path}", body)
    assert_answered(response, {404, 405})
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", ""),
        ("POST", "/rounds"),
        ("GET", "/rounds/1/edit"),
        ("POST", "/rounds/1/edit"),
        ("POST", "/rounds/1/delete"),
        ("POST", "/finish"),
        ("POST", "/check-play"),
    ],
)
def test_a_session_id_beyond_64_bits_is_not_found(client, method, path):
    response = client.open(f"/sessions/{2**64}{path}", method=method, data={"action": "record"})
    assert response.status_code == 404


@pytest.mark.parametrize(("method", "path"), [("GET", ""), ("POST", "/rounds"), ("GET", "/print")])
def test_a_session_id_beyond_32_bits_is_not_found(client, method, path):
    response = client.open(f"/sessions/{2**40}{path}", method=method, data={"action": "record"})
    assert response.status_code == 404


# -- check a play (Dalmuti): nothing is ever stored ----------------------------------------------

PLAYS = [
    "",
    "7 7",
    "6 6",
    "6 J",
    "J",
    "J J",
    "1",
    "13",
    "0",
    "x",
    "12 12 12 12 12 12 12 12 12 12 12 12 12",
]


@FUZZ
@given(data=st.data())
def test_check_play_form(client, api, app, data):
    sid = start(api, "dalmuti")
    choices = {"previous": PLAYS, "play": PLAYS, "hand": PLAYS, "action": ["check", "follow", ""]}
    body = data.draw(mutated({"previous": "7 7", "play": "6 6", "action": "check"}, choices))
    before = snapshot(app)
    response = post_form(client, f"/sessions/{sid}/check-play", body)
    assert_answered(response, {200, 422})
    assert snapshot(app) == before
    other = start(api, "dixit")
    assert post_form(client, f"/sessions/{other}/check-play", body).status_code == 404


# -- renaming a player ----------------------------------------------------------------------------


@FUZZ
@given(
    old=mostly(st.sampled_from(["Ben", "<b>Cy</b>"]), st.just("Nobody") | texts),
    new=st.sampled_from(TRICKY) | values,
    extra=st.dictionaries(st.sampled_from(["csrf_token", "junk"]), values, max_size=1),
)
def test_rename_form(client, api, app, old, new, extra):
    sid = api.create(players=["Ann", "Ben", "<b>Cy</b>", "Dee"])["id"]
    before = snapshot(app)
    url = f"/players/{quote(old, safe='')}/rename"
    response = post_form(client, url, {"name": new, **extra})
    # 405: an empty name leaves no rename; 308: the router joins the slashes of "//"
    assert_answered(response, {302, 308, 404, 405, 422})
    if response.status_code != 302:
        assert snapshot(app) == before
        return
    player = client.get(urlsplit(response.headers["Location"]).path)
    assert player.status_code == 200
    first = new[0] if isinstance(new, list) else new
    renamed = unicodedata.normalize("NFC", first.strip())
    heading = player.get_data(as_text=True).split("<h1>", 1)[1].split("</h1>", 1)[0]
    assert heading == str(escape(renamed))
    session = client.get(f"/api/sessions/{sid}").get_json()
    if unicodedata.normalize("NFC", old.strip()) in ("Ben", "<b>Cy</b>"):
        assert renamed in session["players"]
    shown = client.get(f"/sessions/{sid}").get_data(as_text=True)
    for name in session["players"]:
        assert_escaped(shown, name)


# -- signing in ------------------------------------------------------------------------------------

#: ways a "next" address has been used to send a signed-in browser to another site
OFF_SITE = [
    "//evil.example/",
    "https://evil.example/",
    "/\\evil.example/",
    "\\\\evil.example",
    "/\t/evil.example",
    " //evil.example",
    "javascript:alert(1)",
    "/%2F/evil.example",
    "/sessions/1",
    "/players/%3Cb%3E",
    "",
]


def lands_on_this_site(location: str) -> bool:
    """Return True if a browser following this Location header stays on this site.

    A browser drops leading control characters and spaces, removes tabs and newlines anywhere,
    and reads a backslash as a slash (the WHATWG URL rules), so "/\\evil" means "//evil".
    """
    cleaned = re.sub(r"[\t\n\r]", "", location.lstrip("".join(map(chr, range(33)))))
    resolved = urljoin("http://localhost/signin", cleaned.replace("\\", "/"))
    parts = urlsplit(resolved)
    return parts.scheme == "http" and parts.netloc == "localhost"


@FUZZ
@given(
    password=mostly(st.just("sesame"), st.sampled_from(["Sesame", "", " sesame"]) | values, 1),
    target=st.sampled_from(OFF_SITE) | values.filter(lambda text: not re.search(r"[\r\n]", text)),
    in_query=st.booleans(),
)
def test_sign_in_form(client, app, password, target, in_query):
    app.config["PASSWORD"] = "sesame"
    url = f"/signin?next={quote(target, safe='')}" if in_query else "/signin"
    body = {"password": password} if in_query else {"password": password, "next": target}
    before = snapshot(app)
    response = post_form(client, url, body)
    assert_answered(response, {302, 401})
    if response.status_code == 302:
        assert password == "sesame"
        assert lands_on_this_site(response.headers["Location"]), response.headers["Location"]
    # a sign-in is kept on the server (one sign_in row) until signing out deletes it
    assert count(app, "sign_in") == (response.status_code == 302)
    client.post("/signout")
    assert snapshot(app) == before


def test_sign_in_with_a_newline_in_next_goes_home(client, app):
    app.config["PASSWORD"] = "sesame"
    response = client.post("/signin", data={"password": "sesame", "next": "/x\r\nSet-Cookie: a=b"})
    assert response.status_code == 302
    assert "\n" not in response.headers["Location"]


@pytest.mark.parametrize("action", ["record", "pass"])
def test_a_deeply_nested_bidding_log_is_refused(client, api, app, action):
    sid = start(api, "mighty")
    before = snapshot(app)
    log = "[" * 1000 + "]" * 1000
    response = post_form(client, f"/sessions/{sid}/rounds", {"bidding": log, "action": action})
    assert_answered(response, {422})
    assert snapshot(app) == before


def test_pages_show_random_json_in_the_bidding_log_escaped(client, api):
    sid = start(api, "mighty")
    log = json.dumps([{"player": "<script>x</script>", "bid": 13, "trump": "S"}])
    response = post_form(client, f"/sessions/{sid}/rounds", {"bidding": log, "action": "pass"})
    page = assert_answered(response, {200, 422})
    assert "<script>x</script>" not in page
