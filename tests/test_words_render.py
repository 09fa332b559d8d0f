"""Every message template and explanation, rendered with four kinds of name in en, ko and hu.

The names: 민수 (Hangul, vowel-final), 지훈 (Hangul, consonant-final), Sam (Latin), Ödön
(Hungarian); numbers 4 and 10 (read vowel- and consonant-final in Korean). What a rendered
sentence must not hold is tests/words_check.py's list.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from refapp.games.codes import CODES, Kind
from refapp.games.dalmuti.words_before import EARLIER as DALMUTI_EARLIER
from refapp.games.mighty.explain.words_before import EARLIER as MIGHTY_EARLIER
from refapp.i18n import explain
from refapp.models import Round, db

from . import words_check
from .words_check import MORE_NAMES, NAMES, NUMBERS, filled, problems

ROOT = Path(__file__).parent.parent
TRANSLATIONS = ROOT / "refapp" / "translations"
GOLDEN = Path(__file__).parent / "golden"
EARLIER = frozenset(MIGHTY_EARLIER + DALMUTI_EARLIER)


def entries(language: str) -> list[tuple[str, str]]:
    """Return (msgid, msgstr) for every form of every entry of a catalog (msgid alone for en)."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        found = read_po(handle, locale=language)
    pairs = []
    for message in found:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        pairs += [(ids[min(i, len(ids) - 1)], text) for i, text in enumerate(strings)]
    return pairs


def status_of_kind(code: str) -> Kind:
    """Return the kind of an error code."""
    return CODES[code].kind


def rendered(template: str, language: str) -> list[str]:
    """Return the template filled with each sample name and number, particles fitted."""
    from refapp.particles import fit

    if language == "hu":  # names where a name stands, numbers elsewhere (articles fit those)
        samples = [filled(template, name, number) for name in NAMES for number in NUMBERS]
    else:
        samples = [filled(template, value) for value in NAMES + NUMBERS]
    return [fit(sample, language) for sample in samples]


@pytest.mark.parametrize("language", ["en", "ko", "hu"])
def test_every_catalog_sentence_renders_right_with_every_kind_of_name(language):
    """No template, filled with any sample name or number, shows a code or a misfit particle."""
    wrong = {}
    for msgid, text in entries("ko" if language == "en" else language):
        if language == "en" and msgid in EARLIER:
            continue  # stored rounds' English, kept as it was written; its translations are checked
        source = msgid if language == "en" else text
        shape = msgid in words_check.json_shape_templates()
        for shown in rendered(source, language):
            found = problems(shown, language, shape)
            if found:
                wrong[source] = (shown, found)
                break
    assert not wrong, f"{len(wrong)} templates, e.g. " + json.dumps(
        dict(list(wrong.items())[:8]), ensure_ascii=False, indent=1
    )


def test_korean_templates_write_a_name_dependent_particle_once_in_its_bracket_form():
    """After a placeholder a particle is written bracketed (이(가)), never bare (이, 가, 예요)."""
    bare = {
        text: hits for _msgid, text in entries("ko") if (hits := words_check.BARE.findall(text))
    }
    assert not bare, json.dumps(dict(list(bare.items())[:12]), ensure_ascii=False, indent=1)


def test_korean_fixed_words_take_their_own_particle():
    """A bracket particle stands only right after a placeholder: a fixed word has its own."""
    fixed = {
        text: hits
        for _msgid, text in entries("ko")
        if (hits := words_check.bracketed(words_check.PLACEHOLDER.sub("", text)))
    }
    assert not fixed, json.dumps(dict(list(fixed.items())[:12]), ensure_ascii=False, indent=1)


def renamed(case: dict) -> dict:
    """Return a golden case with its players renamed to the sample names (and more like them)."""
    names = NAMES + MORE_NAMES
    mapping = dict(zip(case["players"], names, strict=False))

    def walk(value):
        """Rename every string that is a player's name, as a value or a key."""
        if isinstance(value, str):
            return mapping.get(value, value)
        if isinstance(value, list):
            return [walk(item) for item in value]
        if isinstance(value, dict):
            return {mapping.get(key, key): walk(item) for key, item in value.items()}
        return value

    return walk(copy.deepcopy(case))


