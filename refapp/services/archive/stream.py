"""Read a large JSON document a piece at a time, never holding more than one piece of it.

An import (up to ~275 MiB) or a backup is far larger than any of its parts: its rounds and
audit entries are each a few KB. ``JsonStream`` walks the document's outer objects and lists
itself and decodes each part (a round, an entry, the players) with the standard library's C
decoder, refusing a part larger than its caller allows, so memory stays bounded by the
largest part, not the document. Offsets are in bytes, so a caller may come back to a part.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from typing import IO, Any

from ...games.errors import MalformedInput

#: bytes read from the file at a time
CHUNK = 1024 * 1024
WHITESPACE = re.compile(r"[ \t\n\r]*")
#: how close to the buffer's end a decoding error may be and still mean "cut short here"
#: (the longest token that can be cut: a \uXXXX escape)
CUT_SHORT = 6


def syntax_error(why: str, offset: int) -> MalformedInput:
    """Return the refusal of a body that is not valid JSON, saying where."""
    return MalformedInput(
        "invalid_json",
        "This is not valid JSON: {why} (at byte {offset}).",
        None,
        why=why,
        offset=offset,
    )


def too_large(where: str, most: int) -> MalformedInput:
    """Return the refusal of a part larger than any the app writes there."""
    return MalformedInput(
        "invalid_value",
        "{where} is larger than anything refapp writes there ({most} characters at most).",
        where or None,
        where=where or "the body",
        most=most,
    )


class JsonStream:
    """A cursor over one JSON document in a binary file, decoding one part at a time."""

    def __init__(self, raw: IO[bytes], start: int = 0, chunk: int = CHUNK) -> None:
        raw.seek(start)
        self.raw = raw
        self.chunk = chunk
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.text = ""
        self.index = 0
        #: bytes of the file before ``text`` begins
        self.base = start
        self.ended = False
        # NaN and Infinity are read (as the standard library does) and refused by the import's
        # value check, which names where they are
        self.decode = json.JSONDecoder(strict=True).raw_decode

    # -- the buffer ------------------------------------------------------------------------

    def offset(self) -> int:
        """Return the byte offset of the cursor in the file."""
        return self.base + len(self.text[: self.index].encode("utf-8"))

    def read_ahead(self, wanted: int) -> None:
        """Make at least ``wanted`` characters lie ahead of the cursor, unless the file ends."""
        if len(self.text) - self.index >= wanted or self.ended:
            return
        done = self.text[: self.index]
        self.base += len(done.encode("utf-8"))
        parts = [self.text[self.index :]]
        ahead = len(parts[0])
        while ahead < wanted and not self.ended:
            block = self.raw.read(self.chunk)
            try:
                piece = self.decoder.decode(block, final=not block)
            except UnicodeDecodeError as error:
                raise syntax_error("it is not UTF-8 text", self.base + ahead) from error
            self.ended = not block
            parts.append(piece)
            ahead += len(piece)
        self.text = "".join(parts)
        self.index = 0

    def skip_space(self) -> None:
        """Move the cursor past white space."""
        while True:
            self.read_ahead(1)
            blank = WHITESPACE.match(self.text, self.index)  # matches everywhere, maybe nothing
            self.index = blank.end() if blank else self.index
            if self.index < len(self.text) or self.ended:
                return

    def peek(self) -> str:
        """Return the next character after white space ('' at the end of the file)."""
        self.skip_space()
        return self.text[self.index] if self.index < len(self.text) else ""

    def expect(self, wanted: str, what: str) -> None:
        """Move past the character ``wanted``, or refuse the body naming ``what`` was due."""
        if self.peek() != wanted:
            found = self.peek() or "the end"
            raise syntax_error(f"expected {what}, found {found!r}", self.offset())
        self.index += 1

    # -- parts -----------------------------------------------------------------------------

    def value(self, where: str, most: int) -> Any:
        """Decode the value at the cursor, refusing one longer than ``most`` characters."""
        self.skip_space()
        self.read_ahead(most + 1)
        start = self.index
        try:
            found, end = self.decode(self.text, start)
        except json.JSONDecodeError as error:
            # the buffer holds more than ``most`` characters from here: a value cut short at
            # its end is longer than that
            cut_short = error.pos >= len(self.text) - CUT_SHORT or error.msg.startswith(
                "Unterminated string"
            )
            if cut_short and not self.ended:
                raise too_large(where, most) from None
            self.index = error.pos
            raise syntax_error(error.msg.lower(), self.offset()) from None
        except ValueError as error:  # a number past Python's digit limit
            raise syntax_error(str(error), self.offset()) from None
        except RecursionError:
            raise too_large(where, most) from None
        if end - start > most:
            raise too_large(where, most)
        self.index = end
        return found

    def keys(self, where: str, most_key: int = 200) -> Iterator[str]:
        """Walk the object at the cursor: yield each key; the caller reads or skips its value."""
        self.expect("{", f"an object for {where or 'the body'}")
        if self.peek() == "}":
            self.index += 1
            return
        while True:
            if self.peek() != '"':
                raise syntax_error("expected a key in quotes", self.offset())
            key = self.value(f"{where}: a key", most_key)
            self.expect(":", "':' after a key")
            yield key
            if self.peek() == ",":
                self.index += 1
                continue
            self.expect("}", "',' or '}'")
            return

    def items(self, where: str) -> Iterator[int]:
        """Walk the list at the cursor: yield each index; the caller reads or skips the item."""
        self.expect("[", f"a list for {where}")
        if self.peek() == "]":
            self.index += 1
            return
        index = 0
        while True:
            yield index
            index += 1
            if self.peek() == ",":
                self.index += 1
                continue
            self.expect("]", "',' or ']'")
            return

    def is_list(self) -> bool:
        """Return True when a list begins at the cursor."""
        return self.peek() == "["

    def is_object(self) -> bool:
        """Return True when an object begins at the cursor."""
        return self.peek() == "{"

    def finish(self) -> None:
        """Refuse anything but white space after the document."""
        if self.peek():
            raise syntax_error("more after the end of the document", self.offset())
