"""Korean, English and Hungarian: the language chosen, every string marked, every catalog full."""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from .conftest import SEED_TURN

ROOT = Path(__file__).parent.parent
APP = ROOT / "refapp"
TRANSLATIONS = APP / "translations"
LANGUAGES = ("ko", "hu")
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "lazy_gettext": None,
    "_l": None,
    "N_": None,
    "RuleViolation": (2,),
    "MalformedInput": (2,),
    "Conflict": (2,),
    "AccessDenied": (2,),
    "NotFound": (1,),
    "say": (1,),
    "RuleOption": (4,),
    "_choice": (3,),
    "_flag": (3,),
    "_cost": (3,),
    "_bad": (2,),
}
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def extracted() -> set[str]:
    """Return every English msgid the app's code and templates mark today."""
    method_map = [
        ("refapp/**.py", "python"),
        ("refapp/templates/**.html", "jinja2"),
        ("refapp/games/*/web/templates/**.html", "jinja2"),
    ]
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, keywords=KEYWORDS, options_map={}
    ):
        found.add(message[0] if isinstance(message, tuple) else message)
    return {m for m in found if m}


def catalog(language: str):
    """Return the language's catalog as stored in refapp/translations."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_string_has_a_translation(language):
    messages = catalog(language)
    missing = []
    for msgid in sorted(extracted()):
        entry = messages.get(msgid)
        text = entry.string if entry else None
        if isinstance(text, tuple):
            text = text[0]
        if not text or (entry and entry.fuzzy):
            missing.append(msgid)
    assert missing == [], f"{len(missing)} untranslated in {language}, e.g. {missing[:5]}"


def test_korean_rule_messages_are_korean():
    messages = catalog("ko")
    rule_templates = [m for m in extracted() if "{" in m]
    not_korean = [
        m
        for m in rule_templates
        if not HANGUL.search(str(messages.get(m).string if messages.get(m) else ""))
    ]
    assert not_korean == [], not_korean[:5]


class Texts(HTMLParser):
    """Collects the text a template shows outside Jinja expressions and tags' names."""

    ATTRIBUTES = ("placeholder", "title", "aria-label", "alt", "data-confirm")

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_data(self, data: str) -> None:
        self.found.append(data)

    def handle_starttag(self, tag, attrs) -> None:
        self.found.extend(value or "" for name, value in attrs if name in self.ATTRIBUTES)


JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
ALLOWED = re.compile(r"refapp|NT|JK|SA|[A-Z]\d+|nbsp|amp|times", re.I)


@pytest.mark.parametrize(
    "template",
    sorted(
        p.relative_to(APP / "templates").as_posix() for p in (APP / "templates").rglob("*.html")
    ),
)
def test_templates_show_no_unmarked_english(template):
    source = (APP / "templates" / template).read_text(encoding="utf-8")
    texts = Texts()
    texts.feed(JINJA.sub(" ", source))
    leftovers = [t.strip() for t in texts.found if re.search(r"[A-Za-z]{2,}", ALLOWED.sub("", t))]
    assert leftovers == [], f"{template}: text outside _(): {leftovers[:5]}"


#: (file, function) where a template arrives in a variable: its callers are checked instead
FORWARDERS = {("refapp/games/options.py", "_bad")}
#: a sentence's one-or-many pickers: each picks among a module's tuples of marked templates
#: (test_plural_forms_are_marked_templates checks those tuples)
PICKERS = {"counted", "in_tricks"}
PLURALS = APP / "games" / "mighty" / "plurals.py"


