"""The hand form at four, six and seven seats: the kill (6마, 7마) and who rests, as fields.

The rules' state says what the coming hand needs (``kills``, ``sitters``, the known
``sits_out``, ``sits_out_free``); a state from before those facts falls back on the seat count
and the rule options. A kill is three fields (its card, the player who held it, the misses named
before it), twice at seven seats; the sitters at seven seats are two names. Six seats under
``dealer_sits_out`` name no sitter: the dealer rests, and the dealer field says who that is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from wtforms import Field, SelectChoice, SelectField, StringField

from ....services import SessionView
from ....web.forms.common import options
from .. import GAME
from ..house_rules.rules import MightyRules, MightyTable
from ..seats.deal import PLAIN_SEATS, deal_for
from ..seats.in_hand import first_in_hand, without
from . import blueprint

#: the fields of each kill, in the order named (seven seats: two)
KILL_FIELDS = (
    ("kill_card", "kill_player", "kill_misses"),
    ("kill2_card", "kill2_player", "kill2_misses"),
)
#: the fields naming the sitters at seven seats, in the order of play
SITTER_FIELDS = ("sits_out", "sits_out2")
#: a refusal of the kill or the sitters: the field it stands by (the most precise path first)
SEAT_REFUSALS = {
    "kill.1.card": "kill_card",
    "kill.1.player": "kill_player",
    "kill.1.misses": "kill_misses",
    "kill.1": "kill_card",
    "kill.2.card": "kill2_card",
    "kill.2.player": "kill2_player",
    "kill.2.misses": "kill2_misses",
    "kill.2": "kill2_card",
    "kill.card": "kill_card",
    "kill.player": "kill_player",
    "kill.misses": "kill_misses",
    "kill": "kill_card",
}


@dataclass(frozen=True)
class Seats:
    """What the coming hand's seat count asks of the form."""

    seats: int = PLAIN_SEATS
    #: kills a played hand needs (0, 1 or 2), and players resting each hand (0, 1 or 2)
    kills: int = 0
    sitters: int = 0
    #: who rests in the coming hand when the state knows it
    resting: tuple[str, ...] = ()
    #: the coming hand must name its sitters itself (six seats: the dealer)
    free: bool = False
    #: the players in each hand: one card each a trick
    active: int = PLAIN_SEATS
    #: the cards the table plays without (four seats), and the friend cards the boss may not call
    out_of_deck: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()

    @property
    def plain(self) -> bool:
        """Return True at the plain game's five seats (no kill, nobody rests, no deal to tell)."""
        return plain_table(self.seats)

    @property
    def names_sitters(self) -> bool:
        """Return True when the hand names who rests: more than one (seven seats)."""
        return self.sitters > 1

    @property
    def dealer_rests(self) -> bool:
        """Return True when the dealer is the one who rests (six seats, dealer_sits_out)."""
        return self.sitters == 1

    @property
    def refusals(self) -> dict[str, str]:
        """Return the fields the kill's and the sitters' refusals stand by at this table."""
        sitter = "dealer" if self.dealer_rests else "sits_out"
        return {**SEAT_REFUSALS, "sits_out": sitter}


def plain_table(seats: int) -> bool:
    """Return True at the plain game's five seats, where the facts tell no deal."""
    return seats == PLAIN_SEATS


def seats_of(
    players: Sequence[str], rules: Mapping[str, object], state: Mapping[str, object]
) -> Seats:
    """Return what the coming hand asks for, from the state (or, for a state from before it told
    the deal, from how the rules deal at this seat count)."""
    count = len(players)
    deal = deal_for(MightyRules.of(rules), count)
    kills = _told(state, "kills", deal.kills)
    sitters = _told(state, "sitters", deal.sitters)
    active = _told(state, "active_count", deal.active_count)
    resting = names_in(state.get("sits_out"))
    free = bool(state.get("sits_out_free", sitters and not resting))
    return Seats(
        count,
        kills,
        sitters,
        tuple(n for n in resting if n in players),
        free,
        active,
        names_in(state.get("out_of_deck")),
        names_in(state.get("friend_forbidden")),
    )


def names_in(value: object) -> tuple[str, ...]:
    """Return a state's name or list of names (cards) as a tuple (none: empty)."""
    if isinstance(value, str):
        return (value,)
    return tuple(str(item) for item in value) if isinstance(value, list | tuple) else ()


def _told(state: Mapping[str, object], key: str, dealt: int) -> int:
    """Return a count the state tells, else the one the deal gives."""
    value = state.get(key)
    return value if isinstance(value, int) else dealt


def greyed(choices: list[SelectChoice], out: Sequence[str]) -> list[SelectChoice]:
    """Return a select's choices with the players out of the hand greyed (not choosable)."""
    return [
        SelectChoice(c.value, c.label, render_kw={"disabled": True}) if c.value in out else c
        for c in choices
    ]


