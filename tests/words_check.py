"""What a sentence shown to players must not hold, in en, ko and hu: the checks words tests share.

A bracket particle after a word whose sound is known (a Hangul name, a number), a particle that
does not fit the sample name before it, an article before a Hungarian name or two names side by
side, an option key, a round input's path, a card code, an English word left in ko or hu.
"""

from __future__ import annotations

import re
from functools import cache

from babel.messages.extract import extract_from_dir

from refapp.games import GAMES

#: a vowel-final and a consonant-final Hangul name, a Latin name and a Hungarian name
NAMES = ("민수", "지훈", "Sam", "Ödön")
#: more players for larger tables, of the same four kinds
MORE_NAMES = ("서연", "Zoé", "하늘", "Bálint", "도윤", "Ilona")
#: numbers read vowel-final (4: 사) and consonant-final (10: 십) in Korean
NUMBERS = ("4", "10")

PLACEHOLDER = re.compile(r"\{[a-z_0-9]+\}|%\([a-z_0-9]+\)[sd]")
TAGS = re.compile(r"<[^<>]*>")
#: what a player types is shown as code on purpose (<code>SA JK H10</code>), so is a command's flag
CODE_ELEMENT = re.compile(r"<code>.*?</code>|--[a-z-]+", re.S)
BRACKET = (
    r"(?:이\(가\)|가\(이\)|은\(는\)|는\(은\)|을\(를\)|를\(을\)|와\(과\)|과\(와\)|\(으\)로|\(이\))"
)
KNOWN_SOUND_BRACKET = re.compile(r"[가-힣0-9]" + BRACKET)
#: particles that take another form after the other kind of final sound
MISFIT = (
    re.compile(
        r"(?:민수|(?<![0-9])4)(?:이(?:에요|라|어야|야|었|고|며|나|면|랑)?|은|을|과|으로)(?![가-힣])"
    ),
    re.compile(r"(?:지훈|(?<![0-9])10)(?:가|는|를|와|로|예요|라|여야|야|였|랑)(?![가-힣])"),
)
#: a bare particle right after a placeholder in a Korean template (its form depends on the word)
BARE = re.compile(
    r"(?:\{[a-z_0-9]+\}|%\([a-z_0-9]+\)[sd])(?:</?[a-z]+>)*"
    r"(이|가|은|는|을|를|와|과|로|으로|예요|이에요|라|이라|여야|이어야|랑|이랑|면|이면|나|이나)(?![가-힣(])"
)
CARD_CODE = re.compile(r"(?<![A-Za-z0-9\"'“„‘])(?:JK|[SHDC](?:10|[2-9AKQJ]))(?![A-Za-z0-9\"'”’])")
QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|„[^”]*”")
ENGLISH_WORD = re.compile(r"[A-Za-zÀ-ž][A-Za-zÀ-ž-]+")
#: words a Korean sentence may keep in Latin letters: formats, headers, the app's name, another
#: app's name as its store writes it (BG Stats), a letter rank (J), the sample Latin name
KOREAN_MAY_KEEP = frozenset(
    [
        "JSON",
        "CSV",
        "QR",
        "URL",
        "API",
        "HTTP",
        "ASCII",
        "ISO",
        "UTF-8",
        "If-Match",
        "X-Table-Password",
        "refapp",
        "BG",
        "Stats",
        "Mighty",
        "Dixit",
        "PIN",
        "SVG",
        "Sam",
        "Ödön",
        "true",
        "false",
        "null",
    ]
)
#: English words that would be left untranslated in a Hungarian sentence
NOT_HUNGARIAN = frozenset(
    [
        "the",
        "and",
        "of",
        "not",
        "run",
        "runs",
        "back-run",
        "trick",
        "tricks",
        "bid",
        "bids",
        "friend",
        "friends",
        "card",
        "cards",
        "player",
        "players",
        "round",
        "rounds",
        "boss",
        "kitty",
        "misdeal",
        "seed",
        "score",
    ]
)
#: the export format's own action names, quoted in import messages to the file's author
EXPORT_WORDS = frozenset({"create_session", "import_session", "rename_player"})


