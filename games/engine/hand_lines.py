"""Which score lines a hand of Tichu (Nanking, four players) can end with under given options.

A tournament (or any score kept on paper) records a hand as its line: the points of each side and
the side that won a double victory, if any. This module says whether some deal played under the
options can end with that line, from the engine's own scoring (:mod:`.variants`): the card points
of a hand played out are multiples of 5 from -25 to 125 summing to 100; a double victory gives its
option's points to the team whose two players went out first and none to the other; a missed-wish
penalty gives 200 to the offender's opponents; each player makes at most one call, Tichu (100) or
Grand Tichu (200, if the option allows it), won only by the first player out and lost otherwise
(with Brettspielwelt's quirk, a partner's failed Grand Tichu may cost nothing). Sides are teams:
side 0 is seats 0 and 2, side 1 seats 1 and 3.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any

from .errors import EngineError
from .options import TICHU_OPTIONS, resolve
from .variants import CALL_BONUS, NANKING

_TEAM_OF = (0, 1, 0, 1)
_PENALTY = 200  # a missed wish noticed at the table: the offender's opponents score 200 (variants.score_penalty)
_LOW, _HIGH = -25, 125  # the card points one team can take in a hand played out (Phoenix only; all else)


def _rules(options: dict[str, Any] | None) -> tuple[bool, Any, int]:
    """(Grand Tichu allowed, BSW quirk, double victory points) under the options."""
    given = {k: v for k, v in (options or {}).items() if k != "variant"}
    effective = resolve(TICHU_OPTIONS, given)
    return bool(effective["grand_tichu"]), effective["bsw_grand_tichu_quirk"], NANKING.sweep_points(effective)


@lru_cache(maxsize=32)
def _bonuses(grand: bool, quirk: Any) -> frozenset[tuple[int | None, int, int]]:
    """Every (team of the first player out or None, call points of side 0, of side 1) the calls
    can give: each seat calls nothing, Tichu or Grand Tichu, the first out (if any) wins its call."""
    calls = (None, "tichu", "grand_tichu") if grand else (None, "tichu")
    seen = set()
    for first in (None, 0, 1, 2, 3):
        for made in itertools.product(calls, repeat=4):
            said = {s: c for s, c in enumerate(made) if c}
            b0, b1 = NANKING.call_points(said, first, _TEAM_OF, {"bsw_grand_tichu_quirk": quirk})
            seen.add((None if first is None else _TEAM_OF[first], b0, b1))
    return frozenset(seen)


def _reachable(points: tuple[int, int], double_victory: int | None, grand: bool, quirk: Any, sweep: int) -> bool:
    p0, p1 = points
    for first_team, b0, b1 in _bonuses(grand, quirk):
        c0, c1 = p0 - b0, p1 - b1
        if double_victory is not None:
            cards = (sweep, 0) if double_victory == 0 else (0, sweep)
            if first_team == double_victory and (c0, c1) == cards:
                return True
            continue
        if (c0, c1) in ((_PENALTY, 0), (0, _PENALTY)):
            return True
        if first_team is not None and c0 + c1 == 100 and c0 % 5 == 0 and _LOW <= c0 <= _HIGH:
            return True
    return False


def _calls_words(grand: bool) -> str:
    tichu = f"Tichu ±{CALL_BONUS['tichu']}"
    return f"{tichu}, Grand Tichu ±{CALL_BONUS['grand_tichu']}" if grand else f"{tichu}, no Grand Tichu"


def hand_line_refusal(
    points: Any, double_victory: int | None = None, options: dict[str, Any] | None = None
) -> EngineError | None:
    """None when some hand played under ``options`` ends with ``points`` (side 0, side 1) and
    ``double_victory`` (the side that won one, or None); otherwise the refusal, an EngineError
    ``result_invalid`` whose ``params["rule"]`` says which rule the line breaks (``line_shape``,
    ``line_step``: not multiples of 5, ``line_sum``: the sides' sum is not 100 plus calls,
    ``line_double_victory``, ``line_calls``: no calls the options allow make it) with the numbers.
    Returned, not raised: a caller words it in its own terms (the tournament core's refusal)."""
    if (
        not isinstance(points, (list, tuple))
        or len(points) != 2
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in points)
        or double_victory not in (None, 0, 1)
        or isinstance(double_victory, bool)
    ):
        return EngineError(
            "result_invalid",
            "a hand line is two integers (side 0, side 1) and the side of a double victory (0, 1 or none)",
            params={"rule": "line_shape"},
        )
    grand, quirk, sweep = _rules(options)
    p0, p1 = points
    line = f"{p0}:{p1}"
    said = {"line": line, "calls": _calls_words(grand), "grand_tichu": grand, "double_victory_points": sweep}
    if _reachable((p0, p1), double_victory, grand, quirk, sweep):
        return None
    if p0 % 5 or p1 % 5:
        return EngineError(
            "result_invalid",
            f"hand line {line}: a hand's points are multiples of 5",
            params={**said, "rule": "line_step"},
        )
    if double_victory is not None:
        return EngineError(
            "result_invalid",
            f"hand line {line}: a double victory of side {double_victory} gives it {sweep} and the other side 0, "
            f"plus or minus the calls ({said['calls']})",
            params={**said, "side": double_victory, "rule": "line_double_victory"},
        )
    if (p0 + p1) % 100 and sweep % 100 == 0:
        return EngineError(
            "result_invalid",
            f"hand line {line}: the two sides of a hand sum to 100 (the card points) plus or minus the calls' "
            f"hundreds, not {p0 + p1}",
            params={**said, "total": p0 + p1, "rule": "line_sum"},
        )
    return EngineError(
        "result_invalid",
        f"hand line {line}: no hand makes it with the calls this game has ({said['calls']}; one call a player, "
        f"won only by the first player out) and card points from {_LOW} to {_HIGH}",
        params={**said, "rule": "line_calls"},
    )


