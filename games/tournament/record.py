"""The tournament record (docs/tournament.md): a header and an append-only list of events.

This module checks shapes only (a wrong shape is ``malformed``); what an event may do given the
tournament so far is the fold's business (:mod:`.state`).
"""

from __future__ import annotations

import math
from typing import Any, Literal, TypeGuard, overload

from .errors import TournamentError
from .limits import MAX_BOARDS, MAX_HANDS_PER_ROUND, MAX_ID, MAX_POINTS, MAX_ROUNDS, MAX_TARGET
from .scoring import PRESETS

FORMAT = "tichu-tournament/1"
ENTRANTS = ("pairs", "individuals")
SYSTEMS = {"pairs": ("swiss", "round_robin", "manual", "duplicate"), "individuals": ("individual", "manual")}
#: the adjustments a duplicate board may get instead of a result (.duplicate.ADJUSTMENTS)
BOARD_ADJUSTMENTS = ("AVG", "AVG+", "AVG-")
TIEBREAKS = ("points", "difference", "buchholz", "head_to_head", "lots")
BYE_RESULTS = ("win", "draw", "loss")
LATE_ENTRY = ("loss", "half", "bye")
WITHDRAWAL = ("ranked", "unranked")
HEADER_KEYS = {
    "format",
    "name",
    "entrants",
    "system",
    "scoring",
    "rounds",
    "hands_per_round",
    "target",
    "legs",
    "tiebreaks",
    "policy",
    "seed",
    "meta",
    "grand_tichu",
}
RECORD_KEYS = {"format", "header", "events"}


def apply_all(state: Any, events: list[Any]) -> Any:
    """Apply `events` to `state` in order (a tournament's, a bracket's, a season's: each checks an
    event, then applies it); a refused event raises with ``index``, its position in `events`."""
    for i, event in enumerate(events):
        try:
            state.apply(event)
        except TournamentError as err:
            err.index = i
            raise
    return state


def malformed(message: str, **params: Any) -> TournamentError:
    return TournamentError("malformed", message, **params)


def is_int(v: Any, low: int | None = None) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool) and (low is None or v >= low)


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


@overload
def text(obj: dict[str, Any], key: str, *, required: Literal[True] = ...) -> str: ...
@overload
def text(obj: dict[str, Any], key: str, *, required: bool) -> str | None: ...
def text(obj: dict[str, Any], key: str, *, required: bool = True) -> str | None:
    value = obj.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise malformed(
            f"{obj.get('type', 'header')}: {key!r} must be a non-empty string",
            type=obj.get("type", "header"),
            field=key,
            rule="text_required",
        )
    return value


@overload
def integer(
    obj: dict[str, Any], key: str, low: int | None = None, *, high: int | None = None, required: Literal[True] = ...
) -> int: ...
@overload
def integer(
    obj: dict[str, Any], key: str, low: int | None = None, *, high: int | None = None, required: bool
) -> int | None: ...
def integer(
    obj: dict[str, Any], key: str, low: int | None = None, *, high: int | None = None, required: bool = True
) -> int | None:
    value = obj.get(key)
    if value is None and not required:
        return None
    if not is_int(value, low) or (high is not None and value > high):
        bound = (f" >= {low}" if low is not None else "") + (f", <= {high}" if high is not None else "")
        raise malformed(
            f"{obj.get('type', 'header')}: {key!r} must be an integer{bound}, not {value!r}",
            type=obj.get("type", "header"),
            field=key,
            bound=bound,
            value=value,
            rule="integer",
        )
    return value