def seat_fields(players: Sequence[str], seats: Seats) -> dict[str, Field]:
    """Return the kill's and the sitters' fields this table needs (none at four or five)."""
    anyone = options(["", *players], ["-", *players])
    active = greyed(anyone, seats.resting)
    loose = {"validate_choice": False}  # the rules judge every value, with better words
    typed = {"autocomplete": "off", "spellcheck": "false", "autocapitalize": "characters"}
    fields: dict[str, Field] = {}
    for number, (card, player, misses) in enumerate(KILL_FIELDS[: seats.kills], start=1):
        fields[card] = StringField(
            _("Card named to kill (킬)") if seats.kills == 1 else kill_words(number),
            render_kw={**typed, "placeholder": _("e.g. %(cards)s", cards="JK, SA")},
        )
        fields[player] = SelectField(_("Killed: who held it"), choices=active, **loose)
        fields[misses] = StringField(
            _("Misses (in the kitty or the boss's hand)"),
            render_kw={**typed, "placeholder": _("e.g. %(cards)s", cards="HA DK")},
        )
    if seats.names_sitters:
        fields["sits_out"] = SelectField(_("Resting"), choices=anyone, **loose)
        fields["sits_out2"] = SelectField(_("Resting, second"), choices=anyone, **loose)
    return fields


def kill_words(number: int) -> str:
    """Return the label of the first or the second kill's card at seven seats."""
    if number == 1:
        return str(_("First card named to kill (킬)"))
    return str(_("Second card named to kill (킬)"))


def card_list(text: object) -> list[str]:
    """Return the cards typed in a field (separated by spaces, commas or semicolons)."""
    return [card for card in str(text or "").replace(",", " ").replace(";", " ").split() if card]


def kill_part(
    data: Mapping[str, object], kills: int
) -> dict[str, object] | list[dict[str, object]] | None:
    """Return the round input's ``kill`` from the fields' data, or None when none was entered."""
    named = [one_kill(data, fields) for fields in KILL_FIELDS[:kills]]
    if not any(named):
        return None
    if kills == 1:
        return named[0]
    return [kill or {} for kill in named]


def one_kill(data: Mapping[str, object], fields: tuple[str, str, str]) -> dict[str, object] | None:
    """Return one kill as the input names it: its card, its player, the misses before it."""
    card, player, misses = fields
    kill: dict[str, object] = {}
    if str(data.get(card) or "").strip():
        kill["card"] = str(data[card]).strip()
    if data.get(player):
        kill["player"] = data[player]
    missed = card_list(data.get(misses))
    if missed:
        kill["misses"] = missed
    return kill or None


def sitters_part(data: Mapping[str, object], seats: Seats) -> list[object] | None:
    """Return the round input's ``sits_out`` at seven seats (None when nobody was named)."""
    if not seats.names_sitters:
        return None
    named = [data.get(name) or None for name in SITTER_FIELDS]
    return named if any(named) else None


def seat_data(stored: Mapping[str, object], seats: Seats) -> dict[str, str]:
    """Return the fields' data that show a stored round's kill and sitters (for a correction)."""
    data: dict[str, str] = {}
    kill = stored.get("kill")
    kills = kill if isinstance(kill, list) else [kill] if isinstance(kill, Mapping) else []
    for fields, one in zip(KILL_FIELDS, kills, strict=False):
        if not isinstance(one, Mapping):
            continue
        card, player, misses = fields
        data[card] = str(one.get("card") or "")
        data[player] = str(one.get("player") or "")
        missed = one.get("misses")
        if isinstance(missed, list):
            data[misses] = " ".join(map(str, missed))
    sitters = stored.get("sits_out")
    if seats.dealer_rests and isinstance(sitters, str) and not stored.get("dealer"):
        data["dealer"] = sitters  # six seats: the dealer is the one who rests
    elif isinstance(sitters, list):
        for name, value in zip(SITTER_FIELDS, sitters, strict=False):
            data[name] = str(value or "")
    return data


def kill_fields(kills: int) -> tuple[tuple[str, str, str], ...]:
    """Return the fields of each kill the hand needs, in the order named."""
    return KILL_FIELDS[:kills]


def seats_script(seats: Seats) -> dict[str, object]:
    """Return what mighty.js needs to grey the players out of the hand as the form changes."""
    return {
        "seats": seats.seats,
        "kills": seats.kills,
        "sitters": seats.sitters,
        "resting": list(seats.resting),
        "dealer_rests": seats.dealer_rests,
    }


blueprint.add_app_template_global(kill_fields, "mighty_kill_fields")
blueprint.add_app_template_global(seats_script, "mighty_seats_script")
blueprint.add_app_template_global(plain_table, "mighty_plain_table")


def resting_players(view: SessionView) -> tuple[str, ...]:
    """Return who rests in the coming hand (the standings grey them): the state's sitters, or
    the next dealer when the dealer rests and the state names no sitter."""
    table = GAME.with_house_rules(view.table)
    state: Mapping[str, object] = view.state or {}
    seats = seats_of(table.players, table.rules, state)
    dealer = state.get("next_dealer")
    if not seats.resting and seats.dealer_rests and isinstance(dealer, str) and dealer:
        return (dealer,)
    return seats.resting


def bidders(
    table: MightyTable, seats: Seats, data: Mapping[str, object]
) -> tuple[MightyTable, str | None]:
    """Return who bids in the hand the form holds (the seated but those resting: the dealer
    under dealer_sits_out, the sitters named, else the state's) and who bids first."""
    given = data.get("dealer")
    dealer = given if isinstance(given, str) and given else None
    resting: tuple[str, ...] = seats.resting
    if seats.dealer_rests and dealer in table.players:
        resting = (dealer,)
    elif seats.names_sitters:
        named = tuple(str(data[name]) for name in SITTER_FIELDS if data.get(name))
        resting = named or resting
    playing = without(table, [name for name in resting if name in table.players], "resting")
    if dealer not in table.players:
        return playing, None  # no dealer, or one not seated: the log's first bidder starts
    return playing, first_in_hand(playing, table.players, dealer)
