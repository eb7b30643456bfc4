"""``python -m games.tournament standings|crosstable|pair|append|clock|hand FILE.json``: the TD's tool;
``bracket``, ``bracket-append`` and ``bracket-seed`` do the same for a knockout bracket (.bracket);
``season`` and ``season-append`` for a club's season (.season): ``season SEASON.json EVENING.json ...``
prints the season's table folded from the season and its evenings' own records (each evening file
named by its tournament id in the season: ``--evening 12=evening12.json``); ``league`` and
``league-append`` for a league (.league): its fixtures, results and table, and ``league-next``
next season's groups from the finished groups' files, top group first.

``standings`` and ``crosstable`` (``--after-round N``: as round N closed, with the later corrections
of rounds 1 to N; ``--at N``: after the first N events), ``pair`` (the next round's proposal),
``append`` (an event added to the file, with the checks the API makes: its fields, then the fold
of the whole record with it), ``clock`` (the current round's clock started now, or at
``--started-at``: a ``round_clock_started`` appended as ``append`` does), ``hand`` (a hand kept on paper, its calls, order out and card points,
as the hand line the record's preset scores).

Exit status as the engine's: 0 when the record folds, 1 when an event is refused by the
tournament's (or, for a paper hand, the game's) rules, 2 when the input is malformed. Output is
JSON; a refusal prints ``{"ok": false, "index": n, "error": {"code", "message", "params"}}``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from datetime import datetime, timezone
from typing import Any, Sequence

from games.engine import EngineError, paper_hand_line

from .bracket import bracket_json, fold_bracket, seed_order
from .engine_options import engine_options
from .errors import TournamentError
from .fields import check_incoming
from .league import fold_league, league_json, next_season
from .pairing import propose
from .record import parse_header
from .round_clock import utc_text
from .season import fold_season, season_table
from .standings import crosstable_json, ranking, standings_json
from .state import fold


def _emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _load(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as exc:
        raise TournamentError("malformed", f"cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TournamentError("malformed", f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def _check_events(record: Any) -> None:
    """A file is read as events coming in: each within the fields and bounds an append allows
    (.fields.check_incoming), so a file cannot make the standings overflow either."""
    events = record.get("events") if isinstance(record, dict) else None
    for i, event in enumerate(events if isinstance(events, list) else []):
        if isinstance(event, dict):
            try:
                check_incoming(event)
            except TournamentError as err:
                err.index = i
                raise


#: events about a round that still count "after round N" when they come later (a correction)
_ABOUT_A_ROUND = ("result_corrected", "score_adjusted")


def after_round(record: Any, number: int) -> dict[str, Any]:
    """The record as round ``number`` closed: its events up to that round's close, and the later
    corrections and adjustments of rounds 1 to ``number`` (what the standings after round N show)."""
    events = record.get("events") if isinstance(record, dict) else None
    events = events if isinstance(events, list) else []
    closing = next(
        (
            i
            for i, e in enumerate(events)
            if isinstance(e, dict) and e.get("type") == "round_closed" and e.get("round") == number
        ),
        None,
    )
    if closing is None:
        raise TournamentError(
            "round_open",
            f"round {number} has not been closed: no standings after it yet",
            round=number,
            rule="not_closed_yet",
        )
    later = [
        e
        for e in events[closing + 1 :]
        if isinstance(e, dict)
        and e.get("type") in _ABOUT_A_ROUND
        and isinstance(e.get("round"), int)
        and not isinstance(e.get("round"), bool)
        and 1 <= e["round"] <= number
    ]
    return {**record, "events": events[: closing + 1] + later}


def _append(path: str, text: str, *, kind: str = "tournament") -> dict[str, Any]:
    """Check the event as the API does (its fields, then the whole record folded with it) and only
    then write the file, by a rename (a refused event leaves it as it was). A bracket's and a
    season's fold check their events' fields themselves."""
    if path == "-":
        raise TournamentError("malformed", "append writes the record file: name it, not -")
    record = _load(path)
    try:
        event = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TournamentError("malformed", f"the event is not JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(event, dict) or not isinstance(record, dict):
        raise TournamentError("malformed", "the record and the event are JSON objects")
    events = record.get("events", [])
    if not isinstance(events, list):
        raise TournamentError("malformed", "events must be a list")
    try:
        if kind == "tournament":
            check_incoming(event)
    except TournamentError as err:
        err.index = len(events)
        raise
    grown = {**record, "events": [*events, event]}
    if kind == "bracket":
        fold_bracket(grown)
    elif kind == "season":
        fold_season(grown)
    elif kind == "league":
        fold_league(grown)
    else:
        fold(grown)
    folder = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, suffix=".tmp") as out:
        json.dump(grown, out, ensure_ascii=False, indent=1)
        out.write("\n")
    os.replace(out.name, path)
    return {"ok": True, "index": len(events), "events": len(events) + 1}


def _clock(args: argparse.Namespace) -> dict[str, Any]:
    """The round's clock started (the current round's unless --round), now unless --started-at:
    the command line is the TD's service here, so it reads the time the core never reads."""
    number = args.round
    if number is None:
        record = _load(args.record)
        number = len(fold(record).rounds) if isinstance(record, dict) else 0
        if number == 0:  # no round yet: round 1's clock cannot start
            number = 1
            raise TournamentError("round_not_found", f"round {number} has not been paired", round=number)
    started = args.started_at or utc_text(datetime.now(timezone.utc))
    event = {"type": "round_clock_started", "round": number, "minutes": args.minutes, "started_at": started}
    return {**_append(args.record, json.dumps(event)), "event": event}


