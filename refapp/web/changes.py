"""The audit trail in plain words: what changed in a session, when, and from what to what.

Headlines and the words around values are translated here; a game's input paths and coded
values are worded by ``path_words`` (player names isolated, never translated).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup

from ..games.game import AnyGame
from .path_words import describe_path, describe_value, fill_escaped, names, shown


def flatten(value: object, path: str = "") -> dict[str, object]:
    """Return {input path: leaf value}; list items are numbered from 1 like the field paths."""
    items: Iterable[tuple[object, object]]
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        items = ((str(index), item) for index, item in enumerate(value, 1))
    else:
        return {path: value} if path else {}
    flat: dict[str, object] = {}
    for key, item in items:
        flat.update(flatten(item, f"{path}.{key}" if path else str(key)))
    return flat


def fields(value: object) -> dict[str, object]:
    """Return an entry's before or after as an object ({} when it is not one)."""
    return value if isinstance(value, dict) else {}


def differences(game: AnyGame, before: object, after: object) -> list[Markup]:
    """Describe each input path whose value changed: "Dee's vote: 3 → 2"."""
    old, new = flatten(before or {}), flatten(after or {})
    lines = []
    for path in [*old, *(p for p in new if p not in old)]:
        if old.get(path) != new.get(path):
            lines.append(
                fill_escaped(
                    _("%(what)s: %(old)s → %(new)s"),
                    what=describe_path(game, path),
                    old=describe_value(game, path, old.get(path)),
                    new=describe_value(game, path, new.get(path)),
                )
            )
    return lines


def undone(game: AnyGame, before: object) -> list[Markup]:
    """Describe each input path of an undone round with its value: "Storyteller was Ben"."""
    return [
        fill_escaped(
            _("%(what)s was %(value)s"),
            what=describe_path(game, path),
            value=describe_value(game, path, value),
        )
        for path, value in flatten(before or {}).items()
    ]


def describe_entry(game: AnyGame, entry: Mapping[str, object]) -> tuple[str, Sequence[str]]:
    """Return the headline of an audit entry and its details, in the reader's language."""
    action, number = entry["action"], entry["round"]
    before, after = entry["before"], entry["after"]
    if action == "create_session":
        return _(
            "Session started with %(players)s.", players=names(fields(after).get("players"))
        ), []
    if action == "record_round":
        return _("Round %(n)s recorded.", n=number), []
    if action == "replace_round":
        return _("Round %(n)s corrected.", n=number), (
            differences(game, before, after) or [_("no change")]
        )
    if action == "delete_round":
        return _("Round %(n)s undone.", n=number), undone(game, before)
    if action == "finish_session":
        winners = fields(after).get("winners")
        return ngettext(
            "Session finished; winner: %(winners)s.",
            "Session finished; winners: %(winners)s.",
            len(winners) if isinstance(winners, list) else 1,
            winners=names(winners),
        ), []
    if action == "rename_player":
        return _(
            "Player renamed: %(old)s → %(new)s.",
            old=shown(fields(before).get("name")),
            new=shown(fields(after).get("name")),
        ), []
    if action == "import_session":
        rounds = fields(after).get("rounds")
        rounds = rounds if isinstance(rounds, int) else 0
        if fields(after).get("source") == "backup":
            return ngettext(
                "Session restored from a backup, %(num)d round replayed.",
                "Session restored from a backup, %(num)d rounds replayed.",
                rounds,
            ), []
        return ngettext(
            "Session imported from an export, %(num)d round replayed.",
            "Session imported from an export, %(num)d rounds replayed.",
            rounds,
        ), []
    if action == "set_location":
        return location_change(after), []
    return _("Other change: %(action)s.", action=str(action).replace("_", " ")), differences(
        game, before, after
    )


def location_change(after: object) -> str:
    """Return the history's headline of a ``set_location`` audit entry."""
    place = after.get("location") if isinstance(after, dict) else None
    if isinstance(place, str) and place:
        return str(_("Where you played set to %(place)s.", place=place))
    return str(_("Where you played cleared."))
