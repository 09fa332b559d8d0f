"""Particles that fit the word they follow: Korean 이/가, 은/는 ... and Hungarian a/az.

A translation writes a particle once, in its bracket form, right after a placeholder:
"{player}(이)에요", "{player}이(가)", "a(z) {count}". Once the sentence is filled in, each bracket
form becomes the one the word takes - by a Hangul word's last syllable, a number as it is read
aloud, a card's rank letter (♠A reads 에이) - and stays bracketed only where the sound cannot be
known (a Latin or Hanja name). Korean choices are tossi's; Hungarian a/az is written here.
"""

from __future__ import annotations

import html
import re

import tossi
from markupsafe import Markup

# a bracket particle: 이(가) 은(는) 을(를) 와(과) and their reversed forms, (으)로..., (이)...
KOREAN = re.compile(
    r"(?:이\(가\)|가\(이\)|은\(는\)|는\(은\)|을\(를\)|를\(을\)|와\(과\)|과\(와\)"
    r"|\(으\)로[서써부터]*|\(이\)[가-힣]*)"
)
# markup that may close around a word before its particle (<bdi>민수</bdi>을(를))
CLOSING_TAGS = re.compile(r"(?:</?[a-zA-Z][^<>]*>)+$")
# a card as the pages write it, ending in a rank letter: ♠A, ♥K, ♦Q, ♣J (all read vowel-final)
CARD_LETTER = re.compile(r"[♠♥♦♣][AKQJ]$")
ARTICLE = re.compile(r"\b([Aa])\(z\)(\s+)((?:<[^<>]*>)*)([^\s<]*)")
LEADING_DIGITS = re.compile(r"[0-9]+")
HUNGARIAN_VOWELS = frozenset("aáeéiíoóöőuúüűAÁEÉIÍOÓÖŐUÚÜŰ")


def spoken(word: str) -> str:
    """Return the word as its sound is judged: tags and entities dropped, a card's letter read."""
    word = CLOSING_TAGS.sub("", html.unescape(word))
    if CARD_LETTER.search(word):
        return "에이"  # every rank letter's Korean name (에이, 케이, 큐, 제이) ends in a vowel
    return word


def korean(text: str) -> str:
    """Replace each bracket particle by the form the word before it takes."""
    if "(" not in text:
        return text
    pieces: list[str] = []
    start = 0
    for found in KOREAN.finditer(text):
        before = text[start : found.start()]
        pieces.append(before)
        word = last_word(text[: found.start()])
        particle = found.group()
        pieces.append(fitted_korean(word, particle) if word else particle)
        start = found.end()
    pieces.append(text[start:])
    return "".join(pieces)


def last_word(head: str) -> str:
    """Return the word a particle follows: the last one, a "(gloss)" after it stepped over."""
    if head.endswith(")"):
        opening = matching_bracket(head)
        if opening > 0:
            head = head[:opening].rstrip()  # "민수 (총리대신)이", "3장(6, 6, 조커)을" fit 민수, 장
    if not head or head[-1].isspace():
        return ""
    return spoken(head.rsplit(None, 1)[-1])


def matching_bracket(head: str) -> int:
    """Return where the bracket closing head opens (-1 when it never does)."""
    depth = 0
    for at in range(len(head) - 1, -1, -1):
        if head[at] == ")":
            depth += 1
        elif head[at] == "(":
            depth -= 1
            if depth == 0:
                return at
    return -1


def fitted_korean(word: str, particle: str) -> str:
    """Return the particle as it follows the word (its bracket form when the sound is unknown)."""
    try:
        joined = tossi.postfix(word, particle)
    except (KeyError, ValueError, IndexError):
        return particle
    return joined[len(word) :] if joined.startswith(word) else particle


def article(number_or_word: str) -> str | None:
    """Return "az" or "a" for the Hungarian word or number that follows (None if unknown)."""
    word = html.unescape(number_or_word).lstrip("„“\"'(")
    if not word:
        return None
    digits = LEADING_DIGITS.match(word)
    if digits:
        return "az" if vowel_number(int(digits.group())) else "a"
    if word[0] in HUNGARIAN_VOWELS:
        return "az"
    if word[0] in "-−♠♥♦♣":
        return "a"  # mínusz; pikk, kőr, káró, treff
    return "a" if word[0].isalpha() else None


def vowel_number(number: int) -> bool:
    """Say whether a number's Hungarian name starts with a vowel (egy, öt, ötven, ezer ...)."""
    if number >= 1000:
        thousands = number // 1000
        # 1000-1999 read ezer...; otherwise the thousands' own name leads (ötezer, kétezer)
        return thousands == 1 or vowel_number(thousands)
    if number >= 100:
        return number // 100 == 5  # ötszáz; száz, kétszáz ... start with a consonant
    if number >= 10:
        return number // 10 == 5  # ötven(-); tíz, húsz, harminc ... do not
    return number in (1, 5)  # egy, öt


def hungarian(text: str) -> str:
    """Replace each "a(z)" by "a" or "az" as the word or number after it begins."""
    if "(z)" not in text:
        return text

    def choose(found: re.Match[str]) -> str:
        """Return the article fitted to the next word, keeping its case and the text around."""
        chosen = article(found.group(4))
        if chosen is None:
            return found.group()
        if found.group(1) == "A":
            chosen = chosen.capitalize()
        return chosen + found.group(2) + found.group(3) + found.group(4)

    return ARTICLE.sub(choose, text)


FITTERS = {"ko": korean, "hu": hungarian}


def fit(text: str, language: str) -> str:
    """Fit the particles of a filled-in sentence in that language (Markup stays Markup)."""
    fitter = FITTERS.get(language)
    if fitter is None or not text:
        return text
    done = fitter(str(text))
    return Markup(done) if isinstance(text, Markup) else done
