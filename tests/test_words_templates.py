"""No page builds a sentence from pieces: each sentence is one msgid, its links and names passed in.

A translator sees one msgid at a time: a sentence cut in two ("This table has a password."
<a>"Sign in"</a> "to record rounds.") cannot be put in the word order, the spacing or the
particles of Korean or Hungarian. The scan reads every template (the shared ones and every
game's) as a run of pieces: translated strings, other expressions, inline tags, Jinja
statements and text. Two translated strings are in one sentence when nothing but white space,
inline tags (<a>, <strong>, <b>, <bdi>, <em>, <span>, ...) and an ``if``/``for`` stand between
them, and the second does not sit in a sibling element of the first (``</a> <a>`` are two
links side by side: a menu, a tag and its note). Such a pair is a sentence built from pieces
when the first does not end a sentence (no final . ! ? : ;) and the second does not open an
aside "(...)", or when the second starts with a lower-case word (it carries on the first).
A translated string that does not end a sentence may not be followed in the same line of text
by a value either (a value in an element of its own, <b>{{ points }}</b>, is a label's value).
Inside one expression, a translated string joined with ``~`` must end its sentence too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "refapp"
TEMPLATES = sorted(
    [*ROOT.glob("templates/**/*.html"), *ROOT.glob("games/*/web/templates/**/*.html")]
)
#: the pieces of a template, in order: Jinja comments, expressions and statements, tags, text
PIECE = re.compile(
    r"(?P<comment>\{#.*?#\})"
    r"|(?P<expr>\{\{.*?\}\})"
    r"|(?P<stmt>\{%.*?%\})"
    r"|(?P<tag></?(?P<name>[a-zA-Z][a-zA-Z0-9]*)(?:\{\{.*?\}\}|\{%.*?%\}|[^>])*>)"
    r"|(?P<text>[^<{]+|[<{])",
    re.DOTALL,
)
#: elements that stand inside a line of text
INLINE = {"a", "abbr", "b", "bdi", "code", "em", "i", "kbd", "small", "span", "strong", "u"}
#: statements a sentence may run through (the others start another piece of the page)
THROUGH = re.compile(r"\{%-?\s*(if|endif|for|endfor|with|endwith)\b")
#: a call of _() or ngettext() with a literal first string: its msgid
CALL = re.compile(r"""\b(?:_|gettext|ngettext)\(\s*(?P<q>["'])(?P<msgid>.*?)(?<!\\)(?P=q)""")
#: how a sentence ends (a closing bracket or quote may follow)
ENDS = re.compile(r"[.!?:;…]\s*[)\]\"'”»]*\s*$")


def ends_sentence(msgid: str) -> bool:
    """Tell whether a msgid ends a sentence (or a label with its colon)."""
    return bool(ENDS.search(msgid))


def carries_on(msgid: str) -> bool:
    """Tell whether a msgid starts with a lower-case word: the rest of a sentence."""
    return bool(re.match(r"[a-z]", msgid))


class Line:
    """The scan's place in a line of text: the last translated string and what followed it."""

    def __init__(self) -> None:
        self.last: str | None = None  # its msgid, while a sentence may go on
        self.closed = False  # an inline tag closed since
        self.opened = False  # an inline tag opened since

    def stop(self) -> None:
        """End the line: what comes next starts a sentence of its own."""
        self.last = None

    def tag(self, name: str, closing: bool) -> None:
        """Pass a tag: an inline one keeps the line, any other ends it."""
        if name.lower() not in INLINE:
            self.stop()
        elif closing:
            self.closed = True
        else:
            self.opened = True

    def expression(self, code: str) -> list[str]:
        """Pass an expression; return the cut sentences it ends."""
        msgids = [call.group("msgid") for call in CALL.finditer(code)]
        last, self.last = self.last, msgids[-1] if msgids else None
        siblings, opened = self.closed and self.opened, self.opened
        self.closed = self.opened = False
        if last is None:
            return []
        if not msgids:
            # a value written on in the same line of text (not in an element of its own)
            cut = not opened and not ends_sentence(last)
            return [f"{last!r} + {code.strip()!r}"] if cut else []
        first = msgids[0]
        cut = carries_on(first) or (not ends_sentence(last) and not first.startswith("("))
        return [f"{last!r} + {first!r}"] if cut and not siblings else []


def pieces_of(source: str) -> list[str]:
    """Return every sentence of a template built from pieces, as "msgid + msgid" lines."""
    found: list[str] = []
    line = Line()
    for match in PIECE.finditer(source):
        text = match.group(0)
        if match.group("tag"):
            line.tag(match.group("name"), text.startswith("</"))
        elif match.group("stmt"):
            found += joined_in(text)
            if not THROUGH.match(text):
                line.stop()
        elif match.group("expr"):
            found += joined_in(text) + line.expression(text)
        elif match.group("text") and text.strip():
            line.stop()
    return found


def joined_in(code: str) -> list[str]:
    """Return the translated strings of one expression that ``~`` joins to more words."""
    found = []
    for call in CALL.finditer(code):
        after = code[call.end() :]
        rest = re.match(r"\s*(?:,[^)]*)?\)\s*(?:\|\s*\w+\s*)?~", after)
        if rest and not ends_sentence(call.group("msgid")):
            found.append(f"{call.group('msgid')!r} ~ ...")
    return found


OLD_SESSION = """
<section class="card" id="record">
  <p>{{ _("This table has a password.") }} <a href="{{ url_for('web.sign_in', next=here()) }}">{{
  _("Sign in") }}</a> {{ _("to record rounds.") }}</p>
</section>
"""


def test_the_scan_catches_a_sentence_cut_around_a_link():
    assert pieces_of(OLD_SESSION) == ["'Sign in' + 'to record rounds.'"]


@pytest.mark.parametrize(
    "source",
    [
        '<p>{{ _("Won by") }} <strong>{{ _("the boss") }}</strong></p>',
        '<p>{{ _("Round %(n)d", n=1) }}{% if x %} <em>{{ _("(corrected)") }}</em>{% endif %}'
        ' {{ _("was lost") }}</p>',
        '{% set how = _("Between %(low)d and") ~ " " ~ high %}',
        '<p><a href="/in">{{ _("Sign in") }}</a> {{ rest }}</p>',
    ],
)
def test_the_scan_catches_other_cuts(source):
    assert pieces_of(source) != []


@pytest.mark.parametrize(
    "source",
    [
        # one msgid with the link passed in: the fixed page
        '{% set link %}<a href="/in">{{ _("Sign in") }}</a>{% endset %}'
        '<p>{{ _("This table has a password. %(sign_in)s to record rounds.", sign_in=link) }}</p>',
        # two whole sentences, a label and its value, links side by side, alternatives
        '<p><strong>{{ _("Checked: nothing wrong.") }}</strong> {{ _("Recorded as it is.") }}</p>',
        '<p>{{ _("Now:") }} <b>{{ _("Ann") }}</b></p>',
        '<button>{{ _("Mighty") }} <span>{{ "SA" | card_face }}</span></button>',
        '<nav><a href="/">{{ _("Sessions") }}</a> <a href="/p">{{ _("Players") }}</a></nav>',
        '<b>{% if a %}{{ _("Rematch") }}{% else %}{{ _("Same players again") }}{% endif %}</b>',
        '<p>{{ _("Title") }} · {{ _("started %(when)s") }}</p>',
        '<dd>{{ _("%(n)d in hand") }}{% if r %} {{ _("(reshuffled %(n)d×)") }}{% endif %}</dd>',
    ],
)
def test_the_scan_passes_whole_sentences(source):
    assert pieces_of(source) == []


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_template_builds_a_sentence_from_pieces(path):
    assert pieces_of(path.read_text(encoding="utf-8")) == []


def test_the_scan_reads_every_games_templates():
    games = {
        path.relative_to(ROOT).parts[1]
        for path in TEMPLATES
        if path.relative_to(ROOT).parts[0] == "games"
    }
    assert {"dalmuti", "dixit", "mighty"} <= games


@pytest.mark.parametrize(
    ("game", "count"), [("mighty", "4 to 7 players."), ("dixit", "3 to 8 players.")]
)
def test_the_players_hint_says_the_game_s_count(client, game, count):
    page = client.get(f"/sessions/new?game={game}").get_data(as_text=True)
    assert count in page
