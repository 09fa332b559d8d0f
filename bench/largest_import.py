"""Write the largest import the limit allows: Mighty hands played trick by trick, each corrected.

Usage: python bench/largest_import.py OUT.json [ROUNDS]   (default: values.MAX_ROUNDS)

Every round is a legal hand (a worked case's ten tricks) under five 20-letter accented names,
recorded and corrected, as a table that fixes every hand would leave it: the export holds each
hand's input, its full result (tricks, explanation) and its audit entries, with corrections
added until the file nearly reaches the import limit. Printed: its size against the limit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from refapp import create_app
from refapp.games import get_game
from refapp.games.game import Table, replay
from refapp.services import limits, values
from refapp.services.archive import exports, imports
from refapp.services.limits import AUDIT_MAX

#: five long names (20 letters, accents: two bytes each in UTF-8) for the worked case's seats
NAMES = {
    "Ann": "Ánnabella Kovácsné É",
    "Ben": "Benedek Szőllősiéké",
    "Cy": "Cyprián Tóth-Öreghé",
    "Dee": "Dóra Éva Fehérváriné",
    "Eve": "Éva Ürögdi-Kálmánné",
}
MOMENT = "2026-01-01T00:00:00+00:00"


def renamed(value):
    """Return a copy of JSON with the worked case's names replaced by the long ones."""
    if isinstance(value, str):
        return NAMES.get(value, value)
    if isinstance(value, dict):
        return {NAMES.get(key, key): renamed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [renamed(item) for item in value]
    return value


def hand() -> dict:
    """Return a legal trick-by-trick Mighty hand (worked case MT-01) under the long names."""
    golden = Path(__file__).parent.parent / "tests" / "golden" / "mighty-tricks.json"
    case = json.loads(golden.read_text(encoding="utf-8"))[0]
    return renamed(case["rounds"][0]["input"])


def largest_export(count: int, budget: int | None = None) -> dict:
    """Return a valid export of up to count Mighty hands (rules replayed, results kept).

    With a ``budget`` (the bytes a session may keep, as services/limits.py counts them), as
    many hands as fit are recorded, then corrections are spread over them while they fit,
    within the trail's limit: the largest session a table could store and export.
    """
    game = get_game("mighty")
    rules = game.resolve_rules({})
    seated, initial = game.start(list(NAMES.values()), rules, {})
    played = hand()
    outcomes = list(replay(game, Table(tuple(seated), dict(rules)), initial, [played] * count))
    created = {
        "at": MOMENT,
        "action": "create_session",
        "round": None,
        "before": None,
        "after": {
            "game": "mighty",
            "name": "",
            "players": list(seated),
            "preset": None,
            "rules": rules,
        },
    }
    body = {
        "format": exports.FORMAT,
        "version": exports.VERSION,
        "exported_at": MOMENT,
        "id": 1,
        "game": "mighty",
        "name": "",
        "players": list(seated),
        "preset": None,
        "rules": rules,
        "setup": {},
        "created_at": MOMENT,
        "updated_at": MOMENT,
        "session_version": 1,
        "finished": False,
        "finished_by": None,
        "finished_at": None,
        "rounds": [],
        "totals": dict.fromkeys(seated, 0),
        "winners": [],
        "audit": [],
    }
    # filled as a live session may grow, counted as services/limits.py counts a stored session:
    # hands (each with its record_round entry) while they fit, then corrections spread over them
    size = limits.entry_bytes(None, created["after"])
    import_entry = limits.entry_bytes(None, {"source": "export", "rounds": count})
    room = (budget or 2**62) - import_entry
    body["audit"].append(created)
    fits = []
    for outcome in outcomes:
        cost = limits.round_bytes(outcome.input, outcome.result)
        cost += limits.entry_bytes(None, outcome.input)
        if size + cost > room:
            break
        size += cost
        fits.append(outcome)
    fixes: dict[int, int] = dict.fromkeys(range(1, len(fits) + 1), 0)
    entries = 1 + len(fits)
    while budget and fits and entries < AUDIT_MAX - 1:
        before = entries
        for number, outcome in enumerate(fits, 1):
            cost = limits.entry_bytes(outcome.input, outcome.input)
            if size + cost > room or entries >= AUDIT_MAX - 1:
                break
            size += cost
            fixes[number] += 1
            entries += 1
        if entries == before or size + cost > room:
            break
    for number, outcome in enumerate(fits, 1):
        body["rounds"].append(round_of(number, outcome))
        record = {"at": MOMENT, "action": "record_round", "round": number, "before": None}
        body["audit"].append({**record, "after": outcome.input})
        correction = {**record, "action": "replace_round", "before": outcome.input}
        body["audit"] += [{**correction, "after": outcome.input}] * fixes[number]
        for name, delta in outcome.result["deltas"].items():
            body["totals"][name] += delta
    return body


def round_of(number: int, outcome) -> dict:
    """Return a replayed hand as an export writes it."""
    result = {k: v for k, v in outcome.result.items() if k != "explanation_parts"}
    return {
        "number": number,
        "input": outcome.input,
        "result": result,
        "recorded_at": MOMENT,
        "corrected_at": MOMENT,
    }


def write_largest(out: Path, count: int | None = None) -> str:
    """Write the largest export the import limit allows to out; return a line saying its size."""
    count = values.MAX_ROUNDS if count is None else count
    budget = limits.SESSION_MAX_BYTES - 64 * 1024
    with create_app(
        {"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    ).app_context():
        body = largest_export(count, budget)
    with out.open("w", encoding="utf-8") as handle:
        json.dump(body, handle, ensure_ascii=False, separators=(",", ":"))
    size = out.stat().st_size
    return (
        f"largest import: {len(body['rounds'])} rounds, {len(body['audit'])} audit entries, "
        f"{size:,} bytes "
        f"({size / 2**20:.1f} MiB); the body limit is {imports.IMPORT_MAX_BYTES:,} bytes, and a "
        f"session holds at most {limits.SESSION_MAX_BYTES:,} bytes as stored"
    )


def main(argv: list[str]) -> None:
    """Write the export and print its size beside the import limit."""
    print(write_largest(Path(argv[0]), int(argv[1]) if len(argv) > 1 else None))


if __name__ == "__main__":
    main(sys.argv[1:])