@cache
def code_words() -> tuple[str, ...]:
    """Return every option key and round-input path of every game (snake_case or dotted)."""
    found: set[str] = set()
    for game in GAMES.values():
        found.update(option.key for option in game.options if "_" in option.key)
        for path in game.round_input:
            spec = re.sub(r"\{[a-z]+\}\.?", "", path.spec).strip(".")
            if "_" in spec or "." in spec:
                found.add(spec)
            found.update(part for part in spec.split(".") if "_" in part)
    return tuple(sorted(found - EXPORT_WORDS, key=len, reverse=True))


@cache
def json_shape_templates() -> frozenset[str]:
    """Return the malformed-input templates: they tell a JSON body's author which field is off.

    A page never sends a body of the wrong shape (its own fields refuse first, in words), so these
    alone may name a JSON field or value as code.
    """
    found = extract_from_dir(
        "refapp", [("**.py", "python")], keywords={"MalformedInput": (2,)}, options_map={}
    )
    return frozenset(message for _file, _line, message, _comments, _context in found)


def problems(text: str, language: str, json_shape: bool = False) -> list[str]:
    """Return what is wrong with one sentence shown in that language (empty if nothing)."""
    plain = TAGS.sub("", CODE_ELEMENT.sub(" ", text))
    unquoted = QUOTED.sub(" ", plain)
    found = [] if json_shape else code_problems(unquoted, language)
    if language == "ko":
        found += [f"bracket particle after a known sound: {hit!r}" for hit in bracketed(plain)]
        found += [f"particle misfit {hit!r}" for rx in MISFIT for hit in rx.findall(plain)]
    if language == "hu":
        found += [f"article before a name: {hit!r}" for hit in article_before_name(plain)]
        found += [f"two names side by side: {hit!r}" for hit in names_side_by_side(plain)]
    return found


def code_problems(unquoted: str, language: str) -> list[str]:
    """Return the option keys, input paths, card codes and English words left in a sentence."""
    found = [f"code word {word!r}" for word in code_words() if code_word_in(word, unquoted)]
    found += [f"card code {code!r}" for code in CARD_CODE.findall(unquoted)]
    if language == "ko":
        found += [
            f"English word {word!r}"
            for word in ENGLISH_WORD.findall(unquoted)
            if word not in KOREAN_MAY_KEEP and word not in MORE_NAMES
        ]
    if language == "hu":
        found += [
            f"English word {word!r}"
            for word in ENGLISH_WORD.findall(unquoted)
            if word.lower() in NOT_HUNGARIAN
        ]
    return found


def code_word_in(word: str, text: str) -> bool:
    """Say whether a code word stands in the text as a word of its own."""
    return re.search(rf"(?<![A-Za-z0-9_.]){re.escape(word)}(?![A-Za-z0-9_])", text) is not None


def bracketed(text: str) -> list[str]:
    """Return each bracket particle left after a Hangul syllable or a digit."""
    return KNOWN_SOUND_BRACKET.findall(text)


def article_before_name(text: str) -> list[str]:
    """Return each Hungarian article standing before a sample name."""
    names = "|".join(NAMES)
    return re.findall(rf"\b(?:[Aa]z?|[Aa]\(z\)) (?:{names})\b", text)


def names_side_by_side(text: str) -> list[str]:
    """Return each pair of sample names written one after the other with only a space between."""
    names = "|".join(NAMES)
    return re.findall(rf"(?:{names}) (?:{names})\b", text)


#: the placeholders that stand for a player's name
NAME_KEYS = frozenset(
    [
        "player",
        "name",
        "second",
        "new",
        "old",
        "peasant",
        "dalmuti",
        "voter",
        "dealer",
        "boss",
        "giver",
        "leader",
        "friend",
        "expected",
        "winner",
        "who",
        "receiver",
        "storyteller",
        "other",
        "other1",
        "other2",
        "other3",
        "other4",
        "finder",
        "owner",
        "gp",
        "gd",
        "lp",
        "ld",
        "holder",
    ]
)


def filled(template: str, value: str, others: str | None = None) -> str:
    """Return a template filled with the value (names only, others elsewhere, if others given)."""

    def one(found: re.Match[str]) -> str:
        """Return the value for one placeholder."""
        key = found.group().strip("{}%()sd")
        return value if others is None or key in NAME_KEYS else others

    return PLACEHOLDER.sub(one, template.replace("%%", "%"))