def parse_header(obj: Any) -> dict[str, Any]:
    """The header with every default filled in (what ``standings`` reports as ``header``)."""
    if not isinstance(obj, dict):
        raise malformed("the header is a JSON object", rule="header_object")
    unknown = set(obj) - HEADER_KEYS
    if unknown:
        raise malformed(
            f"unknown header field(s): {', '.join(sorted(unknown))}", fields=sorted(unknown), rule="header_fields"
        )
    entrants = obj.get("entrants", "pairs")
    if entrants not in ENTRANTS:
        raise malformed(
            f"entrants must be one of {', '.join(ENTRANTS)}, not {entrants!r}",
            allowed=list(ENTRANTS),
            value=entrants,
            rule="entrants",
        )
    system = obj.get("system", SYSTEMS[entrants][0])
    if system not in SYSTEMS[entrants]:
        raise malformed(
            f"system for {entrants} must be one of {', '.join(SYSTEMS[entrants])}, not {system!r}",
            entrants=entrants,
            allowed=list(SYSTEMS[entrants]),
            value=system,
            rule="system",
        )
    scoring = obj.get("scoring", "round_vp")
    if not isinstance(scoring, str) or scoring not in PRESETS:
        raise malformed(
            f"scoring must be one of {', '.join(PRESETS)}, not {scoring!r}",
            allowed=list(PRESETS),
            value=scoring,
            rule="scoring",
        )
    preset = PRESETS[scoring]
    if (system == "duplicate") != (scoring == "matchpoints"):
        raise malformed(
            "a duplicate tournament is scored by matchpoints, and matchpoints need the duplicate system",
            rule="duplicate_matchpoints",
        )
    grand = obj.get("grand_tichu", False)
    if "grand_tichu" in obj and (system != "duplicate" or not isinstance(grand, bool)):
        raise malformed("grand_tichu (true or false) is a duplicate tournament's choice", rule="grand_tichu")
    rounds = integer(obj, "rounds", 1, high=MAX_ROUNDS, required=system not in ("round_robin", "duplicate"))
    hands = integer(obj, "hands_per_round", 1, high=MAX_HANDS_PER_ROUND, required=False)
    target = integer(obj, "target", 1, high=MAX_TARGET, required=False)
    if hands is not None and target is not None:
        raise malformed("give hands_per_round or target, not both", rule="hands_or_target")
    if hands is None and target is None:
        hands, target = preset.default_hands, preset.default_target
    if preset.unit == "hand" and hands is None:
        raise malformed("the dtm preset counts VP per hand: it needs hands_per_round", rule="dtm_hands")
    if system == "duplicate" and rounds is not None and rounds * (hands or 1) > MAX_BOARDS:
        raise malformed(
            f"a duplicate tournament has at most {MAX_BOARDS} boards, not {rounds * (hands or 1)}",
            limit=MAX_BOARDS,
            boards=rounds * (hands or 1),
            rule="too_many_boards",
        )
    legs = integer(obj, "legs", 1, required=False) or 1
    if legs > 2 or (legs == 2 and system != "round_robin"):
        raise malformed("legs is 1, or 2 for a round robin with a second leg", rule="legs")
    tiebreaks = obj.get("tiebreaks", list(preset.default_tiebreaks))
    if (
        not isinstance(tiebreaks, list)
        or any(t not in TIEBREAKS for t in tiebreaks)
        or len(set(tiebreaks)) != len(tiebreaks)
    ):
        raise malformed(
            f"tiebreaks must be a list of distinct names from {', '.join(TIEBREAKS)}",
            allowed=list(TIEBREAKS),
            rule="tiebreaks",
        )
    name = obj.get("name") or ""
    if not isinstance(name, str):
        raise malformed("name must be a string", rule="name")
    meta = obj.get("meta", {})
    if not isinstance(meta, dict):
        raise malformed("meta must be an object", rule="meta")
    seed = obj.get("seed", 0)
    if not is_int(seed) or abs(seed) > MAX_ID:
        raise malformed(f"seed must be an integer from -{MAX_ID} to {MAX_ID}", limit=MAX_ID, rule="seed")
    extra = {"grand_tichu": grand} if system == "duplicate" else {}
    return {
        "format": FORMAT,
        "name": name,
        "entrants": entrants,
        "system": system,
        "scoring": scoring,
        "rounds": rounds,
        "hands_per_round": hands,
        "target": target,
        "legs": legs,
        "tiebreaks": list(tiebreaks),
        "policy": parse_policy(obj.get("policy", {})),
        "seed": seed,
        "meta": meta,
        **extra,
    }


