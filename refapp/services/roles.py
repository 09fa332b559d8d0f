"""A player's roles per game and their partner, read from the rows every write keeps: their
figures rows (each game's counters) and their pairs' rows (the partners a game counts), as the
game's ``RoleBook`` reads them (games/roles.py) - no more rows whatever the history."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..games import get_game
from ..games.roles import Partner, Roles, best_partner, seen_from
from ..games.tally import Tally
from ..models import PairFigures, PlayerFigures


def player_roles(
    player_id: int,
    rows: Iterable[PlayerFigures],
    pairs: Iterable[PairFigures],
    names: Mapping[int, str],
) -> tuple[dict[str, Roles], str | None]:
    """Return a player's roles by game and their partner: the most hands won together on one
    side, whatever the game (None without one). ``names``: the pairs' other players by id."""
    seen: dict[str, dict[str, Tally]] = {}
    for pair in pairs:
        mine = pair.first_id == player_id
        other = names.get(pair.second_id if mine else pair.first_id)
        if other is not None:
            seen.setdefault(pair.game, {})[other] = seen_from(pair.tally or {}, mine)
    roles: dict[str, Roles] = {}
    partners: list[Partner] = []
    for row in rows:
        book = get_game(row.game).role_book
        found = book.roles_from(row.tally or {})
        lines = book.partners_from(seen.get(row.game, {}))
        if lines is not None:
            found["partners"] = lines
            partners.extend(lines)
        roles[row.game] = found
    return roles, best_partner(partners)
