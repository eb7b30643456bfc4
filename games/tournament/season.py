"""A club's season (docs/tournament.md, "Seasons"): a series of evenings scored into one table.

A season is a header (how an evening scores, best N of M, the minimum of evenings, tie-breaks)
and an append-only list of events: ``evening_added`` and ``evening_removed``, each with the
tournament it names and (for a removal, always) the reason. The season keeps no result of its
own: its table is a fold of the season's events *and of its evenings' records*
(:func:`season_table` takes each evening's standings as the tournament core folds them), so a
correction on an evening's record changes the season by itself, and the evening's history says
why. A player is followed across evenings by the id (or name) their entries list.

Scoring an evening (``scoring``):

* ``place``: an entry ranked r of n ranked entries scores n - r + 1 (the last scores 1; entries
  sharing a rank share its points), so a big evening is worth more than a small one;
* ``vp``: the entry's victory points (or the scoring preset's primary number) of the evening;
* ``table``: a fixed table of points per place (``points_table``: 25, 18, 15, ... for places
  1, 2, 3, ...; a place past its end scores 0), as a race series scores.

Every player of an entry scores the entry's points. ``best`` counts a player's best N evenings
(all when absent); a player with fewer than ``min_evenings`` evenings is listed, unranked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import TournamentError
from .fields import MAX_TEXT_CHARS
from .limits import MAX_ID
from .record import apply_all, is_int, malformed, reason

FORMAT = "tichu-season/1"
SCORING = ("place", "vp", "table")
#: tie-breaks in the order a header may list them: more evenings won, a better best place, the
#: total over every evening (not only the best N), more evenings played
TIE_BREAKS = ("evenings_won", "best_place", "all_evenings", "evenings")
DEFAULT_TIE_BREAKS = ["evenings_won", "best_place"]
MAX_EVENINGS = 200
MAX_TABLE_PLACES = 64
HEADER_KEYS = {"format", "name", "scoring", "points_table", "best", "min_evenings", "tie_breaks", "meta"}
SEASON_EVENT_FIELDS: dict[str, frozenset[str]] = {
    "evening_added": frozenset({"tournament", "reason"}),
    "evening_removed": frozenset({"tournament", "reason"}),
}
SEASON_EVENT_TYPES = tuple(SEASON_EVENT_FIELDS)


def parse_season_header(obj: Any) -> dict[str, Any]:
    """The header with its defaults: scoring by place, every evening counts, no minimum."""
    shape = (
        "a season's header has scoring (place, vp or table), points_table (for table: the points of "
        "places 1, 2, ...), best (count the best N evenings), min_evenings and tie_breaks (evenings_won, "
        "best_place, all_evenings, evenings)"
    )
    if not isinstance(obj, dict) or set(obj) - HEADER_KEYS or obj.get("format", FORMAT) != FORMAT:
        raise malformed(shape, rule="season_header")
    scoring = obj.get("scoring", "place")
    table = obj.get("points_table")
    best = obj.get("best")
    minimum = obj.get("min_evenings", 0)
    ties = obj.get("tie_breaks", DEFAULT_TIE_BREAKS)
    if (
        scoring not in SCORING
        or (scoring == "table") != (table is not None)
        or (
            table is not None
            and (
                not isinstance(table, list)
                or not 0 < len(table) <= MAX_TABLE_PLACES
                or not all(is_int(p, 0) and p <= 10_000 for p in table)
            )
        )
        or (best is not None and not (is_int(best, 1) and best <= MAX_EVENINGS))
        or not (is_int(minimum, 0) and minimum <= MAX_EVENINGS)
        or not isinstance(ties, list)
        or any(t not in TIE_BREAKS for t in ties)
        or len(set(ties)) != len(ties)
        or not isinstance(obj.get("name", ""), str)
        or len(obj.get("name", "")) > MAX_TEXT_CHARS
        or not isinstance(obj.get("meta", {}), dict)
    ):
        raise malformed(shape, rule="season_header")
    if table is not None and any(a < b for a, b in zip(table, table[1:], strict=False)):
        raise malformed(
            "a season's points_table gives each place at least the points of the place after it",
            rule="season_points_table",
        )
    return {
        "format": FORMAT,
        "name": obj.get("name", ""),
        "scoring": scoring,
        "points_table": table,
        "best": best,
        "min_evenings": minimum,
        "tie_breaks": list(ties),
        "meta": obj.get("meta", {}),
    }


@dataclass
class SeasonState:
    header: dict[str, Any]
    #: the season's evenings (tournament ids) in the order they were added
    evenings: list[int] = field(default_factory=list)
    #: every accepted event with its index: the season's history (why an evening came or went)
    history: list[dict[str, Any]] = field(default_factory=list)
    events_applied: int = 0

    def apply(self, event: Any) -> None:
        """Check the event against the season so far, then apply it; a refusal changes nothing."""
        kind = event.get("type") if isinstance(event, dict) else None
        allowed = SEASON_EVENT_FIELDS.get(kind) if isinstance(kind, str) else None
        if (
            allowed is None
            or set(event) - allowed - {"type"}
            or not is_int(event.get("tournament"), 1)
            or event["tournament"] > MAX_ID
            or not isinstance(event.get("reason", ""), str)
            or len(event.get("reason", "")) > MAX_TEXT_CHARS
        ):
            raise malformed(
                "a season's events are evening_added and evening_removed, each with tournament (an id) "
                f"and a reason of at most {MAX_TEXT_CHARS} characters",
                limit=MAX_TEXT_CHARS,
                rule="season_event",
            )
        tid = event["tournament"]
        if kind == "evening_added":
            if tid in self.evenings:
                raise TournamentError(
                    "evening_in_season", f"tournament {tid} is an evening of this season already", tournament=tid
                )
            if len(self.evenings) >= MAX_EVENINGS:
                raise TournamentError(
                    "too_many_entries",
                    f"a season has at most {MAX_EVENINGS} evenings",
                    limit=MAX_EVENINGS,
                    rule="season",
                )
            self.evenings.append(tid)
        else:
            if tid not in self.evenings:
                raise TournamentError(
                    "evening_not_in_season", f"tournament {tid} is not an evening of this season", tournament=tid
                )
            reason(event)  # a removal says why: it is kept in the season's history
            self.evenings.remove(tid)
        self.history.append({"index": self.events_applied, **event})
        self.events_applied += 1


def new_season(header: Any) -> SeasonState:
    return SeasonState(parse_season_header(header))


def fold_season(record: Any, upto: int | None = None) -> SeasonState:
    """The season after its first ``upto`` events (all by default); a refusal carries ``index``."""
    if (
        not isinstance(record, dict)
        or set(record) - {"format", "header", "events"}
        or not isinstance(record.get("events", []), list)
        or record.get("format", FORMAT) != FORMAT
    ):
        raise malformed("a season record is {format: tichu-season/1, header, events: [...]}", rule="season_record")
    return apply_all(new_season(record.get("header", {})), record.get("events", [])[:upto])


# --- the table: a fold of the season and of its evenings' standings -----------------------------


@dataclass
class _Player:
    player: Any
    name: str
    #: tournament id -> {"rank", "of", "score"} for each evening the player was ranked in
    evenings: dict[int, dict[str, Any]] = field(default_factory=dict)


def evening_score(header: dict[str, Any], row: Mapping[str, Any], ranked: int) -> float:
    """What one standings row of an evening scores under the season's header."""
    rank = row["rank"]
    if header["scoring"] == "place":
        return ranked - rank + 1
    if header["scoring"] == "vp":
        return row["vp"]
    table = header["points_table"]
    return table[rank - 1] if rank <= len(table) else 0