FILES = sorted(GOLDEN.glob("*.json"))


def shown_for(case: dict, app, client) -> list[tuple[str, str, bool]]:
    """Run one worked case, its players renamed; return its refusals and explanations shown.

    Each entry is (language, sentence, whether it refuses a JSON body of the wrong shape).
    """
    case = renamed(case)
    create = {"game": case["game"], "players": case["players"], "rules": case.get("rules", {})}
    create.update(case.get("session", {}))
    shown: list[tuple[str, str, bool]] = []

    def post(path: str, body: dict) -> tuple[int, dict]:
        """Post in each language; keep the refusal messages; return the last answer."""
        for language in ("ko", "hu", "en"):
            response = client.post(path, json=body, headers={"Accept-Language": language})
            if response.status_code // 100 == 2:
                return response.status_code, response.get_json()
            error = response.get_json()["error"]
            shape = status_of_kind(error["code"]) == Kind.MALFORMED
            shown.append((language, error["message"], shape))
        return response.status_code, response.get_json()

    status, body = post("/api/sessions", create)
    if status != 201:
        return shown
    for step in case.get("rounds", []):
        post(f"/api/sessions/{body['id']}/rounds", step["input"])
    with app.app_context():
        stored = db.select(Round).where(Round.session_id == body["id"])
        results = [played.result for played in db.session.scalars(stored)]
    for language in ("en", "ko", "hu"):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            shown += [(language, line, False) for result in results for line in explain(result)]
    return shown


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_golden_refusals_and_explanations_read_right_in_every_language(path, app, client):
    """Each worked case, its players renamed: its refusals and explanations, en/ko/hu, are clean."""
    cases = json.loads(path.read_text(encoding="utf-8"))
    wrong = []
    for case in cases:
        shown = shown_for(case, app, client)
        wrong += [
            (case["id"], language, text, found)
            for language, text, shape in shown
            if (found := problems(text, language, shape))
        ]
    assert cases and not wrong, json.dumps(wrong[:6], ensure_ascii=False, indent=1)


@pytest.mark.parametrize(
    ("word", "particle", "fitted"),
    [
        ("민수", "(이)에요", "민수예요"),
        ("지훈", "(이)에요", "지훈이에요"),
        ("Sam", "(이)에요", "Sam(이)에요"),
        ("Ödön", "이(가)", "Ödön이(가)"),
        ("민수", "이(가)", "민수가"),
        ("지훈", "을(를)", "지훈을"),
        ("지훈", "(으)로", "지훈으로"),
        ("4", "(이)에요", "4예요"),
        ("10", "은(는)", "10은"),
        ("1", "(으)로", "1로"),
        ("♠A", "을(를)", "♠A를"),
        ("♠10", "와(과)", "♠10과"),
        ("<bdi>민수</bdi>", "와(과)", "<bdi>민수</bdi>와"),
    ],
)
def test_a_korean_particle_fits_the_word_before_it(word, particle, fitted):
    """Hangul by its last syllable, a number as read, a card's rank letter; Latin keeps brackets."""
    from refapp.particles import fit

    assert fit(f"주공 {word}{particle}", "ko") == f"주공 {fitted}"


@pytest.mark.parametrize(
    ("following", "article"),
    [
        ("1", "az"),
        ("5.", "az"),
        ("50", "az"),
        ("2", "a"),
        ("10", "a"),
        ("100", "a"),
        ("1000", "az"),
        ("2000", "a"),
        ("Adó", "az"),
        ("„Adó”", "az"),
        ("licit", "a"),
    ],
)
def test_a_hungarian_article_fits_the_word_after_it(following, article):
    """a or az by the next word's first sound, a number's as read aloud (egy, öt, ezer ...)."""
    from refapp.particles import fit

    assert fit(f"Ez a(z) {following} lap.", "hu") == f"Ez {article} {following} lap."
    assert fit(f"A(z) {following} lap.", "hu") == f"{article.capitalize()} {following} lap."


