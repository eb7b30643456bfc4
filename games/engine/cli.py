"""The engine's command line.

Exit status: 0 when the record folds, 1 when an event breaks a rule, 2 when the input is
malformed (not JSON, not a record, or an event whose fields have the wrong shape).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from .errors import EngineError
from .record import fold, parse_record, score_json, state_json


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def _emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _fail(err: EngineError) -> int:
    body: dict[str, Any] = {"ok": False}
    if err.index is not None:
        body["index"] = err.index
    body["error"] = err.as_dict()
    _emit(body)
    return 2 if err.code == "malformed" else 1


def _load_record(path: str) -> Any:
    try:
        text = _read(path)
    except OSError as exc:
        raise EngineError("malformed", f"cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise EngineError("malformed", f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine", description="Fold Tichu game records.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_score = sub.add_parser("score", help="fold the whole record and print the score sheet")
    p_score.add_argument("record", help="record JSON file, or - for standard input")
    p_state = sub.add_parser("state", help="print the state after the first N events")
    p_state.add_argument("record", help="record JSON file, or - for standard input")
    p_state.add_argument("--at", type=int, default=None, help="number of events to fold (default: all)")
    sub.add_parser(
        "from-bsw", add_help=False, help="convert a Brettspielwelt .tch log to records (options: from-bsw --help)"
    )
    args, rest = parser.parse_known_args(argv)

    if args.command == "from-bsw":
        from . import bsw  # imported here: the converter is only needed by this command

        return bsw.main_from_bsw(rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        record = parse_record(_load_record(args.record), strict=True)
        if args.command == "score":
            _emit(score_json(fold(record)))
        else:
            if args.at is not None and args.at < 0:
                raise EngineError("malformed", "--at must be 0 or more")
            _emit(state_json(fold(record, args.at)))
    except EngineError as err:
        return _fail(err)
    return 0