def parse_policy(obj: Any) -> dict[str, Any]:
    if not isinstance(obj, dict) or set(obj) - {"bye", "late_entry", "withdrawal"}:
        raise malformed("policy is an object with bye, late_entry and withdrawal", rule="policy")
    bye = obj.get("bye", {})
    if not isinstance(bye, dict) or set(bye) - {"result", "points"}:
        raise malformed("policy.bye is an object with result and points", rule="policy_bye")
    result = bye.get("result", "win")
    if result not in BYE_RESULTS:
        raise malformed(
            f"policy.bye.result must be one of {', '.join(BYE_RESULTS)}", allowed=list(BYE_RESULTS), rule="bye_result"
        )
    points = bye.get("points", 0)
    if not is_int(points) or abs(points) > MAX_POINTS:
        raise malformed(
            f"policy.bye.points must be an integer from -{MAX_POINTS} to {MAX_POINTS}",
            limit=MAX_POINTS,
            rule="bye_points",
        )
    late = obj.get("late_entry", "loss")
    if late not in LATE_ENTRY:
        raise malformed(
            f"policy.late_entry must be one of {', '.join(LATE_ENTRY)}", allowed=list(LATE_ENTRY), rule="late_entry"
        )
    withdrawal = obj.get("withdrawal", "ranked")
    if withdrawal not in WITHDRAWAL:
        raise malformed(
            f"policy.withdrawal must be one of {', '.join(WITHDRAWAL)}", allowed=list(WITHDRAWAL), rule="withdrawal"
        )
    return {"bye": {"result": result, "points": points}, "late_entry": late, "withdrawal": withdrawal}


def parse_record(obj: Any) -> dict[str, Any]:
    """Check a record's outer shape and return it with the header's defaults filled in."""
    if not isinstance(obj, dict):
        raise malformed("a tournament record is a JSON object", rule="record_object")
    unknown = set(obj) - RECORD_KEYS
    if unknown:
        raise malformed(
            f"unknown record field(s): {', '.join(sorted(unknown))}", fields=sorted(unknown), rule="record_fields"
        )
    if obj.get("format", FORMAT) != FORMAT:
        raise malformed(
            f"format must be {FORMAT!r}, not {obj.get('format')!r}",
            expected=FORMAT,
            value=obj.get("format"),
            rule="format",
        )
    header = parse_header(obj.get("header"))
    events = obj.get("events", [])
    if not isinstance(events, list):
        raise malformed("events must be a list", rule="events_list")
    for i, e in enumerate(events):
        if not isinstance(e, dict) or not isinstance(e.get("type"), str):
            err = malformed(f"event {i} must be an object with a string 'type'", event=i, rule="event_shape")
            err.index = i
            raise err
    return {"format": FORMAT, "header": header, "events": events}


# --- event payloads ---------------------------------------------------------------------------


def parse_sides(table: Any, size: int) -> list[list[str]]:
    sides = table.get("sides") if isinstance(table, dict) else None
    if (
        not isinstance(sides, list)
        or len(sides) != 2
        or not all(isinstance(s, list) and all(isinstance(e, str) and e for e in s) for s in sides)
    ):
        raise malformed("a table's sides are two lists of entry ids", rule="sides")
    if any(len(s) != size for s in sides):
        raise TournamentError(
            "table_invalid",
            f"table {table.get('table')}: each side has {size} entr{'y' if size == 1 else 'ies'} in this tournament",
            table=table.get("table"),
            size=size,
            rule="side_size",
        )
    return [list(s) for s in sides]


