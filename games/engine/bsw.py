"""Brettspielwelt (BSW) ``.tch`` logs <-> ``tichu-record/1`` records (pure Python, no I/O at import).

``parse_bsw(text)`` turns a log (one or several games back to back) into one record per game;
``export_bsw(record)`` writes a card-by-card record back as a ``.tch`` log; ``main_from_bsw(argv)``
is the ``python -m games.engine from-bsw LOG.tch [--anonymise]`` subcommand.
The mapping, its decisions and what the export cannot carry are documented in docs/importers.md.

Only the converter lives here: it checks the *shape* of the log (card codes, line syntax, seats)
and raises :class:`BSWFormatError` with the line number; the rules are the engine's business.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any, Iterable

from . import bsw_dates
from .bsw_codes import (
    GT_HEADER,
    PLAY_HEADER,
    RANK_TO_BSW,
    START_HEADER,
    BSWFormatError,
    bsw_sorted,
    card_from_bsw,
    card_to_bsw,
    default_phoenix,
    phoenix_reading,
)
from .bsw_reader import GameBuilder, LogReader
from .cards import DRAGON, SPECIALS
from .combos import SINGLE, Combination, combinations_in, readings
from .visibility import REDACTED_KEY

__all__ = [
    "BSWFormatError",
    "ReadResult",
    "card_from_bsw",
    "card_to_bsw",
    "default_phoenix",
    "parse_bsw",
    "read_bsw",
    "export_bsw",
    "phoenix_reading",
    "main_from_bsw",
]

#: the engine option that reproduces BSW's score, and the value ``bsw_scoring`` gives it
BSW_QUIRK = "bsw_grand_tichu_quirk"
BSW_SCORING = "partner_grand"

OPTIONS = {"preset": "rio", "deal_method": "western"}


def read_bsw(
    text: str,
    *,
    lax: bool = True,
    anonymise: bool = False,
    game_id: str | int | None = None,
    bsw_scoring: bool = False,
    played_at: tuple[str, str] | None = None,
) -> list[ReadResult]:
    """Like :func:`parse_bsw`, with what the reader did to each game's hands: one
    :class:`ReadResult` per game (``record``, ``notes``: each hand repaired, kept as a score-sheet
    line or skipped, with its line and reason; ``event_lines``: the log line of each event).
    ``lax`` (the default here): a line the reader does not understand costs its hand, not the game
    (:mod:`.bsw_reader`)."""
    games = LogReader(text, lax=lax).read()
    dating = played_at or bsw_dates.played_at(game_id=game_id)
    records = [_record(g, k, game_id, len(games), dating) for k, g in enumerate(games)]
    if bsw_scoring:
        for rec in records:
            rec["options"][BSW_QUIRK] = BSW_SCORING
    if anonymise:
        _anonymised(records)
    return [ReadResult(rec, g.notes, g.event_lines) for rec, g in zip(records, games)]


@dataclass
class ReadResult:
    record: dict[str, Any]
    notes: list[dict[str, Any]]
    event_lines: list[int]


def parse_bsw(
    text: str,
    *,
    anonymise: bool = False,
    game_id: str | int | None = None,
    bsw_scoring: bool = False,
    played_at: tuple[str, str] | None = None,
    lax: bool = False,
) -> list[dict[str, Any]]:
    """Convert a BSW log into ``tichu-record/1`` records, one per game, in order.

    A game ends with the hand in which a team reaches 1000 by the ``Ergebnis`` totals (higher
    wins, a tie plays on); further hands start the next game. ``anonymise`` replaces handles by
    ``Player 1``, ``Player 2``, ... in order of first appearance, consistently over the whole file.
    ``bsw_scoring`` sets the engine option ``bsw_grand_tichu_quirk`` to BSW's reading
    (:data:`BSW_SCORING`) so that the engine's score reproduces BSW's ``Ergebnis``.
    ``played_at``: ``(ISO date, how it is known)`` for ``meta.played_at`` / ``played_at_source``;
    by default estimated from ``game_id`` (:mod:`.bsw_dates`), none without an id.
    Strict by default: the first line the reader cannot read raises :class:`BSWFormatError`;
    ``lax`` gives up only the hand it is in (:func:`read_bsw` says which).
    """
    return [
        r.record
        for r in read_bsw(
            text, lax=lax, anonymise=anonymise, game_id=game_id, bsw_scoring=bsw_scoring, played_at=played_at
        )
    ]


def _record(g: GameBuilder, index: int, game_id: Any, n_games: int, dating: tuple[str, str] | None) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "source": "bsw",
        "game_id": None if game_id is None else str(game_id),
        "bsw_results": g.results,
        "shuffle_inferred": True,
    }
    if dating is not None:
        meta["played_at"], meta["played_at_source"] = dating
    if n_games > 1:
        meta["game_index"] = index
    if g.substitutions:
        meta["substitutions"] = g.substitutions
    if g.startkarten:
        meta["bsw_startkarten"] = g.startkarten
    return {
        "format": "tichu-record/1",
        "variant": "nanking",
        "options": dict(OPTIONS),
        "players": g.players,
        "events": g.events,
        "meta": meta,
    }


def _anonymised(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    alias: dict[str, str] = {}

    def a(name: str) -> str:
        if name not in alias:
            alias[name] = f"Player {len(alias) + 1}"
        return alias[name]

    for rec in records:
        rec["players"] = [a(n) for n in rec["players"]]
        for sub in rec["meta"].get("substitutions", []):
            sub["name"] = a(sub["name"])
    return records


# ---------------------------------------------------------------- export


def _resolve_undos(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = []
    for e in events:
        if e.get("type") == "undo":
            if kept:
                kept.pop()
        else:
            kept.append(e)
    return kept


def _is_bomb(cards: list[str]) -> bool:
    return any(c.is_bomb for c in readings(cards))


#: nothing but a bomb beats a lone Dragon: what a hand can play on it are its bombs
_ON_A_DRAGON = Combination(SINGLE, 1, readings([DRAGON])[0].rank, (DRAGON,))


def _holds_bomb(hand: Iterable[str]) -> bool:
    normal = [c for c in hand if c not in SPECIALS]
    return any(c.is_bomb for c in combinations_in(normal, _ON_A_DRAGON))


def export_bsw(record: dict[str, Any]) -> str:
    """Write a card-by-card ``nanking`` record as a BSW ``.tch`` log.

    Derived lines are rebuilt: the trick owner's collecting ``passt.``, the ``BOMBE:`` line (seats
    holding a bomb after the exchange) and the ``Startkarten`` block (each seat's 14 cards before
    the exchange, in BSW order; ``meta.bsw_startkarten`` keeps BSW's order where it is not the
    canonical one). ``Ergebnis`` comes from ``meta.bsw_results`` when present, else from the
    engine's score when the engine is importable. ``hand_result`` hands cannot be written (BSW has
    no such line): they raise ``ValueError``, as does a record masked for a reader (visibility.py):
    its hidden cards cannot be written.
    """
    if REDACTED_KEY in record:
        raise ValueError("a redacted record (its hidden cards written '?') cannot be written as a BSW log")
    events = _resolve_undos(list(record.get("events", [])))
    players = list(record.get("players", []))
    if len(players) != 4:
        raise ValueError("BSW logs hold four-player games only")
    meta = record.get("meta") or {}
    subs = sorted(meta.get("substitutions", []), key=lambda d: d["event"])
    results = meta.get("bsw_results")
    startkarten = meta.get("bsw_startkarten", {})
    if results is None:
        results = _engine_results(record)

    def name(seat: int, at: int) -> str:
        n = players[seat]
        for sub in subs:
            if sub["event"] <= at and sub["seat"] == seat:
                n = sub["name"]
        return n

    def cards_text(cards: Iterable[str]) -> str:
        return "".join(card_to_bsw(c) + " " for c in cards)

    # split into hands at each shuffle
    starts = [i for i, e in enumerate(events) if e.get("type") == "shuffle"]
    if any(e.get("type") == "hand_result" for e in events):
        raise ValueError("a hand_result hand has no card-by-card BSW form")
    out_lines: list[str] = []
    for h, start in enumerate(starts):
        end = starts[h + 1] if h + 1 < len(starts) else len(events)
        out_lines.extend(
            _export_hand(
                events,
                start,
                end,
                h,
                name,
                cards_text,
                startkarten.get(str(h), {}),
                results[h] if results and h < len(results) else None,
            )
        )
    return "".join(line + "\n" for line in out_lines)


def _export_hand(events, start, end, h, name, cards_text, custom14, result) -> list[str]:
    L: list[str] = [GT_HEADER]
    received: dict[int, list[tuple[int, str]]] = {s: [] for s in range(4)}  # (index, card)
    idx_deal: dict[int, list[int]] = {s: [] for s in range(4)}
    for i in range(start, end):
        e = events[i]
        t = e.get("type")
        if t == "deal":
            for c in e["cards"]:
                received[e["seat"]].append((i, c))
            idx_deal[e["seat"]].append(i)
        elif t == "draw":
            received[e["seat"]].append((i, e["card"]))
            idx_deal[e["seat"]].append(i)
    for s in range(4):
        if len(received[s]) >= 8:  # (fewer only in a log cut inside this block)
            first8 = [c for _, c in received[s][:8]]
            L.append(f"({s}){name(s, received[s][7][0])} " + cards_text(bsw_sorted(first8)))
    hands14: dict[int, list[str]] = {}
    if any(len(received[s]) > 8 for s in range(4)):
        L.append(START_HEADER)
        for s in range(4):
            if len(received[s]) == 14:
                cards14 = [c for _, c in received[s]]
                shown = custom14.get(str(s)) or bsw_sorted(cards14)
                hands14[s] = cards14
                L.append(f"({s}){name(s, received[s][-1][0])} " + cards_text(shown))

    play_events = [i for i in range(start, end) if events[i]["type"] not in ("shuffle", "deal", "draw")]
    # calls and pushes before the play
    pushes = [i for i in play_events if events[i]["type"] == "push"]
    first_play = next((i for i in play_events if events[i]["type"] in ("play", "pass")), None)
    pre = [i for i in play_events if first_play is None or i < first_play]
    for i in pre:
        if events[i]["type"] == "grand_tichu":
            s = events[i]["seat"]
            L.append(f"Grosses Tichu: ({s}){name(s, i)}")
    for i in pre:
        if events[i]["type"] == "tichu" and (not pushes or i < pushes[0]):
            s = events[i]["seat"]
            L.append(f"Tichu: ({s}){name(s, i)}")
    if pushes:
        L.append("Schupfen:")
        for i in pushes:
            e = events[i]
            s = e["seat"]
            parts = []
            for k in range(1, 4):
                t = (s + k) % 4
                card = e["cards"][str(t)]
                if isinstance(card, list):
                    card = card[0]
                parts.append(f"{name(t, i)}: {card_to_bsw(card)} - ")
            L.append(f"({s}){name(s, i)} gibt: " + "".join(parts))
    counts = [14, 14, 14, 14]
    if len(pushes) == 4 and len(hands14) == 4:
        after = {s: list(hands14[s]) for s in range(4)}
        for i in pushes:
            e = events[i]
            for t, card in e["cards"].items():
                after[e["seat"]].remove(card)
                after[int(t)].append(card)
        bombers = [s for s in range(4) if _holds_bomb(after[s])]
        if bombers:
            at = first_play if first_play is not None else end
            L.append("BOMBE: " + "".join(f"({s}){name(s, at)} " for s in bombers))
    if first_play is None:
        if result is not None:
            L.append(f"Ergebnis: {result[0]} - {result[1]}")
        return L
    L.append(PLAY_HEADER)
    for i in pre:  # a Tichu called after the pushes but before the first play
        if events[i]["type"] == "tichu" and pushes and i > pushes[0]:
            s = events[i]["seat"]
            L.append(f"Tichu: ({s}){name(s, i)}")

    out: list[int] = []
    top: int | None = None
    passed: set[int] = set()
    pending: int | None = None  # trick owner whose collecting pass is due
    hand_over = False

    def flush(at: int) -> None:
        nonlocal pending, top
        if pending is not None:
            L.append(f"({pending}){name(pending, at)} passt.")
            pending = None
            top = None

    for i in range(first_play, end):
        e = events[i]
        t = e["type"]
        s = e.get("seat")
        if t == "play":
            if pending is not None and (s == pending or not _is_bomb(e["cards"])):
                flush(i)
            elif pending is not None:
                pending = None  # a bomb on the lying trick: the trick goes on
            ph = e.get("phoenix")
            if ph is None and len(e["cards"]) > 1 and "Phoenix" in e["cards"]:
                ph = default_phoenix(e["cards"])
            shown = bsw_sorted(e["cards"], ph)
            L.append(f"({s}){name(s, i)}: " + cards_text(shown))
            if "wish" in e and e["wish"] is not None:
                L.append("Wunsch:" + RANK_TO_BSW[e["wish"]])
            counts[s] -= len(e["cards"])
            if counts[s] == 0 and s not in out:
                out.append(s)
            active = [k for k in range(4) if counts[k] > 0]
            if len(active) <= 1 or (len(out) == 2 and (out[0] - out[1]) % 2 == 0):
                hand_over = True
            if e["cards"] == ["Dog"]:
                top = None
            else:
                top = s
            passed = set()
        elif t == "pass":
            flush(i)
            L.append(f"({s}){name(s, i)} passt.")
            passed.add(s)
            if top is not None:
                others = [k for k in range(4) if counts[k] > 0 and k != top]
                if all(k in passed for k in others):
                    if counts[top] > 0:
                        pending = top
                    else:
                        top = None
        elif t == "tichu":
            flush(i)
            L.append(f"Tichu: ({s}){name(s, i)}")
        elif t == "grand_tichu":
            L.append(f"Grosses Tichu: ({s}){name(s, i)}")
        elif t == "dragon_gift":
            flush(i)
            to = e["to"]
            L.append(f"Drache an: ({to}){name(to, i)}")
            top = None
        elif t == "penalty":
            hand_over = True
    if result is not None:
        flush(end)
        L.append(f"Ergebnis: {result[0]} - {result[1]}")
    elif not hand_over:
        flush(end)
    return L


def _engine_results(record: dict[str, Any]) -> list[list[int]] | None:
    """Per-hand points from the engine, when it is there (lazy import: this module stays usable alone)."""
    try:
        from games.engine import fold, score_json  # noqa: PLC0415
    except Exception:  # pragma: no cover - engine missing
        return None
    try:
        return [list(h["points"]) for h in score_json(fold(record))["hands"]]
    except Exception:
        return None


# ---------------------------------------------------------------- command line


def main_from_bsw(argv: list[str] | None = None) -> int:
    """``from-bsw LOG.tch [--anonymise]``: print the records as a JSON list. ``-`` reads stdin.

    Exit status 0, or 2 with ``{"ok": false, "error": {"code": "malformed", ...}}`` (the engine
    command line's error shape) when the log
    cannot be read.
    """
    import argparse
    import os

    parser = argparse.ArgumentParser(
        prog="python -m games.engine from-bsw",
        description="Convert a Brettspielwelt .tch log to tichu-record/1 records",
    )
    parser.add_argument("log", help="the .tch file, or - for standard input")
    parser.add_argument(
        "--anonymise", "--anonymize", action="store_true", help="replace handles by Player 1, Player 2, ..."
    )
    parser.add_argument(
        "--bsw-scoring",
        action="store_true",
        help="set the engine option bsw_grand_tichu_quirk so scores equal BSW's Ergebnis",
    )
    parser.add_argument("--game-id", default=None, help="BSW game id (default: the file name when it is a number)")
    args = parser.parse_args(argv)
    try:
        if args.log == "-":
            data = sys.stdin.buffer.read()
            game_id = args.game_id
        else:
            with open(args.log, "rb") as fh:
                data = fh.read()
            stem = os.path.splitext(os.path.basename(args.log))[0]
            game_id = args.game_id if args.game_id is not None else (stem if stem.isdigit() else None)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        records = parse_bsw(text, anonymise=args.anonymise, game_id=game_id, bsw_scoring=args.bsw_scoring)
    except (OSError, BSWFormatError) as exc:
        sys.stdout.write(json.dumps({"ok": False, "error": {"code": "malformed", "message": str(exc)}}) + "\n")
        return 2
    sys.stdout.write(json.dumps(records, ensure_ascii=False) + "\n")
    return 0