def season_table(state: SeasonState, standings: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    """The season's table from its evenings' standings (``standings_json`` of each evening's fold,
    by tournament id; an evening missing from ``standings`` or not ranked yet counts nothing and
    is listed as waiting). Rows: rank (None while under ``min_evenings``), player, score (the
    best N evenings), the evenings played and, per evening, its rank and score and whether it
    counts."""
    header = state.header
    players: dict[Any, _Player] = {}
    waiting: list[int] = []
    for tid in state.evenings:
        evening = standings.get(tid)
        rows = [r for r in (evening or {}).get("standings", []) if r.get("rank") is not None]
        if not rows:
            waiting.append(tid)
            continue
        for row in rows:
            score = evening_score(header, row, len(rows))
            for player in row["players"]:
                p = players.setdefault(player, _Player(player, str(player)))
                p.evenings[tid] = {"rank": row["rank"], "of": len(rows), "score": score}
    lines = [_line(header, p, state.evenings) for p in players.values()]
    ranked = [line for line in lines if line["evenings_played"] >= header["min_evenings"]]
    unranked = [line for line in lines if line["evenings_played"] < header["min_evenings"]]
    ranked.sort(key=lambda line: _order_key(header, line))
    place = 0
    for i, line in enumerate(ranked):
        if i == 0 or _order_key(header, line)[:-1] != _order_key(header, ranked[i - 1])[:-1]:
            place = i + 1
        line["rank"] = place
    unranked.sort(key=lambda line: (-line["evenings_played"], -line["score"], line["name"]))
    return {
        "ok": True,
        "format": FORMAT,
        "name": header["name"],
        "scoring": header["scoring"],
        "best": header["best"],
        "min_evenings": header["min_evenings"],
        "tie_breaks": header["tie_breaks"],
        "evenings": list(state.evenings),
        "waiting": waiting,
        "events": state.events_applied,
        "table": ranked + unranked,
    }


def _line(header: dict[str, Any], p: _Player, order: list[int]) -> dict[str, Any]:
    played = [(tid, p.evenings[tid]) for tid in order if tid in p.evenings]
    # the best N by score; among equal scores the earlier evening counts (a stable, stated choice)
    by_score = sorted(range(len(played)), key=lambda k: -played[k][1]["score"])
    counted = set(by_score[: header["best"]] if header["best"] is not None else by_score)
    evenings = [
        {"tournament": tid, "rank": e["rank"], "of": e["of"], "score": _number(e["score"]), "counts": k in counted}
        for k, (tid, e) in enumerate(played)
    ]
    return {
        "rank": None,
        "player": p.player,
        "name": p.name,
        "score": _number(sum(e["score"] for e in evenings if e["counts"])),
        "all_evenings": _number(sum(e["score"] for e in evenings)),
        "evenings_played": len(played),
        "evenings_won": sum(e["rank"] == 1 for e in evenings),
        "best_place": min((e["rank"] for e in evenings), default=None),
        "evenings": evenings,
    }


def _order_key(header: dict[str, Any], line: dict[str, Any]) -> tuple[Any, ...]:
    """Higher score first, then the header's tie-breaks; the name last only to list a tie in a
    fixed order (it is not a tie-break: tied lines share their rank)."""
    key: list[Any] = [-line["score"]]
    for tie in header["tie_breaks"]:
        if tie == "best_place":  # every listed player was ranked in one evening at least
            key.append(line["best_place"])
        else:
            key.append(-line["evenings_played" if tie == "evenings" else tie])
    key.append(line["name"])
    return tuple(key)


def _number(x: float) -> float:
    return int(x) if float(x).is_integer() else x