def _seats(text: str | None, what: str) -> list[int]:
    try:
        return [int(s) for s in (text or "").replace(" ", "").split(",") if s != ""]
    except ValueError:
        raise TournamentError("malformed", f"{what} is a list of numbers separated by commas, not {text!r}") from None


def _calls(items: list[str]) -> dict[str, str]:
    calls = {}
    for item in items:
        seat, _, call = item.partition("=")
        if not seat.strip().isdigit() or call not in ("tichu", "grand_tichu"):
            raise TournamentError("malformed", f"a call is SEAT=tichu or SEAT=grand_tichu, not {item!r}")
        calls[seat.strip()] = call
    return calls


def _paper_hand(args: argparse.Namespace) -> dict[str, Any]:
    """The hand line of a paper hand under the record's preset (its engine options)."""
    record = _load(args.record)
    header = parse_header(record.get("header") if isinstance(record, dict) else None)
    points = _seats(args.points, "--points") or None
    line = paper_hand_line(engine_options(header), _calls(args.call), _seats(args.out, "--out"), points)
    return {"ok": True, "line": {"points": line["points"], "double_victory": line["double_victory"]}}


def _bracket_seed(args: argparse.Namespace) -> dict[str, Any]:
    """A ``bracket_seeded`` event: the entries of the file in seed order, by rating (a file of
    {entry: rating}), by a previous stage's standings (its tournament record) or as given."""
    entries = _load(args.entries)
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("entry"), str) for e in entries
    ):
        raise TournamentError("malformed", "the entries file is a list of {entry, players, name?}")
    ids = [e["entry"] for e in entries]
    ratings = standings = None
    if args.by == "rating":
        if args.ratings is None:
            raise TournamentError("malformed", "--by rating needs --ratings FILE.json ({entry: rating})")
        ratings = _load(args.ratings)
        if not isinstance(ratings, dict) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in ratings.values()
        ):
            raise TournamentError("malformed", "the ratings file is an object {entry: rating}")
    elif args.by == "previous_stage":
        if args.stage is None:
            raise TournamentError("malformed", "--by previous_stage needs --stage TOURNAMENT.json")
        stage = _load(args.stage)
        _check_events(stage)
        standings = [e for tied in ranking(fold(stage)) for e in tied]
    by_id = {e["entry"]: e for e in entries}
    order = seed_order(ids, args.by, ratings=ratings, standings=standings)
    return {"ok": True, "event": {"type": "bracket_seeded", "by": args.by, "entries": [by_id[e] for e in order]}}