def literal(node: ast.expr) -> bool:
    """Return True for a string literal (or literals joined by +, or a literal marked N_)."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
        return len(node.args) == 1 and literal(node.args[0])
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in PICKERS:
        return bool(node.args) and isinstance(node.args[0], ast.Name)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return literal(node.left) and literal(node.right)
    return False


def test_plural_forms_are_marked_templates():
    """Every one-or-many form a picker chooses from is a literal template marked N_."""
    tree = ast.parse(PLURALS.read_text(encoding="utf-8"))
    tuples = [n.value for n in tree.body if isinstance(n, ast.Assign)]
    assert tuples and all(isinstance(value, ast.Tuple) for value in tuples)
    forms = [form for value in tuples for form in value.elts]  # type: ignore[attr-defined]
    assert all(isinstance(f, ast.Call) and getattr(f.func, "id", "") == "N_" for f in forms)
    assert all(literal(form) for form in forms)


def test_rule_messages_and_explanations_are_literal_templates():
    """A message built with an f-string cannot be translated: its template must be literal."""
    offenders = []
    calls = {
        "RuleViolation": 1,
        "MalformedInput": 1,
        "Conflict": 1,
        "AccessDenied": 1,
        "NotFound": 0,
        "say": 0,
        "_bad": 1,
        "N_": 0,
    }
    for path in APP.rglob("*.py"):
        where = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        forwarded = {
            id(inner)
            for function in ast.walk(tree)
            if isinstance(function, ast.FunctionDef) and (where, function.name) in FORWARDERS
            for inner in ast.walk(function)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or id(node) in forwarded:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            index = calls.get(name)
            if index is not None and len(node.args) > index and not literal(node.args[index]):
                offenders.append(f"{where}:{node.lineno}")
    assert offenders == []


def test_a_template_in_a_variable_is_caught():
    """The check above cannot be passed by wrapping a variable in N_()."""
    assert not literal(ast.parse("N_(message)").body[0].value)
    assert literal(ast.parse('N_("The field {path} is required.")').body[0].value)


def test_language_follows_the_picker_then_the_browser(client):
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)
    korean = client.get("/", headers={"Accept-Language": "ko-KR,ko;q=0.9"})
    assert '<html lang="ko">' in korean.get_data(as_text=True)
    picked = client.get("/language/hu?next=/sessions/new?game=dixit")
    assert picked.status_code == 302 and picked.headers["Location"].endswith("game=dixit")
    assert '<html lang="hu">' in client.get("/", headers={"Accept-Language": "ko"}).get_data(
        as_text=True
    )
    away = client.get("/language/ko?next=https://evil.example/")
    assert away.headers["Location"] == "/"


def test_api_messages_follow_accept_language_and_codes_stay_english(api, client):
    sid = api.create()["id"]
    bad = {**SEED_TURN, "votes": {"Ben": 3, "Cy": 2, "Dee": 2}}
    english = api.record(sid, bad).get_json()["error"]
    korean = client.post(
        f"/api/sessions/{sid}/rounds", json=bad, headers={"Accept-Language": "ko"}
    ).get_json()["error"]
    assert english["code"] == korean["code"] == "vote_own_card"
    assert english["message"] == "Ben voted for position 3, which is Ben's own card."
    assert HANGUL.search(korean["message"]) and "Ben" in korean["message"]
    client.set_cookie("lang", "ko")
    cookie_only = client.post(f"/api/sessions/{sid}/rounds", json=bad).get_json()["error"]
    assert cookie_only["message"] == english["message"]


PAGES = [
    "/",
    "/sessions/new?game=dixit",
    "/sessions/new?game=mighty",
    "/sessions/new?game=dalmuti",
    "/sessions/{sid}",
    "/sessions/{sid}/print",
    "/sessions/{sid}/changes",
    "/sessions/{sid}/rounds/1/edit",
    "/players",
    "/players/Ann",
]


def english_phrases() -> list[str]:
    """Return marked English phrases of two or more words without placeholders."""
    return sorted(
        m for m in extracted() if " " in m and "{" not in m and "%(" not in m and len(m) > 8
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_show_no_english_phrase_in_korean_or_hungarian(api, client, language):
    sid = api.create()["id"]
    api.record(sid, SEED_TURN)
    client.set_cookie("lang", language)
    phrases = english_phrases()
    messages = catalog(language)
    for path in PAGES:
        response = client.get(path.format(sid=sid))
        assert response.status_code == 200, path
        page = response.get_data(as_text=True)
        left = [
            p
            for p in phrases
            if p in page
            and (messages.get(p) and messages.get(p).string and messages.get(p).string != p)
        ]
        assert left == [], f"{language} {path}: {left[:5]}"


PLACEHOLDER = re.compile(r"\{[A-Za-z_0-9]+\}|%\([A-Za-z_0-9]+\)[sd]")


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_every_placeholder(language):
    """A translation that drops or renames a {value} would crash or lose the value."""
    wrong = []
    for message in catalog(language):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set().union(*(set(PLACEHOLDER.findall(text)) for text in ids))
        for text in texts:
            got = set(PLACEHOLDER.findall(text))
            if got != wanted and not (len(ids) == 2 and got <= wanted):
                wrong.append(ids[0])
    assert wrong == [], wrong[:5]
