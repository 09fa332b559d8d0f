"""Lists of words in a message: each word translated when the message is filled, then joined."""

from __future__ import annotations

from collections.abc import Iterable

from . import errors


class Words(tuple[str, ...]):
    """Words marked N_, shown in a message as one list in the reader's language.

    Pass it as a message's parameter (``allowed_t=Words(...)``): ``errors.fill`` formats it, and
    formatting translates each word with the installed translator and joins them (commas, or
    the separator given: " / " for words that hold commas themselves).
    """

    separator: str

    def __new__(cls, words: Iterable[str], separator: str = ", ") -> Words:
        made = super().__new__(cls, tuple(words))
        made.separator = separator
        return made

    def __format__(self, spec: str) -> str:
        return format(self.separator.join(errors.translate(word) for word in self), spec)

    def __str__(self) -> str:
        return self.__format__("")
