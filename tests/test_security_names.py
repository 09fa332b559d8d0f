"""Names that deceive: each shown name is isolated in <bdi>; a dotted name links to its own page."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest

from .conftest import turn

DOTTED = "a/../Ann"
TABLE = (DOTTED, "Ann", "Ben", "Cy")
PLAIN_TABLE = ("Ann", "Ben", "Cy", "Dee")
#: names no page shows except as a player's name
ODD = ("Xiomara", "Yevgenia", "Zbigniew", "Wilhelmina")
#: elements whose text cannot hold a <bdi> (or is not shown as text)
PLAIN = {"title", "option", "textarea", "script", "style", "svg"}
#: a name alone in a cell or heading: that block is its own bidi paragraph, nothing follows it
ALONE = re.compile(r"<(td|th|h1)( class=\"num\")?>\s*(" + "|".join(ODD) + r")\s*</\1>")
#: sentences the rules build (a name inside): out of the templates' reach
SENTENCES = {"explanation", "why"}


class Page(HTMLParser):
    """Collects a page's links, forms, headings, and every text shown outside a <bdi>."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, bool]] = []  # tag, inside a rule's sentences
        self.links: list[tuple[str, str]] = []
        self.forms: list[str] = []
        self.h1 = ""
        self.loose: list[str] = []
        self.href: str | None = None
        self.text = ""

    def handle_starttag(self, tag, attrs) -> None:
        values = dict(attrs)
        if tag == "a":
            self.href, self.text = values.get("href"), ""
        if tag == "form":
            self.forms.append(values.get("action") or "")
        if tag not in ("br", "input", "meta", "link", "line", "polyline"):
            classes = set((values.get("class") or "").split())
            inside = bool(classes & SENTENCES) or bool(self.open and self.open[-1][1])
            self.open.append((tag, inside))

    def handle_endtag(self, tag) -> None:
        if tag == "a" and self.href is not None:
            self.links.append((self.href, self.text.strip()))
            self.href = None
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        tags = {tag for tag, _inside in self.open}
        if self.href is not None:
            self.text += data
        if "h1" in tags:
            self.h1 += data
        sentence = bool(self.open and self.open[-1][1])
        if "bdi" not in tags and not PLAIN & tags and not sentence:
            self.loose.append(data)


def read(client, url: str) -> Page:
    """Get a page (asserting success) and parse it."""
    response = client.get(url)
    assert response.status_code == 200, url
    page = Page()
    page.feed(ALONE.sub("", response.get_data(as_text=True)))
    return page


def browse(base: str, href: str) -> str:
    """Resolve a link as a browser does (dot segments removed) and return its path and query."""
    parts = urlsplit(urljoin("http://localhost" + base, unescape(href)))
    return parts.path + ("?" + parts.query if parts.query else "")


def seat(api, players, finish: bool = False) -> int:
    """Create a Dixit session with one turn told by the second player; return its id."""
    sid = api.create(players=list(players))["id"]
    assert api.record(sid, turn(players[1], tuple(players))).status_code == 201
    if finish:
        assert api.client.post(f"/api/sessions/{sid}/finish").status_code == 200
    return sid


def test_a_dotted_name_links_to_its_own_page_and_renames_only_itself(api, client):
    seat(api, TABLE)
    seat(api, PLAIN_TABLE)
    roster = read(client, "/players")
    href = next(link for link, text in roster.links if text == DOTTED)
    url = browse("/players", href)
    page = read(client, url)
    assert page.h1.strip() == DOTTED
    action = browse(url, page.forms[-1])
    renamed = client.post(action, data={"name": "Zed"})
    assert renamed.status_code == 302
    assert read(client, browse(action, renamed.headers["Location"])).h1.strip() == "Zed"
    assert client.get("/api/players/Ann").get_json()["sessions_played"] == 2
    assert client.get("/api/players/Zed").get_json()["sessions_played"] == 1
    assert client.get("/api/player", query_string={"name": DOTTED}).status_code == 404


def test_a_plain_name_keeps_its_old_address(api, client):
    seat(api, PLAIN_TABLE)
    roster = read(client, "/players")
    assert ("/players/Ann", "Ann") in roster.links
    assert read(client, "/players/Ann").forms[-1] == "/players/Ann/rename"


@pytest.mark.parametrize("name", [DOTTED, ".", "..", "/Ann", "Ann/", "a//b", "./x", "x/."])
def test_names_that_a_path_would_change_link_by_a_query(api, client, name):
    seat(api, (name, "Ann", "Ben", "Cy"))
    roster = read(client, "/players")
    href = next(link for link, text in roster.links if text == name)
    assert read(client, browse("/players", href)).h1.strip() == name


@pytest.mark.parametrize("segment", ["YS8uLi9Bbm5", "YS8uLi9Bbm4=", "!!", "_w", "YQ"])
def test_a_broken_or_unknown_token_is_not_found(api, client, segment):
    seat(api, TABLE)
    assert client.get(f"/player/{segment}").status_code == 404
    assert client.post(f"/player/{segment}/rename", data={"name": "Zed"}).status_code == 404


def test_the_api_takes_a_name_as_a_query_too(api, client):
    seat(api, TABLE)
    shown = client.get("/api/player", query_string={"name": DOTTED})
    assert shown.status_code == 200 and shown.get_json()["name"] == DOTTED
    renamed = client.post("/api/player/rename", query_string={"name": DOTTED}, json={"name": "Zed"})
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "Zed"
    assert client.get("/api/players/Ann").get_json()["name"] == "Ann"
    assert client.get("/api/player").status_code == 404
    assert client.get("/api/players/Zed").get_json()["sessions_played"] == 1


def test_every_name_a_page_shows_is_isolated(api, client):
    finished = seat(api, ODD, finish=True)
    going = seat(api, ODD)
    pages = ["/", f"/sessions/{finished}", f"/sessions/{going}", f"/sessions/{finished}/print"]
    pages += ["/players", f"/players/{ODD[0]}"]
    for url in pages:
        loose = " ".join(read(client, url).loose)
        shown = [name for name in ODD if name in loose]
        assert shown == [], f"{url}: {shown} outside <bdi>"


def test_a_name_cannot_reorder_the_text_after_it(api, client):
    sid = seat(api, PLAIN_TABLE)
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert '<span class="delta"><bdi>Ben</bdi> <b>' in page
    assert "<dd><bdi>Cy</bdi></dd>" in page  # the next storyteller
    client.post(f"/api/sessions/{sid}/finish")
    assert "<strong><bdi>" in client.get(f"/sessions/{sid}").get_data(as_text=True)
    home = client.get("/").get_data(as_text=True)
    assert "<bdi>Ann</bdi>, <bdi>Ben</bdi>, <bdi>Cy</bdi>, <bdi>Dee</bdi>" in home


def test_names_with_slashes_have_their_own_pages(client):
    """A name may hold slashes ("a/b", "/"): its page is found, not a 404."""
    client.post("/api/sessions", json={"game": "dixit", "players": ["a/b", "/", "Cy"]})
    for name in ("a/b", "/"):
        response = client.get(f"/players/{name}")
        assert response.status_code == 200, name