def test_korean_pages_and_rule_messages_fit_particles_through_every_path(app):
    """Jinja's gettext, Flask-Babel's gettext and the rules' fill all fit the particles."""
    from flask import render_template_string
    from flask_babel import gettext

    from refapp.games.errors import fill

    with app.test_request_context("/", headers={"Accept-Language": "ko"}):
        page = render_template_string("{{ _('%(name)s', name='지훈') }}이(가)")
        assert page == "지훈이(가)"  # the template's literal text is not a particle to fit
        assert gettext("%(a)s이(가)", a="민수") == "민수가"
        assert fill("{a}(이)에요", {"a": "지훈"}) == "지훈이에요"
        shown = render_template_string("{{ _('%(a)s은(는)', a=name) }}", name="<b>민수</b>")
        assert shown == "&lt;b&gt;민수&lt;/b&gt;는"


@pytest.mark.parametrize("language", ["ko", "hu"])
def test_catalogs_keep_no_obsolete_entries(language):
    """`make translations` drops what the code no longer says (no `#~` entries pile up)."""
    text = (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    assert not [line for line in text.splitlines() if line.startswith("#~")]


SCRIPT_FILLED = re.compile(
    r"""_\(\s*(["'])(?P<msgid>.+?)(?<!\\)\1(?P<args>[^()]*(?:\([^()]*\)[^()]*)*)\)""", re.S
)
SCRIPT_ARG = re.compile(r"""(\w+)=\s*(?:["']\{|["']\{["']\s*~)""")


def script_filled() -> dict[str, set[str]]:
    """Return each template msgid whose placeholders a script fills on the phone ('{card}')."""
    found: dict[str, set[str]] = {}
    folders = [ROOT / "refapp" / "templates", *(ROOT / "refapp" / "games").glob("*/web/templates")]
    for folder in folders:
        for path in folder.rglob("*.html"):
            for call in SCRIPT_FILLED.finditer(path.read_text(encoding="utf-8")):
                names = set(SCRIPT_ARG.findall(call.group("args")))
                if names:
                    found.setdefault(call.group("msgid"), set()).update(names)
    return found


def test_a_placeholder_a_script_fills_takes_no_korean_particle():
    """The phone's script fills '{card}' after the page is made: nothing fits a particle there."""
    filled_later = script_filled()
    assert "Take back %(card)s" in filled_later  # the scan finds the pages' script words
    particle = re.compile(r"^(?:\(이\)|\(으\)|[이가은는을를와과로랑])")
    wrong = {}
    for msgid, text in entries("ko"):
        for name in filled_later.get(msgid, ()):
            for after in text.split(f"%({name})s")[1:]:
                if particle.match(after):
                    wrong[msgid] = text
    assert not wrong, json.dumps(wrong, ensure_ascii=False, indent=1)


@pytest.mark.parametrize(
    ("text", "language", "kind"),
    [
        ("주공 민수이에요.", "ko", "particle misfit"),
        ("초구 프렌드는 지훈예요.", "ko", "particle misfit"),
        ("지금은 버전 10가 아니에요.", "ko", "particle misfit"),
        ("지훈이(가) 이겼어요.", "ko", "bracket particle"),
        ("3등(으)로 나갔어요.", "ko", "bracket particle"),
        ("첫 판이고 tax_first_hand가 꺼져 있어요.", "ko", "code word"),
        ("friend.player는 민수예요.", "ko", "code word"),
        ("프렌드: SA를 가진 지훈.", "ko", "card code"),
        ("허용: card, none", "ko", "English word"),
        ("A(z) Ödön új neve: Éva.", "hu", "article before a name"),
        ("Sam Ödön kártyájára szavazott.", "hu", "two names side by side"),
        ("bemondott run", "hu", "English word"),
        ("Merchant trades are off (house rule merchant_trade is off).", "en", "code word"),
    ],
)
def test_the_checks_catch_what_the_review_found(text, language, kind):
    """Each check fails on the kind of sentence the language review found (so none is idle)."""
    assert any(found.startswith(kind) for found in problems(text, language))


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Sam이(가) 이겼어요.", "ko"),
        ("주공 민수예요; 10이에요.", "ko"),
        ("예: <code>SA JK H10</code>", "ko"),
        ("Ödön szavazata: Sam kártyája (1. hely) – Sam +1.", "hu"),
    ],
)
def test_the_checks_pass_a_right_sentence(text, language):
    """A Latin name's bracket form, fitted particles, typed code and a clean line pass."""
    assert problems(text, language) == []