def parse_tables(event: dict[str, Any], side_size: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The tables and byes of a pairing event: ``[{"table": n, "sides": [[..], [..]]}]``."""
    tables = event.get("tables")
    if not isinstance(tables, list):
        raise malformed(f"{event['type']}: 'tables' must be a list", type=event["type"], rule="tables_list")
    out, numbers = [], set()
    for t in tables:
        if not isinstance(t, dict):
            raise malformed(f"{event['type']}: each table is an object", type=event["type"], rule="table_object")
        number = t.get("table")
        if not is_int(number, 1):
            raise malformed(
                f"{event['type']}: a table number is an integer >= 1, not {number!r}",
                type=event["type"],
                value=number,
                rule="table_number",
            )
        if number in numbers:
            raise TournamentError(
                "table_invalid", f"table {number} appears twice in the round", table=number, rule="table_twice"
            )
        numbers.add(number)
        out.append({"table": number, "sides": parse_sides(t, side_size)})
    byes = event.get("byes", [])
    if not isinstance(byes, list) or not all(isinstance(e, str) and e for e in byes):
        raise malformed(f"{event['type']}: 'byes' must be a list of entry ids", type=event["type"], rule="byes")
    return out, list(byes)


def parse_result(event: dict[str, Any], hands_per_round: int | None) -> dict[str, Any]:
    """A table's result: ``hands`` (score lines per hand) and/or ``score`` (the round's line),
    ``vp`` as written on a paper DTM sheet, ``game`` the id of the recorded game."""
    hands = event.get("hands")
    score = event.get("score")
    vp = event.get("vp")
    game = event.get("game")
    if game is not None and not (is_int(game) or (isinstance(game, str) and game)):
        raise malformed(f"{event['type']}: 'game' is a game id (integer or string)", type=event["type"], rule="game_id")
    lines = None
    adjustments: list[Any] = []
    if hands is not None:
        if not isinstance(hands, list) or not hands:
            raise malformed(
                f"{event['type']}: 'hands' is a non-empty list of hand lines", type=event["type"], rule="hands_list"
            )
        lines = []
        for h in hands:
            if isinstance(h, list):
                h = {"points": h}
            if isinstance(h, dict) and "adjustment" in h:
                adjustments.append(parse_adjustment(event, h))
                lines.append((0, 0, None))
                continue
            adjustments.append(None)
            if not isinstance(h, dict) or set(h) - {"points", "double_victory"}:
                raise malformed(
                    f'{event["type"]}: a hand line is {{"points": [a, b], "double_victory": 0|1|null}}',
                    type=event["type"],
                    rule="hand_line",
                )
            pts, dv = h.get("points"), h.get("double_victory")
            if not (isinstance(pts, list) and len(pts) == 2 and all(is_int(p) for p in pts)):
                raise malformed(
                    f"{event['type']}: a hand line's points are two integers", type=event["type"], rule="hand_points"
                )
            if dv not in (None, 0, 1) or isinstance(dv, bool):
                raise malformed(
                    f"{event['type']}: double_victory is 0, 1 (the side) or null",
                    type=event["type"],
                    rule="double_victory",
                )
            lines.append((pts[0], pts[1], dv))
        if hands_per_round is not None and len(lines) > hands_per_round:
            raise TournamentError(
                "result_invalid",
                f"{len(lines)} hand lines; a round has {hands_per_round} hands",
                hands=len(lines),
                hands_per_round=hands_per_round,
                rule="hand_count",
            )
    if score is not None:
        if not (isinstance(score, list) and len(score) == 2 and all(is_int(p) for p in score)):
            raise malformed(
                f"{event['type']}: 'score' is two integers, side 0 then side 1", type=event["type"], rule="score"
            )
        score = (score[0], score[1])
    if vp is not None:
        if not (isinstance(vp, list) and len(vp) == 2 and all(is_number(p) and p >= 0 for p in vp)):
            raise malformed(f"{event['type']}: 'vp' is two numbers >= 0", type=event["type"], rule="vp")
        vp = (vp[0], vp[1])
    if lines is None and score is None:
        raise malformed(
            f"{event['type']}: give 'hands' (the hand lines) or 'score' (the round's line)",
            type=event["type"],
            rule="hands_or_score",
        )
    if lines is not None:
        sums = (sum(x[0] for x in lines), sum(x[1] for x in lines))
        if score is not None and score != sums:
            raise TournamentError(
                "result_invalid",
                f"score {list(score)} is not the sum of the hand lines {list(sums)}",
                score=list(score),
                sums=list(sums),
                rule="score_not_sum",
            )
        score = sums
    adjusted = adjustments if any(a is not None for a in adjustments) else None
    return {"game": game, "hands": lines, "score": score, "vp": vp, "adjustments": adjusted}


def parse_adjustment(event: dict[str, Any], line: dict[str, Any]) -> tuple[str, str]:
    """A board given an adjustment instead of a result: ``{"adjustment": "AVG"}`` (both pairs) or
    ``{"adjustment": ["AVG+", "AVG-"]}`` (N/S, E/W)."""
    adj = line["adjustment"]
    pair = (adj, adj) if isinstance(adj, str) else tuple(adj) if isinstance(adj, list) and len(adj) == 2 else None
    if set(line) != {"adjustment"} or pair is None or any(a not in BOARD_ADJUSTMENTS for a in pair):
        raise malformed(
            f'{event["type"]}: an adjusted board is {{"adjustment": A}} or {{"adjustment": [A_ns, A_ew]}}, '
            f"A one of {', '.join(BOARD_ADJUSTMENTS)}",
            type=event["type"],
            adjustments=list(BOARD_ADJUSTMENTS),
            rule="board_adjustment",
        )
    return (pair[0], pair[1])


def reason(event: dict[str, Any]) -> str:
    value = event.get("reason")
    if not isinstance(value, str) or not value.strip():
        raise TournamentError(
            "reason_required", f"{event['type']} needs a 'reason' (it is kept in the history)", type=event["type"]
        )
    return value
