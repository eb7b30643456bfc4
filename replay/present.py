"""From a frame to what the templates show: plain lookups in the engine's output, no rules.

The replay's table (seats, trick, Tien Zi Que's piles), its panel and its score sheet so far are
drawn by the viewer's script alone (`static/replay/table.js`, `tzq.js`, `panel.js`); the browser
tests check them against the engine. Here: the game page's score sheet, the seats' words, the
navigation links that work without a script, and the hand's event list (drawn here alone: the
script asks for another hand's).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from django.utils.html import escape
from django.utils.translation import gettext, pgettext_lazy

from games import engine

from . import frames

#: The compass places of engine.seat_positions, in the reader's language
PLACES = {
    "South": pgettext_lazy("place at the table", "South"),
    "South-East": pgettext_lazy("place at the table", "South-East"),
    "East": pgettext_lazy("place at the table", "East"),
    "North-East": pgettext_lazy("place at the table", "North-East"),
    "North": pgettext_lazy("place at the table", "North"),
    "North-West": pgettext_lazy("place at the table", "North-West"),
    "West": pgettext_lazy("place at the table", "West"),
    "South-West": pgettext_lazy("place at the table", "South-West"),
}


def seat_places(variant: str, n: int, direction: Any) -> list[str | None]:
    """Each seat's place at the table (the engine's, ``engine.seat_positions``) in words, or None."""
    return [str(PLACES.get(p, p)) if p else None for p in engine.seat_positions(variant, n, str(direction))]


def seat_labels(variant: str, players: list[str], direction: Any) -> list[str]:
    """``South — Anna`` (``Süd — Anna``): a seat by its place and its player, as engine.seat_labels
    says it in English; the name alone where the game has no fixed places."""
    return [
        gettext("%(place)s — %(player)s") % {"place": place, "player": player} if place else player
        for place, player in zip(seat_places(variant, len(players), direction), players)
    ]


def parse_view(raw: Any, n_seats: int, default: str | int) -> str | int:
    """`view`: "all" (every hand open) or a seat number (that seat's hand only)."""
    if raw is None or raw == "":
        return default
    if str(raw) == "all":
        return "all"
    try:
        seat = int(raw)
    except (TypeError, ValueError):
        return default
    return seat if 0 <= seat < n_seats else default


def parse_seat(raw: Any, n_seats: int, default: int) -> int:
    try:
        seat = int(raw)
    except (TypeError, ValueError):
        return default
    return seat if 0 <= seat < n_seats else default


def nav_targets(marks: dict[str, list[int]], n: int, length: int, show_undone: bool = False) -> dict[str, int]:
    """The positions the navigation buttons go to from `n` (marks from the server's frames).

    Corrections (`marks["undone"]`: undo events and what they retracted) are stepped over unless
    `show_undone`; the first and last positions are always reachable. `static/replay/nav.js` `targets` mirrors it."""
    hands, tricks = marks.get("hands", []), marks.get("tricks", [])
    folded = set() if show_undone else set(marks.get("undone", []))

    def forward(k: int) -> int:
        while k < length and k in folded:
            k += 1
        return k

    def back(k: int) -> int:
        while k > 0 and k in folded:
            k -= 1
        return k

    def after(points: list[int]) -> int:
        i = bisect_right(points, n)
        return forward(points[i]) if i < len(points) else length

    def before(points: list[int]) -> int:
        i = bisect_left(points, n)
        return back(points[i - 1]) if i > 0 else 0

    return {
        "first": 0,
        "prev_hand": before(hands),
        "prev_trick": before(tricks),
        "prev": back(max(0, n - 1)),
        "next": forward(min(length, n + 1)),
        "next_trick": after(tricks),
        "next_hand": after(hands),
        "last": length,
    }


def hand_log(data: frames.ReplayData, n: int, upto: int | None = None) -> dict:
    """The events of the hand around position `n` (from its start mark to the next), in words;
    none after `upto` (a page following a game in play asks for no more than its frames hold)."""
    hands = data.marks.get("hands", [0])
    i = bisect_right(hands, n) - 1
    start = hands[i] if i >= 0 else 0
    end = hands[i + 1] - 1 if i + 1 < len(hands) else data.length
    if upto is not None:
        end = max(start, min(end, upto))
    undone = set(data.marks.get("undone", []))
    return {
        "start": start,
        "end": end,
        "items": [
            {"at": k, "text": data.texts[k], "current": k == n, "future": k > n, "undone": k in undone}
            for k in range(start, end + 1)
        ],
    }


def hand_log_html(log: dict, view: int | str, bottom: int, show_undone: bool) -> str:
    """The `<li>` of the hand's events: the one drawing of the list, for the page and for the
    script, which asks for a hand's list when the reader moves to another hand (`?part=hand-log`,
    static/replay/render.js). Built here, not by a template loop: a hand has ~150 events."""
    query = f"&amp;view={escape(str(view))}&amp;bottom={escape(str(bottom))}" + ("&amp;undone=1" if show_undone else "")
    parts = []
    for item in log["items"]:
        at = item["at"]
        classes = " ".join(
            c for c, on in (("current", item["current"]), ("future", item["future"]), ("undone", item["undone"])) if on
        )
        attrs = f' class="{classes}"' if classes else ""
        if item["current"]:
            attrs += ' aria-current="step"'
        parts.append(f'<li data-at="{at}"{attrs}><a href="?at={at}{query}">{at}. {escape(item["text"])}</a></li>')
    return "".join(parts)


def hand_log_key(log: dict, view: int | str, bottom: int, show_undone: bool) -> str:
    """What the list was drawn for (its hand's range and the links' settings): the script draws
    it again, by asking the server, only when the key it needs differs."""
    return f"{log['start']}:{log['end']}:{view}:{bottom}:{int(show_undone)}"


def team_labels(players: list[str], teams: list[list[int]]) -> list[str]:
    return [" & ".join(players[s] for s in team if 0 <= s < len(players)) for team in teams]


def column_labels(players: list[str], teams: list[list[int]], totals: list) -> list[str]:
    """The score sheet's columns as the engine keeps them: per team (Nanking, Tientsin), or per
    player where every player has a total of their own (Threechu, Grand Seigneur)."""
    if totals and len(totals) != len(teams):
        return [players[i] if i < len(players) else gettext("Seat %(seat)s") % {"seat": i} for i in range(len(totals))]
    return team_labels(players, teams)


def score_columns(players: list[str], frame: dict) -> dict:
    """The score sheet's column labels, each with its total, and the winner's label, for a frame
    (or the final state): per team, or per player where the engine keeps per-player totals."""
    totals = frame.get("totals") or []
    labels = column_labels(players, frame.get("teams") or [], totals)
    winner = frame.get("winner")
    return {
        "labels": labels,
        "totals": [(label, totals[i] if i < len(totals) else None) for i, label in enumerate(labels)],
        "winner": labels[winner] if isinstance(winner, int) and winner < len(totals) else None,
    }


def _penalty(players: list[str], penalty: dict | None, lang: str) -> dict | None:
    """A penalty line's offender and breach, in the engine's words ("missed wish")."""
    if not isinstance(penalty, dict) or not isinstance(penalty.get("seat"), int):
        return None
    seat = penalty["seat"]
    return {
        "seat": seat,
        "name": players[seat] if 0 <= seat < len(players) else str(seat),
        "reason": frames.term("reason", penalty.get("reason", ""), lang),
    }


def sheet_rows(players: list[str], sheet: list[dict], lang: str = "en") -> list[dict]:
    """Score-sheet lines for the table: calls and finishing order by name, calls in ``lang``."""
    call_names = frames.labels(lang)["calls"]
    rows = []
    for number, line in enumerate(sheet, start=1):
        calls = [
            {"seat": int(seat), "name": players[int(seat)], "call": call, "label": call_names.get(call, call)}
            for seat, call in sorted((line.get("calls") or {}).items(), key=lambda kv: int(kv[0]))
        ]
        rows.append(
            {
                "number": number,
                "shuffler": players[line["shuffler"]] if isinstance(line.get("shuffler"), int) else "",
                "calls": calls,
                "out": [{"seat": s, "name": players[s]} for s in line.get("out") or []],
                "double_victory": bool(line.get("double_victory")),
                "kind": line.get("kind", ""),
                "penalty": _penalty(players, line.get("penalty"), lang),
                # a director's correction of the hand (games/engine/corrections.py): why, and what it was
                "corrected": line.get("corrected"),
                "card_points": line.get("card_points") or [],
                "points": line.get("points") or [],
                "totals": line.get("totals") or [],
                "from": line.get("from"),
                "at": line.get("at"),
            }
        )
    return rows


def board(variant: str) -> str | None:
    """The table the game draws (the engine's ``GameInfo.board``): ``rounds`` is Tien Zi Que's."""
    info = engine.GAMES.get(variant)
    return info.board if info else None
