"""Write the largest import a game's limit allows: its largest rounds, corrected while they fit.

Usage: python bench/largest_import.py OUT.json [ROUNDS [GAME]]   (default: values.MAX_ROUNDS
Mighty hands; GAME is mighty, dixit or dalmuti)

Every round is a legal one under 20-letter accented names at the game's most players: a Mighty
hand of ten tricks (a worked case's), a Dixit turn of 12 players voting twice, a Dalmuti hand of 8
with every hand as dealt, the tax and two merchants' swaps. Each is recorded, then corrected, as a
table that fixes every round would leave it: the export holds each round's input, its full result
(explanation) and its audit entries, with corrections added until the session holds what its
game allows. Printed: its size against the game's limit.
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


#: more long names, for the games that seat up to 8 or 12
MORE_NAMES = [
    "Gáspár Ödönné Ürményi",
    "Hédi Szűcs-Ágostonné",
    "Ilona Bőrcsökné Ékes",
    "Jenő Kőszegi-Ürgeé",
    "Kálmán Őrsi-Ézsiásné",
    "Lőrinc Ábrahám-Űrné",
    "Márta Ősz-Cziráknéé",
]
#: the games' largest realistic rounds: their house rules, players and inputs (bench/round_sizes.py)
GAMES = ("mighty", "dixit", "dalmuti")


def dixit_turns(names: list[str], count: int) -> list[dict]:
    """Return count Dixit turns of 12 players, each voting twice (the Odyssey rule)."""
    turns = []
    for index in range(count):
        teller = index % len(names)
        laid = names[teller:] + names[:teller]
        votes = {name: [1, 2 if laid[1] != name else 3] for name in laid[1:]}
        turns.append({"storyteller": laid[0], "positions": laid, "votes": votes})
    return turns


def dalmuti_hands(names: list[str], count: int) -> list[dict]:
    """Return count Dalmuti hands of 8 players: every hand as dealt, the tax, merchants' swaps."""
    deck = [rank for rank in range(1, 13) for _ in range(rank)] + ["J", "J"]
    dealt: dict[str, list] = {name: [] for name in names}
    for index, card in enumerate(deck):
        dealt[names[index % len(names)]].append(card)
    hands = {
        name: sorted(cards, key=lambda card: 13 if card == "J" else card)
        for name, cards in dealt.items()
    }
    plain = {name: [card for card in cards if card != "J"] for name, cards in hands.items()}
    played, ranks = [], names
    for index in range(count):
        shift = index % len(names)
        finish = names[shift:] + names[:shift]
        tribute = {
            "greater_peasant": plain[ranks[-1]][:2],
            "lesser_peasant": plain[ranks[-2]][:1],
            "greater_dalmuti": plain[ranks[0]][-2:],
            "lesser_dalmuti": plain[ranks[1]][-1:],
        }
        trades = [[ranks[2], ranks[3]], [ranks[4], ranks[5]]]
        played.append(
            {"finish_order": finish, "hands": hands, "tribute": tribute, "merchant_trades": trades}
        )
        ranks = finish
    return played


def table_of(slug: str, count: int) -> tuple[list[str], dict, list[dict]]:
    """Return a game's largest realistic table: its players, house rules and count rounds."""
    if slug == "dixit":
        names = [*NAMES.values(), *MORE_NAMES]
        return (
            names,
            {"two_votes_large_game": True, "target_score": 10**6},
            dixit_turns(names, count),
        )
    if slug == "dalmuti":
        names = [*NAMES.values(), *MORE_NAMES][:8]
        return names, {"merchant_trade": True}, dalmuti_hands(names, count)
    return list(NAMES.values()), {}, [hand()] * count


def largest_export(count: int, budget: int | None = None, slug: str = "mighty") -> dict:
    """Return a valid export of up to count rounds of a game (rules replayed, results kept).

    With a ``budget`` (the bytes a session may keep, as services/limits.py counts them), as
    many rounds as fit are recorded, then corrections are spread over them while they fit,
    within the trail's limit: the largest session a table could store and export.
    """
    game = get_game(slug)
    names, overrides, inputs = table_of(slug, count)
    rules = game.resolve_rules(overrides)
    seated, initial = game.start(names, rules, {})
    outcomes = list(replay(game, Table(tuple(seated), dict(rules)), initial, inputs))
    created = {
        "at": MOMENT,
        "action": "create_session",
        "round": None,
        "before": None,
        "after": {
            "game": slug,
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
        "game": slug,
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


def write_largest(out: Path, count: int | None = None, slug: str = "mighty") -> str:
    """Write a game's largest export its import limit allows to out; return a line saying its
    size."""
    count = values.MAX_ROUNDS if count is None else count
    with create_app(
        {"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    ).app_context():
        game = get_game(slug)
        budget = limits.session_max_bytes(game) - 64 * 1024
        body = largest_export(count, budget, slug)
    with out.open("w", encoding="utf-8") as handle:
        json.dump(body, handle, ensure_ascii=False, separators=(",", ":"))
    size = out.stat().st_size
    most, held = limits.import_max_bytes(game), limits.session_max_bytes(game)
    return (
        f"largest {slug} import: {len(body['rounds'])} rounds, {len(body['audit'])} audit "
        f"entries, {size:,} bytes ({size / 2**20:.1f} MiB); the game's import limit is "
        f"{most:,} bytes (the route's {imports.IMPORT_MAX_BYTES:,}), and its session holds at "
        f"most {held:,} bytes as stored"
    )


def main(argv: list[str]) -> None:
    """Write the export and print its size beside the import limit."""
    count = int(argv[1]) if len(argv) > 1 else None
    print(write_largest(Path(argv[0]), count, argv[2] if len(argv) > 2 else "mighty"))


if __name__ == "__main__":
    main(sys.argv[1:])