def _season(args: argparse.Namespace) -> dict[str, Any]:
    """The season's table: each ``--evening ID=FILE`` folded as the tournament core folds it."""
    standings: dict[int, dict[str, Any]] = {}
    for item in args.evening:
        tid, _, path = item.partition("=")
        if not tid.isdigit() or not path:
            raise TournamentError(
                "malformed", f"--evening takes ID=FILE (a tournament id and its record), not {item!r}"
            )
        record = _load(path)
        _check_events(record)
        standings[int(tid)] = standings_json(fold(record))
    return season_table(fold_season(_load(args.record)), standings)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.tournament", description="Fold Tichu tournament records.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, what in (
        ("standings", "the standings (after round N, or after the first N events)"),
        ("crosstable", "the crosstable (after round N, or after the first N events)"),
    ):
        p = sub.add_parser(name, help=what)
        p.add_argument("record", help="tournament JSON file, or - for standard input")
        when = p.add_mutually_exclusive_group()
        when.add_argument("--after-round", type=int, default=None, metavar="N", help="as round N closed")
        when.add_argument("--at", type=int, default=None, help="number of events to fold (default: all)")
    p = sub.add_parser("pair", help="propose the next round's pairing (a round_paired event)")
    p.add_argument("record", help="tournament JSON file, or - for standard input")
    p = sub.add_parser("append", help="append an event to the record file, checked as the API checks it")
    p.add_argument("record", help="tournament JSON file (rewritten only when the event is accepted)")
    p.add_argument("event", help='the event as JSON, e.g. \'{"type": "round_closed", "round": 1}\'')
    p = sub.add_parser("clock", help="start the round's clock now (a round_clock_started appended to the file)")
    p.add_argument("record", help="tournament JSON file (rewritten only when the event is accepted)")
    p.add_argument("--minutes", type=int, required=True, help="the round's length in minutes")
    p.add_argument("--round", type=int, default=None, help="the round (default: the newest paired)")
    p.add_argument(
        "--started-at", default=None, metavar="ISO", help="when it started (default: now), e.g. 2026-03-14T19:30:00Z"
    )
    p = sub.add_parser("hand", help="a paper hand (calls, order out, card points) as a hand line of the preset")
    p.add_argument("record", help="tournament JSON file, or - for standard input (its preset decides)")
    p.add_argument("--call", action="append", default=[], metavar="SEAT=CALL", help="0=tichu, 2=grand_tichu ...")
    p.add_argument("--out", required=True, help="seats in the order they went out, e.g. 1,0,3")
    p.add_argument("--points", default=None, help="card points of side 0 (seats 0, 2) and side 1, e.g. 60,40")
    p = sub.add_parser("bracket", help="a knockout bracket: its matches, winners and seeds")
    p.add_argument("record", help="bracket JSON file (tichu-bracket/1), or - for standard input")
    p.add_argument("--at", type=int, default=None, help="number of events to fold (default: all)")
    p = sub.add_parser("bracket-append", help="append an event to a bracket file, checked by its fold")
    p.add_argument("record", help="bracket JSON file (rewritten only when the event is accepted)")
    p.add_argument(
        "event", help='the event as JSON, e.g. \'{"type": "match_result", "match": "W1-2", "games": [[1000, 650]]}\''
    )
    p = sub.add_parser("bracket-seed", help="a bracket_seeded event from entries in seed order")
    p.add_argument("entries", help="JSON file: a list of {entry, players, name?} (their order: by hand)")
    p.add_argument("--by", choices=["rating", "previous_stage", "hand"], default="hand")
    p.add_argument("--ratings", default=None, help="--by rating: JSON file {entry: rating}")
    p.add_argument("--stage", default=None, help="--by previous_stage: the stage's tournament record")
    p = sub.add_parser("season", help="a club's season: its table, a fold of its evenings' records")
    p.add_argument("record", help="season JSON file (tichu-season/1), or - for standard input")
    p.add_argument(
        "--evening",
        action="append",
        default=[],
        metavar="ID=FILE",
        help="an evening of the season: its tournament id and its record file (repeat for each)",
    )
    p = sub.add_parser("season-append", help="append an event to a season file, checked by its fold")
    p.add_argument("record", help="season JSON file (rewritten only when the event is accepted)")
    p.add_argument("event", help='the event as JSON, e.g. \'{"type": "evening_added", "tournament": 12}\'')
    p = sub.add_parser("league", help="a league: its fixtures (Berger, each leg), results and table")
    p.add_argument("record", help="league JSON file (tichu-league/1), or - for standard input")
    p.add_argument("--at", type=int, default=None, help="number of events to fold (default: all)")
    p = sub.add_parser("league-append", help="append an event to a league file, checked by its fold")
    p.add_argument("record", help="league JSON file (rewritten only when the event is accepted)")
    p.add_argument(
        "event", help='the event as JSON, e.g. \'{"type": "match_result", "match": "R1-1", "score": [520, 480]}\''
    )
    p = sub.add_parser("league-next", help="next season's groups from the finished groups, top group first")
    p.add_argument("groups", nargs="+", help="the league files of the groups, top group first")
    args = parser.parse_args(argv)
    try:
        if args.command in ("append", "bracket-append", "season-append", "league-append"):
            kinds = {"bracket-append": "bracket", "season-append": "season", "league-append": "league"}
            _emit(_append(args.record, args.event, kind=kinds.get(args.command, "tournament")))
            return 0
        if args.command == "league":
            if args.at is not None and args.at < 0:
                raise TournamentError("malformed", "--at must be 0 or more")
            _emit(league_json(fold_league(_load(args.record), args.at)))
            return 0
        if args.command == "league-next":
            groups = [fold_league(_load(path)) for path in args.groups]
            _emit({"ok": True, "groups": next_season(groups)})
            return 0
        if args.command == "season":
            _emit(_season(args))
            return 0
        if args.command == "bracket-seed":
            _emit(_bracket_seed(args))
            return 0
        if args.command == "bracket":
            if args.at is not None and args.at < 0:
                raise TournamentError("malformed", "--at must be 0 or more")
            _emit(bracket_json(fold_bracket(_load(args.record), args.at)))
            return 0
        if args.command == "clock":
            _emit(_clock(args))
            return 0
        if args.command == "hand":
            _emit(_paper_hand(args))
            return 0
        if getattr(args, "at", None) is not None and args.at < 0:
            raise TournamentError("malformed", "--at must be 0 or more")
        if getattr(args, "after_round", None) is not None and args.after_round < 1:
            raise TournamentError("malformed", "--after-round must be 1 or more")
        record = _load(args.record)
        _check_events(record)
        if getattr(args, "after_round", None) is not None:
            record = after_round(record, args.after_round)
        state = fold(record, getattr(args, "at", None))
        if args.command == "standings":
            _emit(standings_json(state))
        elif args.command == "crosstable":
            _emit(crosstable_json(state))
        else:
            _emit({"ok": True, "event": propose(state).event()})
    except TournamentError as err:
        body: dict[str, Any] = {"ok": False}
        if err.index is not None:
            body["index"] = err.index
        body["error"] = err.as_dict()
        _emit(body)
        return 2 if err.code == "malformed" else 1
    except EngineError as err:  # a paper hand the game's rules refuse
        _emit({"ok": False, "error": {"code": err.code, "message": err.message, "params": err.params}})
        return 2 if err.code == "malformed" else 1
    return 0