def hand_line_rules(options: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a score sheet of a Tichu game under ``options`` prints: whether Grand Tichu is called
    (``grand_tichu``), what a double victory scores (``double_victory_points``) and the calls'
    values (``tichu``, ``grand_tichu_points``)."""
    grand, _quirk, sweep = _rules(options)
    return {
        "grand_tichu": grand,
        "double_victory_points": sweep,
        "tichu": CALL_BONUS["tichu"],
        "grand_tichu_points": CALL_BONUS["grand_tichu"],
    }


def hand_line_reachable(points: Any, double_victory: int | None = None, options: dict[str, Any] | None = None) -> bool:
    """Whether some hand played under ``options`` ends with this line (:func:`hand_line_refusal`)."""
    return hand_line_refusal(points, double_victory, options) is None


def paper_hand_line(
    options: dict[str, Any] | None, calls: dict[str, str], out: list[int], card_points: list[int] | None
) -> dict[str, Any]:
    """A hand kept on paper (each seat's call, the order out, the card points of a hand not won by
    a double victory) scored under ``options`` as the engine scores a ``hand_result``:
    ``{"points": [side 0, side 1], "double_victory": side or None, "card_points": [..]}``.
    A hand the options refuse raises the engine's EngineError (a Grand Tichu where there is none)."""
    from .record import new_game  # the fold, loaded when a hand is scored

    given = {k: v for k, v in (options or {}).items() if k != "variant"}
    if isinstance(calls, dict) and "grand_tichu" in calls.values() and not _rules(given)[0]:
        raise EngineError(  # said as a played hand's call is refused (state._on_grand_tichu)
            "not_in_variant",
            "there is no Grand Tichu in this game (option grand_tichu)",
            params={"rule": "no_grand_tichu", "option": "grand_tichu"},
        )
    game = new_game("nanking", given)
    event: dict[str, Any] = {"type": "hand_result", "calls": calls, "out": out}
    if card_points is not None:
        event["points"] = card_points
    game.apply(event)
    line = game.history[-1]
    return {
        "points": list(line["points"]),
        "double_victory": _TEAM_OF[line["out"][0]] if line["double_victory"] else None,
        "card_points": list(line["card_points"]),
    }
