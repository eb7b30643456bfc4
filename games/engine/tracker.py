"""Tichu-Tracker score sheets (``allgames.converted.json``) -> ``tichu-record/1`` records.

The iPhone app stores a hand by its outcome only, so every hand becomes one ``hand_result`` event
(record-format.md section 3). Pure Python, no I/O at import; the mapping is documented in
docs/importers.md.

Per hand:

- ``calls``: ``{"<seat>": "grand_tichu"}`` for ``grandTichuCallN``, ``"tichu"`` for ``tichuCallN``.
- ``out``: ``[outFirst]``; on a double victory (card score 200/0) the first two seats, the partner
  of ``outFirst`` second. The app stores ``outFirst = 0`` when nobody called (it only needs the
  first out to score calls); when that default contradicts a double victory (3 hands, no calls),
  the winning team's lower seat is taken first and the hand is listed in ``meta.out_inferred``.
- ``points``: ``[cardScore0, cardScore1]``, absent on a double victory.

Most of the app's games stop before the score limit (lunch games). By default such a record is
an unfinished game, as the sheet says. ``stopped_games_end=True`` records a game that stopped
short as a game of exactly the hands it had (option ``hands``, ``meta.stopped_early``): finished,
won by the side ahead (a tie is a draw), and so rated, which is how the group itself read them.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from typing import Any

from .record import fold

__all__ = ["TrackerFormatError", "hand_event", "game_record", "convert_tracker", "main_from_tracker"]


class TrackerFormatError(ValueError):
    """The tracker JSON does not have the shape of the app's export."""


def hand_event(hand: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """One app hand -> (``hand_result`` event, whether ``out`` had to be inferred)."""
    try:
        calls: dict[str, str] = {}
        for s in range(4):
            if hand[f"grandTichuCall{s}"]:
                calls[str(s)] = "grand_tichu"
            elif hand[f"tichuCall{s}"]:
                calls[str(s)] = "tichu"
        first = int(hand["outFirst"])
        cards = [int(hand["cardScore0"]), int(hand["cardScore1"])]
    except (KeyError, TypeError, ValueError) as exc:
        raise TrackerFormatError(f"hand lacks a field or has a bad value: {exc}") from None
    if not 0 <= first <= 3:
        raise TrackerFormatError(f"outFirst {first} is not a seat")
    event: dict[str, Any] = {"type": "hand_result", "calls": calls}
    inferred = False
    if sorted(cards) == [0, 200]:
        team = 0 if cards[0] == 200 else 1
        if first % 2 != team:
            first, inferred = team, True
        event["out"] = [first, (first + 2) % 4]
    else:
        event["out"] = [first]
        event["points"] = cards
    return event, inferred


def _iso(stamp: Any) -> str | None:
    try:
        return datetime.fromtimestamp(float(stamp), tz=timezone.utc).isoformat().replace("+00:00", "Z")
    except (TypeError, ValueError, OverflowError):
        return None


def game_record(game: dict[str, Any], names: dict[int, str], *, stopped_games_end: bool = False) -> dict[str, Any]:
    """One app game -> one record (``players`` in the app's seat order: 1st+3rd vs 2nd+4th).
    ``stopped_games_end``: see the module docstring."""
    try:
        seats = list(game["players"])
        hands = list(game["hands"])
    except (KeyError, TypeError):
        raise TrackerFormatError("a game needs players and hands") from None
    if len(seats) != 4:
        raise TrackerFormatError(f"game {game.get('id')}: four players expected, got {len(seats)}")
    events = []
    inferred = []
    for i, hand in enumerate(hands):
        event, guessed = hand_event(hand)
        events.append(event)
        if guessed:
            inferred.append(i)
    options: dict[str, Any] = {"preset": "rio"}
    if game.get("scoreLimit") is not None:
        options["target_score"] = int(game["scoreLimit"])
    meta: dict[str, Any] = {
        "source": "tichu-tracker",
        "game_id": game.get("id"),
        "player_ids": seats,
        "creation_datetime": game.get("creationDateTime"),
        "created_at": _iso(game.get("creationDateTime")),
        "played_at": _iso(game.get("creationDateTime")),  # the game's date for the site (game_import)
        "game_over": bool(game.get("gameOver", False)),
        "team_scores": [game.get("team1Score"), game.get("team2Score")],
        "hand_totals": [[h.get("totalScore0"), h.get("totalScore1")] for h in hands],
    }
    if inferred:
        meta["out_inferred"] = inferred
    record = {
        "format": "tichu-record/1",
        "variant": "nanking",
        "options": options,
        "players": [names.get(p, f"Player {p}") for p in seats],
        "events": events,
        "meta": meta,
    }
    if stopped_games_end and events and not _over(record):
        record["options"] = {"preset": "rio", "hands": len(events)}
        meta["stopped_early"] = True
    return record


def _over(record: dict[str, Any]) -> bool:
    return fold(record).over  # the fold checks every hand: a refused one raises EngineError


def _player_names(players: Any) -> dict[int, str]:
    """The export's ``players`` list -> names by the app's player id (a player row without an id
    or a name is a format error, not a crash)."""
    if not isinstance(players, list):
        raise TrackerFormatError("'players' must be a list")
    names: dict[int, str] = {}
    for i, player in enumerate(players):
        try:
            names[int(player["id"])] = str(player["name"])
        except (KeyError, TypeError, ValueError):
            raise TrackerFormatError(f"player {i + 1} of the list needs an integer 'id' and a 'name'") from None
    return names


def convert_tracker(
    data: dict[str, Any], *, anonymise: bool = False, stopped_games_end: bool = False
) -> list[dict[str, Any]]:
    """The whole export -> one record per game, in the file's order.

    ``anonymise`` names players ``Player <id+1>`` (the app's ids are stable over games);
    ``stopped_games_end`` finishes the games that stopped short (module docstring).
    """
    if not isinstance(data, dict) or not isinstance(data.get("games"), list):
        raise TrackerFormatError("expected an object with a 'games' list")
    names = _player_names(data.get("players", []))
    if anonymise:
        names = {pid: f"Player {pid + 1}" for pid in names}
    return [game_record(g, names, stopped_games_end=stopped_games_end) for g in data["games"]]


def main_from_tracker(argv: list[str] | None = None) -> int:
    """``from-tracker FILE.json [--anonymise]``: print the records as a JSON list (``-``: stdin)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m games.engine from-tracker")
    parser.add_argument("file")
    parser.add_argument("--anonymise", "--anonymize", action="store_true")
    parser.add_argument(
        "--stopped-games-end",
        action="store_true",
        help="a game stopped before its target ends where it stopped (option hands)",
    )
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            data = json.load(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as fh:
                data = json.load(fh)
        records = convert_tracker(data, anonymise=args.anonymise, stopped_games_end=args.stopped_games_end)
    except (OSError, ValueError) as exc:
        sys.stdout.write(json.dumps({"ok": False, "error": {"code": "malformed", "message": str(exc)}}) + "\n")
        return 2
    sys.stdout.write(json.dumps(records, ensure_ascii=False) + "\n")
    return 0
