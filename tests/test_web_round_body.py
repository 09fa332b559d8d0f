"""The round forms' typed body: fields written at their input paths and read back, cards typed
and shown, and a fast read's version taken from its rows only when it is a number."""

from __future__ import annotations

from refapp.games.mighty.web.forms import card_list, cards_text
from refapp.serving.fast_reads import version_of
from refapp.web.forms.base import RoundBody, get, put, split


def test_put_writes_keys_lists_and_nested_parts_get_reads_them_back():
    body: RoundBody = {}
    put(body, ("storyteller",), "Ann")
    put(body, split("positions.{n}", {"n": 1}), "Ben")
    put(body, split("positions.{n}", {"n": 2}), "Cy")
    put(body, split("votes.{player}.1", {"player": "3"}), 2)  # a name made of digits stays a key
    put(body, ("contract", "boss"), "Dee")
    assert body == {
        "storyteller": "Ann",
        "positions": ["Ben", "Cy"],
        "votes": {"3": [2]},
        "contract": {"boss": "Dee"},
    }
    assert get(body, ("positions", 2)) == "Cy"
    assert get(body, ("positions", 3)) is None
    assert get(body, ("votes", "3", 1)) == 2
    assert get(body, ("contract", "boss", "more")) is None


def test_mighty_cards_typed_and_shown_as_the_field_holds_them():
    assert card_list("S5, s6;JK  H10") == ["S5", "s6", "JK", "H10"]
    assert card_list("  ") is None
    assert card_list(None) is None
    assert cards_text(["S5", "JK"]) == "S5 JK"


def test_a_fast_read_takes_only_a_numeric_version():
    assert version_of([(7, "text")]) == 7
    assert version_of([]) is None
    assert version_of([("7",)]) is None
