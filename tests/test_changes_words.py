"""The history of changes names every input path and coded value in the reader's language.

A correction of each game's round is read on the history page in English, Korean and Hungarian:
English shows the words themselves; Korean and Hungarian show the same lines from the same
templates (what the catalog has for them, whether or not it is translated yet), never a raw path
("contract.boss", "tribute ›", "votes.Dee") or a code (greater_peasant, NT, true).
"""

from __future__ import annotations

import re

import pytest
from flask_babel import force_locale, gettext
from markupsafe import escape

from refapp import particles
from refapp.games import GAMES
from refapp.games.dalmuti.web.words import role_title
from refapp.i18n import bdi
from refapp.web.changes import differences
from refapp.web.path_words import describe_path, words_of

from .conftest import MIGHTY_HAND

FIVE = ["Ann", "Ben", "Cy", "Dee", "Eve"]
DIXIT_TURN = {
    "storyteller": "Ann",
    "positions": ["Dee", "Ann", "Ben", "Cy"],
    "votes": {"Ben": 2, "Cy": 2, "Dee": 3},
}
#: the corrected votes: Dee voted for card 2, not 3
DIXIT_VOTES = {"Ben": 2, "Cy": 2, "Dee": 2}
MIGHTY_FIXED = {
    **MIGHTY_HAND,
    "bidding": [{"player": "Ann", "bid": 13, "trump": "NT"}, *MIGHTY_HAND["bidding"][1:]],
    "contract": {"boss": "Ann", "bid": 13, "trump": "NT"},
    "friend": {"card": "SA", "player": "Dee"},
    "opposition_points": 5,
    "mighty_holder": "friend",
}
LOW_HAND = ["S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "H2", "H3"]
TAX = {"greater_peasant": [5, 6], "greater_dalmuti": [12, 12], "lesser_peasant": [7]}
TAX["lesser_dalmuti"] = [11]
EVE = [2, 4, 4, 7, 8, 9, 9, 10, 10, 11, 11, 12, 12, 12, 12, "J"]
FINISH = ["Cy", "Ann", "Eve", "Ben", "Dee"]
#: what no reader may see in a line: a path, a path's joints, a snake_case code, a raw value
RAW = re.compile(
    r"›|\b(?:contract|tribute|votes|bidding|friend|misdeal|revolution|positions|storyteller"
    r"|finish_order|opposition_points|hands|dealer|tricks)\.|\b[a-z]+_[a-z_]+\b|\bNT\b"
    r"|\b(?:True|False|true|false|plain|greater)\b"
)


def details(page: str) -> list[str]:
    """Return the detail lines of every change on the history page, as HTML."""
    trail = page.split('<ol class="changes card">')[1].split("</ol>")[0]
    return [
        line
        for block in re.findall(r"<ul>(.*?)</ul>", trail, re.S)
        for line in re.findall(r"<li>(.*?)</li>", block, re.S)
    ]


def text(lines: list[str]) -> list[str]:
    """Return lines without the <bdi> that isolates names, entities read as characters."""
    return [re.sub(r"</?bdi>", "", line).replace("&#39;", "'") for line in lines]


def words(app, language: str, msgid: str, **values) -> str:
    """Return a path's words as the page writes them in a language (names isolated, particles
    fitted)."""
    with app.test_request_context(), force_locale(language):
        return particles.fit(str(escape(gettext(msgid)) % values), language)


def page_in(client, sid: int, language: str) -> str:
    """Return the history page read in a language (the picker's cookie, as a reader sets it)."""
    client.set_cookie("lang", language)
    response = client.get(f"/sessions/{sid}/changes")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def correct(client, sid: int, number: int, body: dict) -> None:
    """Replace a round through the API, asserting it was taken."""
    response = client.put(f"/api/sessions/{sid}/rounds/{number}", json=body)
    assert response.status_code == 200, response.get_json()


def assert_no_code(language: str, lines: list[str]) -> None:
    """Every detail line reads as words: no path, no code, names isolated."""
    assert lines, language
    for line in lines:
        assert not RAW.search(line), f"{language}: {line}"


# -- Dixit -------------------------------------------------------------------------------------


def test_dixit_correction_reads_in_every_language(api, client, app):
    sid = api.create()["id"]
    assert api.record(sid, DIXIT_TURN).status_code == 201
    fixed = {**DIXIT_TURN, "positions": ["Dee", "Ann", "Cy", "Ben"], "votes": dict(DIXIT_VOTES)}
    correct(client, sid, 1, fixed)
    second = {"storyteller": "Ben", "positions": ["Ben", "Ann", "Cy", "Dee"]}
    assert api.record(sid, {**second, "votes": {"Ann": 1, "Cy": 1, "Dee": 1}}).status_code == 201
    assert client.delete(f"/api/sessions/{sid}/rounds/2").status_code == 200
    english = details(page_in(client, sid, "en"))
    assert_no_code("en", english)
    assert text(english) == [
        "Who laid cards 1, 2, 3, ...: Dee, Ann, Ben, Cy → Dee, Ann, Cy, Ben",
        "Dee's vote: 3 → 2",
        "Storyteller was Ben",
        "Who laid cards 1, 2, 3, ... was Ben, Ann, Cy, Dee",
        "Ann's vote was 1",
        "Cy's vote was 1",
        "Dee's vote was 1",
    ]
    assert "<bdi>Dee</bdi>&#39;s vote: 3 → 2" in english
    for language in ("ko", "hu"):
        lines = details(page_in(client, sid, language))
        assert_no_code(language, lines)
        assert len(lines) == len(english)
        vote = words(app, language, "%(player)s's vote", player=bdi("Dee"))
        assert lines[1] == f"{vote}: 3 → 2"
        laid = words(app, language, "Who laid cards 1, 2, 3, ...")
        assert lines[0].startswith(f"{laid}: <bdi>Dee</bdi>, <bdi>Ann</bdi>")
        assert lines[2].startswith(words(app, language, "Storyteller"))


# -- Mighty ------------------------------------------------------------------------------------


def test_mighty_correction_reads_in_every_language(api, client, app):
    sid = api.create(players=FIVE, game="mighty")["id"]
    assert api.record(sid, MIGHTY_HAND).status_code == 201
    misdeal = {"misdeal": {"player": "Ben", "hand": LOW_HAND}}
    assert api.record(sid, misdeal).status_code == 201
    correct(client, sid, 1, MIGHTY_FIXED)
    correct(client, sid, 2, {"misdeal": {"player": "Ben", "hand": [*LOW_HAND[:9], "H4"]}})
    english = text(details(page_in(client, sid, "en")))
    assert_no_code("en", english)
    assert english == [
        "Trump (기루다) bid at auction turn 1: ♠ Spades → No-trump (노기루다)",
        "Trump (기루다) of the contract: ♠ Spades → No-trump (노기루다)",
        "Friend card: Joker → ♠A",
        "Friend (프렌드): Cy → Dee",
        "Opposition's point cards (야당 점수카드): 3 → 5",
        "Mighty (마이티) ended with: nothing → Friend (프렌드)",
        "Throw-in (파토) hand: ♠2, ♠3, ♠4, ♠5, ♠6, ♠7, ♠8, ♠9, ♥2, ♥3 → "
        "♠2, ♠3, ♠4, ♠5, ♠6, ♠7, ♠8, ♠9, ♥2, ♥4",
    ]
    for language in ("ko", "hu"):
        lines = details(page_in(client, sid, language))
        assert_no_code(language, lines)
        assert len(lines) == len(english)
        trump = words(app, language, "Trump (기루다) of the contract")
        assert lines[1].startswith(f"{trump}: ")
        assert (
            lines[3] == words(app, language, "Friend (프렌드)") + ": <bdi>Cy</bdi> → <bdi>Dee</bdi>"
        )
        assert lines[6].startswith(words(app, language, "Throw-in (파토) hand") + ": ")


def test_mighty_all_pass_and_undo_read_as_words(api, client):
    sid = api.create(players=FIVE, game="mighty")["id"]
    assert api.record(sid, MIGHTY_HAND).status_code == 201
    passed = {
        "bidding": [{"player": name, "pass": True} for name in ["Cy", "Dee", "Eve", "Ann", "Ben"]]
    }
    assert api.record(sid, passed).status_code == 201, api.record(sid, passed).get_json()
    assert client.delete(f"/api/sessions/{sid}/rounds/2").status_code == 200
    english = text(details(page_in(client, sid, "en")))
    assert_no_code("en", english)
    assert "Bidder at auction turn 1 was Cy" in english
    assert "Pass (패스) at auction turn 5 was yes" in english
    assert "Everyone passed (모두 패스) was yes" in english
    for language in ("ko", "hu"):
        assert_no_code(language, details(page_in(client, sid, language)))


# -- Dalmuti -----------------------------------------------------------------------------------


def test_dalmuti_correction_reads_in_every_language(api, client, app):
    sid = api.create(players=FIVE, game="dalmuti")["id"]
    assert api.record(sid, {"tribute": TAX, "finish_order": FINISH}).status_code == 201
    second = {
        "revolution": {"player": "Ben", "kind": "plain"},
        "finish_order": ["Ann", "Cy", "Eve", "Dee", "Ben"],
    }
    assert api.record(sid, second).status_code == 201
    fixed = {
        "tribute": {**TAX, "greater_peasant": [2, 4]},
        "hands": {"Eve": EVE},
        "finish_order": ["Cy", "Ann", "Eve", "Dee", "Ben"],
    }
    correct(client, sid, 1, fixed)
    correct(
        client, sid, 2, {"revolution": {"player": "Ben", "kind": "greater"}, "finish_order": FINISH}
    )
    english = text(details(page_in(client, sid, "en")))
    assert_no_code("en", english)
    assert english == [
        "Tribute cards of the Greater Peasant: 5, 6 → 2, 4",
        "Finishing order: Cy, Ann, Eve, Ben, Dee → Cy, Ann, Eve, Dee, Ben",
        "Eve's hand as dealt: nothing → 2, 4, 4, 7, 8, 9, 9, 10, 10, 11, 11, 12, 12, 12, 12, "
        "jester",
        "Kind of revolution: Plain revolution → Greater revolution",
        "Finishing order: Ann, Cy, Eve, Dee, Ben → Cy, Ann, Eve, Ben, Dee",
    ]
    for language in ("ko", "hu"):
        lines = details(page_in(client, sid, language))
        assert_no_code(language, lines)
        assert len(lines) == len(english)
        with app.test_request_context(), force_locale(language):
            role = role_title("greater_peasant")
        tribute = words(app, language, "Tribute cards of the %(role)s", role=role)
        assert lines[0] == f"{tribute}: 5, 6 → 2, 4"
        eve = words(app, language, "%(player)s's hand as dealt", player=bdi("Eve"))
        jester = words(app, language, "jester")
        assert lines[2].startswith(f"{eve}: ") and lines[2].endswith(f", 12, {jester}")
        kind = words(app, language, "Kind of revolution")
        plain = words(app, language, "Plain revolution")
        greater = words(app, language, "Greater revolution")
        assert lines[3] == f"{kind}: {plain} → {greater}"


def test_dalmuti_undone_revolution_and_trades_read_as_words(api, client):
    six = [*FIVE, "Fay"]
    sid = api.create(players=six, game="dalmuti", rules={"merchant_trade": True})["id"]
    first = {"tribute": TAX, "merchant_trades": [["Cy", "Dee"]], "finish_order": six}
    assert api.record(sid, first).status_code == 201, api.record(sid, first).get_json()
    second = {"revolution": {"player": "Fay", "kind": "plain"}, "finish_order": six}
    assert api.record(sid, second).status_code == 201, api.record(sid, second).get_json()
    assert client.delete(f"/api/sessions/{sid}/rounds/2").status_code == 200
    assert client.delete(f"/api/sessions/{sid}/rounds/1").status_code == 200
    english = text(details(page_in(client, sid, "en")))
    assert_no_code("en", english)
    assert "Player who declared the revolution was Fay" in english
    assert "Kind of revolution was Plain revolution" in english
    assert "Merchants' swap 1 was Cy, Dee" in english
    assert "Tribute cards of the Lesser Peasant was 7" in english
    assert "Revolution was nothing" in english and "Tribute was nothing" in english
    for language in ("ko", "hu"):
        assert_no_code(language, details(page_in(client, sid, language)))


# -- every path of every game, and the paths no table knows --------------------------------------

#: per game, (path, old, new, the English line): one of each path the games' inputs hold
PATHS = {
    "dixit": [
        ("storyteller", "Ann", "Ben", "Storyteller: Ann → Ben"),
        (
            "positions",
            ["Ann", "Ben"],
            ["Ben", "Ann"],
            "Who laid cards 1, 2, 3, ...: Ann, Ben → Ben, Ann",
        ),
        ("positions.2", "Ann", "Ben", "Owner of card 2: Ann → Ben"),
        ("votes", None, [], "Votes: nothing → nothing"),
        ("votes.Dee", [1, 2], [1, 3], "Dee's vote: 1, 2 → 1, 3"),
        ("votes.Dee.2", 2, 3, "Dee's vote no. 2: 2 → 3"),
        ("votes.J.R.", 2, 3, "J.R.'s vote: 2 → 3"),
    ],
    "mighty": [
        ("dealer", "Ann", "Ben", "Dealer (딜러): Ann → Ben"),
        ("bidding", [], None, "Auction (경매): nothing → nothing"),
        ("bidding.2.player", "Ben", "Cy", "Bidder at auction turn 2: Ben → Cy"),
        ("bidding.2.bid", 14, 15, "Count bid at auction turn 2: 14 → 15"),
        (
            "bidding.2.trump",
            "H",
            "D",
            "Trump (기루다) bid at auction turn 2: ♥ Hearts → ♦ Diamonds",
        ),
        ("bidding.3.pass", True, None, "Pass (패스) at auction turn 3: yes → nothing"),
        ("all_pass", None, True, "Everyone passed (모두 패스): nothing → yes"),
        ("contract.boss", "Ann", "Cy", "Boss (주공): Ann → Cy"),
        ("contract.bid", 13, 14, "Count of the contract (공약): 13 → 14"),
        (
            "contract.trump",
            "C",
            "NT",
            "Trump (기루다) of the contract: ♣ Clubs → No-trump (노기루다)",
        ),
        ("kill.card", "JK", "SA", "Card named for the kill (킬): Joker → ♠A"),
        ("kill.player", "Eve", "Fay", "Player killed (킬): Eve → Fay"),
        ("kill.misses", None, ["HA", "JK"], "Misses before the kill: nothing → ♥A, Joker"),
        ("kill.2.card", "SA", "DA", "Card named for kill 2: ♠A → ♦A"),
        ("kill.2.player", "Gus", "Ann", "Player killed by kill 2: Gus → Ann"),
        ("kill.1.misses", ["HA"], None, "Misses before kill 1: ♥A → nothing"),
        ("kill.misses.2", "HA", "HK", "Miss 2 before the kill: ♥A → ♥K"),
        ("kill.2.misses.1", "HA", None, "Miss 1 before kill 2: ♥A → nothing"),
        ("kill", None, [], "Kill (킬): nothing → nothing"),
        ("sits_out", "Fay", "Ann", "Players resting this hand: Fay → Ann"),
        ("friend.card", "JK", "H10", "Friend card: Joker → ♥10"),
        ("friend.player", "Cy", "Ann", "Friend (프렌드): Cy → Ann"),
        (
            "friend.first_trick",
            None,
            "Dee",
            "Friend (프렌드) as the winner of trick 1: nothing → Dee",
        ),
        ("friend.none", True, None, "No friend (노 프렌드): yes → nothing"),
        ("friend.kitty", None, True, "Friend card in the kitty (바닥패): nothing → yes"),
        ("opposition_points", 3, 4, "Opposition's point cards (야당 점수카드): 3 → 4"),
        (
            "mighty_holder",
            "boss",
            "kitty",
            "Mighty (마이티) ended with: Boss (주공) → Kitty (바닥패), buried",
        ),
        (
            "joker_holder",
            "opposition",
            "friend",
            "Joker (조커) ended with: Opposition (야당) → Friend (프렌드)",
        ),
        ("misdeal.player", "Ben", "Cy", "Player who threw the hand in (파토): Ben → Cy"),
        ("misdeal.hand", ["SA", "JK"], ["SK", "JK"], "Throw-in (파토) hand: ♠A, Joker → ♠K, Joker"),
        ("misdeal.shown", None, True, "Throw-in (파토) hand shown to the table: nothing → yes"),
        ("tricks", [], None, "Tricks: nothing → nothing"),
        ("tricks.4", [], None, "Trick 4: nothing → nothing"),
        ("tricks.4.2.player", "Ann", "Ben", "Player of card 2 in trick 4: Ann → Ben"),
        ("tricks.4.2.card", "DQ", "D10", "Card 2 in trick 4: ♦Q → ♦10"),
        ("tricks.4.1.suit", "S", "H", "Suit the joker named in trick 4: ♠ Spades → ♥ Hearts"),
        ("tricks.4.1.call", None, True, "Joker call (조커콜) in trick 4: nothing → yes"),
    ],
    "dalmuti": [
        ("finish_order", ["Ann", "Ben"], ["Ben", "Ann"], "Finishing order: Ann, Ben → Ben, Ann"),
        ("tribute", None, [], "Tribute: nothing → nothing"),
        (
            "tribute.greater_peasant",
            [2, 4],
            [2, 5],
            "Tribute cards of the Greater Peasant: 2, 4 → 2, 5",
        ),
        (
            "tribute.greater_dalmuti",
            [12, 11],
            [12, 12],
            "Tribute cards of the Greater Dalmuti: 12, 11 → 12, 12",
        ),
        ("tribute.paid", None, True, "Tax paid as due: nothing → yes"),
        ("tribute.lesser_peasant", [3], ["J"], "Tribute cards of the Lesser Peasant: 3 → jester"),
        ("tribute.lesser_dalmuti", [12], [11], "Tribute cards of the Lesser Dalmuti: 12 → 11"),
        ("revolution", None, [], "Revolution: nothing → nothing"),
        ("revolution.player", "Ben", "Eve", "Player who declared the revolution: Ben → Eve"),
        (
            "revolution.kind",
            "greater",
            "plain",
            "Kind of revolution: Greater revolution → Plain revolution",
        ),
        ("hands", None, [], "Hands as dealt: nothing → nothing"),
        ("hands.Eve", [1, 2], [1, 3], "Eve's hand as dealt: 1, 2 → 1, 3"),
        ("merchant_trades", [], None, "Merchants' swaps (house rule): nobody → nothing"),
        ("merchant_trades.1", ["Cy", "Dee"], ["Cy", "Fay"], "Merchants' swap 1: Cy, Dee → Cy, Fay"),
    ],
}
EVERY_PATH = [(slug, *row) for slug, rows in PATHS.items() for row in rows]


@pytest.mark.parametrize("slug, path, old, new, line", EVERY_PATH, ids=[p[1] for p in EVERY_PATH])
def test_every_input_path_is_named_in_words(app, slug, path, old, new, line):
    game = GAMES[slug]
    assert words_of(game, path) is not None
    with app.test_request_context():
        (said,) = differences(game, {path: old}, {path: new})
    assert text([str(said)]) == [line]
    assert not RAW.search(str(said))


def test_every_pattern_is_exercised():
    tried = {(slug, words_of(GAMES[slug], path)[0].spec) for slug, path, *_ in EVERY_PATH}
    patterns = {(slug, entry.spec) for slug, game in GAMES.items() for entry in game.round_input}
    assert patterns == tried


def test_names_are_isolated_and_never_translated(app):
    with app.test_request_context(), force_locale("ko"):
        said = describe_path(GAMES["dixit"], "votes.<b>Dee</b>")
    assert "<bdi>&lt;b&gt;Dee&lt;/b&gt;</bdi>" in said


def test_an_unknown_path_reads_as_before(app):
    with app.test_request_context():
        for slug, game in GAMES.items():
            assert describe_path(game, "house_note.1") == "house note › 1", slug
        (said,) = differences(GAMES["mighty"], {"odd": {"x": "NT"}}, {"odd": {"x": "S"}})
    assert said == "odd › x: NT → S"
