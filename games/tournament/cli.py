"""``python -m games.tournament standings|crosstable|pair FILE.json``.

Exit status as the engine's: 0 when the record folds, 1 when an event is refused by the
tournament's rules, 2 when the input is malformed. Output is JSON; a refusal prints
``{"ok": false, "index": n, "error": {"code", "message", "params"}}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from .errors import TournamentError
from .fields import check_incoming
from .pairing import propose
from .standings import crosstable_json, standings_json
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.tournament", description="Fold Tichu tournament records.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, what in (
        ("standings", "the standings after the first N events"),
        ("crosstable", "the crosstable after the first N events"),
    ):
        p = sub.add_parser(name, help=what)
        p.add_argument("record", help="tournament JSON file, or - for standard input")
        p.add_argument("--at", type=int, default=None, help="number of events to fold (default: all)")
    p = sub.add_parser("pair", help="propose the next round's pairing (a round_paired event)")
    p.add_argument("record", help="tournament JSON file, or - for standard input")
    args = parser.parse_args(argv)
    try:
        if getattr(args, "at", None) is not None and args.at < 0:
            raise TournamentError("malformed", "--at must be 0 or more")
        record = _load(args.record)
        _check_events(record)
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
    return 0
