"""Standings and crosstable: pure reads of a :class:`TournamentState`.

Every entry gets one line per round: a table's result (its side's VP, Tichu points for and
against), a bye, a round missed as a late entry (both by the header's policy), or nothing
(withdrawn, or the table has no result yet). Adjustments are added on top. The primary score is
VP, or Tichu points under the ``points`` preset; the TD's tie-break list then splits ties in
order (docs/tournament.md, "Standings").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .duplicate import matchpoints
from .scoring import round_vp_total, table_vp
from .state import Round, TournamentState


@dataclass
class RoundLine:
    round: int
    kind: str  # "table", "bye", "late", "absent", "pending"
    vp: float = 0
    points: int = 0
    against: int = 0
    table: int | None = None
    partners: list[str] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)
    game: Any = None  # the id of the table's recorded game, when the result names one


@dataclass
class Line:
    entry: str
    rounds: list[RoundLine] = field(default_factory=list)
    vp: float = 0
    points: int = 0
    against: int = 0
    adjust_vp: float = 0
    adjust_points: int = 0

    @property
    def difference(self) -> int:
        return self.points - self.against


def policy_credit(state: TournamentState, kind: str) -> tuple[float, int]:
    """(VP, Tichu points) a bye or a missed round is worth under the header's policy."""
    total = round_vp_total(state.preset, state.header["hands_per_round"])
    policy = state.header["policy"]
    bye = policy["bye"]
    as_bye = ({"win": total, "draw": total / 2, "loss": 0}[bye["result"]], bye["points"])
    if kind == "bye":
        return as_bye
    late = policy["late_entry"]
    if late == "bye":
        return as_bye
    return (total / 2, 0) if late == "half" else (0, 0)


def _as_int(x: float) -> float:
    return int(x) if float(x).is_integer() else x


def _number(x: Fraction) -> float:
    """A matchpoint figure for JSON: an int when whole, else a float to 4 places."""
    return int(x) if x.denominator == 1 else round(float(x), 4)


def board_number(state: TournamentState, round_number: int, hand: int) -> int:
    """The board a duplicate round's hand (0-based) is: every table of round r plays boards
    (r-1)*b+1 .. r*b, b the boards per round (.duplicate.movement)."""
    return (round_number - 1) * (state.header["hands_per_round"] or 1) + hand + 1


def board_matchpoints(state: TournamentState, rnd: Round) -> dict[int, list[tuple[Fraction, Fraction]]]:
    """{table: [(N/S, E/W) matchpoints of each board]} for the round's tables with a result, each
    board compared across those tables (.duplicate.matchpoints: the N/S minus E/W difference,
    1 for a result beaten, 1/2 a tie; AVG, AVG+, AVG- a share of the top)."""
    scored = [t for t in sorted(rnd.tables.values(), key=lambda t: t.number) if t.result is not None]
    out: dict[int, list[tuple[Fraction, Fraction]]] = {t.number: [] for t in scored}
    boards = max((len(t.result["hands"] or []) for t in scored), default=0)  # type: ignore[index]
    for i in range(boards):
        results: list[Any] = []
        for t in scored:
            adjusted = (t.result.get("adjustments") or [None] * boards)[i]  # type: ignore[union-attr]
            a, b, _dv = t.result["hands"][i]  # type: ignore[index]
            results.append(tuple(adjusted) if adjusted else a - b)
        for t, mp in zip(scored, matchpoints(results)):
            out[t.number].append(mp)
    return out


def table_scores(state: TournamentState, rnd: Round) -> dict[int, tuple[float, float]]:
    """{table: (side 0, side 1) VP} of the round's tables with a result: the preset's VP, or
    under matchpoints the sum of each board's matchpoints against the round's other tables."""
    hands = state.header["hands_per_round"]
    if state.preset.unit != "board":
        return {t.number: table_vp(state.preset, t.result, hands) for t in rnd.tables.values() if t.result is not None}
    return {
        table: (_number(sum((m[0] for m in mps), Fraction(0))), _number(sum((m[1] for m in mps), Fraction(0))))
        for table, mps in board_matchpoints(state, rnd).items()
    }


def round_lines(state: TournamentState) -> dict[str, Line]:
    lines = {e: Line(e) for e in state.entries}
    for rnd in state.rounds:
        seated: set[str] = set()
        scores = table_scores(state, rnd)
        for table in rnd.tables.values():
            result = table.result
            vps = scores.get(table.number) if result else None
            for s, side in enumerate(table.sides):
                other = table.sides[1 - s]
                for e in side:
                    seated.add(e)
                    played = RoundLine(
                        rnd.number,
                        "table" if vps else "pending",
                        table=table.number,
                        partners=[p for p in side if p != e],
                        opponents=list(other),
                    )
                    if vps and result:
                        played.game = result["game"]
                        played.vp = vps[s]
                        played.points, played.against = result["score"][s], result["score"][1 - s]
                    lines[e].rounds.append(played)
        for e in rnd.byes:
            seated.add(e)
            vp, points = policy_credit(state, "bye")
            lines[e].rounds.append(RoundLine(rnd.number, "bye", vp=vp, points=points))
        for e, entry in state.entries.items():
            if e in seated:
                continue
            if rnd.number <= entry.joined_after:
                vp, points = policy_credit(state, "late")
                lines[e].rounds.append(RoundLine(rnd.number, "late", vp=vp, points=points))
            else:
                lines[e].rounds.append(RoundLine(rnd.number, "absent"))
    for line in lines.values():
        line.vp = sum(r.vp for r in line.rounds)
        line.points = sum(r.points for r in line.rounds)
        line.against = sum(r.against for r in line.rounds)
    for adj in state.adjustments:
        line = lines[adj.entry]
        line.adjust_vp += adj.vp
        line.adjust_points += adj.points
        line.vp += adj.vp
        line.points += adj.points
    return lines


def primary(state: TournamentState, line: Line) -> float:
    return line.points if state.preset.unit == "none" else line.vp


def lots_order(state: TournamentState) -> dict[str, int]:
    """Position of each entry in the drawing of lots: the recorded ``lots_drawn`` order, else a
    shuffle seeded from the header (entries registered after a drawing follow it, seeded too)."""
    seeded = sorted(state.entries)
    random.Random(f"lots:{state.header['seed']}").shuffle(seeded)
    drawn = list(state.lots or [])
    order = drawn + [e for e in seeded if e not in drawn]
    return {e: i for i, e in enumerate(order)}


def buchholz(state: TournamentState, lines: dict[str, Line]) -> dict[str, float]:
    """Opponents' primary scores summed over the rounds played (individuals: the mean of the two
    opponents). A bye or a missed round counts a virtual opponent (FIDE 2023): the entry's own
    score before that round, plus the reverse of its result that round, plus a draw for every
    later round."""
    total = round_vp_total(state.preset, state.header["hands_per_round"])
    n_rounds = len(state.rounds)
    scores = {e: primary(state, line) for e, line in lines.items()}
    out = {}
    for e, line in lines.items():
        value, before = 0.0, 0.0
        for r in line.rounds:
            own = r.points if state.preset.unit == "none" else r.vp
            if r.kind == "table" and r.opponents:
                value += sum(scores[o] for o in r.opponents) / len(r.opponents)
            elif r.kind in ("bye", "late"):
                if state.preset.unit == "none":
                    value += scores[e]
                else:
                    value += before + (total - own) + total / 2 * (n_rounds - r.round)
            before += own
        out[e] = _as_int(round(value, 6))
    return out


def head_to_head(state: TournamentState, lines: dict[str, Line], group: list[str]) -> dict[str, float]:
    """What each tied entry scored at tables where an opponent was in the same tie."""
    members = set(group)
    out = {}
    for e in group:
        out[e] = sum(
            (r.points if state.preset.unit == "none" else r.vp)
            for r in lines[e].rounds
            if r.kind == "table" and members & set(r.opponents)
        )
    return out


def ranking(state: TournamentState, lines: dict[str, Line] | None = None) -> list[list[str]]:
    """Entries in standing order, as groups still tied after every tie-break (a drawing of lots
    in the list leaves no tie). Unranked entries (withdrawn, policy ``unranked``) are left out."""
    lines = lines if lines is not None else round_lines(state)
    ranked = [
        e for e, entry in state.entries.items() if entry.active or state.header["policy"]["withdrawal"] == "ranked"
    ]
    keys: dict[str, dict[str, float]] = {
        "points": {e: lines[e].points for e in ranked},
        "difference": {e: lines[e].difference for e in ranked},
    }
    if "buchholz" in state.header["tiebreaks"]:
        keys["buchholz"] = buchholz(state, lines)
    lots = lots_order(state)
    keys["lots"] = {e: -lots[e] for e in ranked}
    groups = _split([sorted(ranked, key=lambda e: lots[e])], {e: primary(state, lines[e]) for e in ranked})
    for tb in state.header["tiebreaks"]:
        if tb == "head_to_head":
            groups = [g2 for g in groups for g2 in _split([g], head_to_head(state, lines, g))]
        else:
            groups = _split(groups, keys[tb])
    return groups


def _split(groups: list[list[str]], key: dict[str, float]) -> list[list[str]]:
    out = []
    for group in groups:
        if not group:
            continue
        if len(group) == 1:
            out.append(group)
            continue
        ordered = sorted(group, key=lambda e: -key[e])  # stable: keeps the previous order within ties
        current = [ordered[0]]
        for e in ordered[1:]:
            if key[e] == key[current[-1]]:
                current.append(e)
            else:
                out.append(current)
                current = [e]
        out.append(current)
    return out


def has_results(state: TournamentState) -> bool:
    """Whether any table has a result yet. Before the first one the standings rank nobody: every
    entry would tie on nothing and only the drawing of lots would order them, which reads as a
    ranking that no play made (docs/tournament.md, "Standings")."""
    return any(t.result is not None for r in state.rounds for t in r.tables.values())


def standings_json(state: TournamentState) -> dict[str, Any]:
    """The standings as ``python -m games.tournament standings`` prints them: entries in
    registration order without a rank until the first table has a result."""
    lines = round_lines(state)
    groups = ranking(state, lines) if has_results(state) else []
    bh = buchholz(state, lines) if "buchholz" in state.header["tiebreaks"] else None
    lots = lots_order(state)
    rows, place = [], 1
    for group in groups:
        for e in group:
            rows.append(_row(state, lines[e], place, bh, lots))
        place += len(group)
    ranked = {e for g in groups for e in g}
    rows += [_row(state, lines[e], None, bh, lots) for e in state.entries if e not in ranked]
    return {
        "ok": True,
        "events": state.events_applied,
        "rounds_paired": len(state.rounds),
        "rounds_closed": sum(r.closed for r in state.rounds),
        "finished": state.finished,
        "scoring": state.header["scoring"],
        "tiebreaks": state.header["tiebreaks"],
        "ranked": bool(groups),
        "standings": rows,
    }


def _row(
    state: TournamentState, line: Line, rank: int | None, bh: dict[str, float] | None, lots: dict[str, int]
) -> dict[str, Any]:
    entry = state.entries[line.entry]
    row: dict[str, Any] = {
        "rank": rank,
        "entry": entry.id,
        "name": entry.name,
        "players": entry.players,
        "status": "active" if entry.active else "withdrawn",
        "vp": _as_int(line.vp),
        "points": line.points,
        "against": line.against,
        "difference": line.difference,
        "played": sum(r.kind == "table" for r in line.rounds),
        "byes": sum(r.kind == "bye" for r in line.rounds),
        "lots": lots[entry.id] + 1,
    }
    if bh is not None:
        row["buchholz"] = bh[entry.id]
    if line.adjust_vp or line.adjust_points:
        row["adjustments"] = {"vp": _as_int(line.adjust_vp), "points": line.adjust_points}
    return row


def crosstable_json(state: TournamentState) -> dict[str, Any]:
    """Per entry, per round: where it sat, with and against whom, and what it took."""
    lines = round_lines(state)
    order = [e for g in ranking(state, lines) for e in g] if has_results(state) else []
    order += [e for e in state.entries if e not in order]
    rows = []
    for e in order:
        cells = []
        for r in lines[e].rounds:
            cell: dict[str, Any] = {"round": r.round, "kind": r.kind}
            if r.table is not None:
                cell.update(table=r.table, opponents=r.opponents)
                if r.partners:
                    cell["partners"] = r.partners
            if r.kind in ("table", "bye", "late"):
                cell.update(vp=_as_int(r.vp), points=r.points, against=r.against)
            if r.game is not None:
                cell["game"] = r.game
            cells.append(cell)
        rows.append({"entry": e, "name": state.entries[e].name, "rounds": cells})
    return {"ok": True, "events": state.events_applied, "crosstable": rows}


def _hand_lines(result: dict[str, Any]) -> list[dict[str, Any]] | None:
    if result["hands"] is None:
        return None
    adjustments = result.get("adjustments") or [None] * len(result["hands"])
    return [
        {"adjustment": list(adj)} if adj else {"points": [a, b], "double_victory": dv}
        for (a, b, dv), adj in zip(result["hands"], adjustments)
    ]


def boards_json(state: TournamentState) -> dict[str, Any]:
    """A duplicate tournament's boards, round by round: each board's results at every table that
    has one (pairs, N/S and E/W points, the difference or the adjustment) with their matchpoints
    (the board's top is the number of results less one)."""
    rounds = []
    for rnd in state.rounds:
        mps = board_matchpoints(state, rnd) if state.preset.unit == "board" else {}
        boards = []
        for i in range(state.header["hands_per_round"] or 0):
            rows = []
            for table, table_mps in mps.items():
                t = rnd.tables[table]
                a, b, dv = t.result["hands"][i]  # type: ignore[index]
                adj = (t.result.get("adjustments") or [None] * (i + 1))[i]  # type: ignore[union-attr]
                row: dict[str, Any] = {"table": table, "north_south": t.sides[0], "east_west": t.sides[1]}
                row.update({"adjustment": list(adj)} if adj else {"points": [a, b], "difference": a - b})
                row["matchpoints"] = [_number(table_mps[i][0]), _number(table_mps[i][1])]
                rows.append(row)
            boards.append({"board": board_number(state, rnd.number, i), "top": max(len(rows) - 1, 0), "results": rows})
        rounds.append({"round": rnd.number, "closed": rnd.closed, "boards": boards})
    return {"ok": True, "events": state.events_applied, "rounds": rounds}


def rounds_json(state: TournamentState) -> dict[str, Any]:
    """Every round as the TD sees it: its tables with their results (and how often corrected),
    its byes, whether it is closed, the pairing's explanation and overrides."""
    rounds = []
    for rnd in state.rounds:
        tables = []
        scores = table_scores(state, rnd)
        for t in sorted(rnd.tables.values(), key=lambda t: t.number):
            row: dict[str, Any] = {"table": t.number, "sides": t.sides, "status": "result" if t.result else "waiting"}
            if t.result:
                row["result"] = {
                    "game": t.result["game"],
                    "score": list(t.result["score"]),
                    "vp": [_as_int(v) for v in scores[t.number]],
                    "hands": _hand_lines(t.result),
                    "events": list(t.history),
                }
                row["corrections"] = len(t.history) - 1
                row["confirmation"] = t.confirmation
                if t.dispute_reason is not None:
                    row["dispute_reason"] = t.dispute_reason
            tables.append(row)
        rounds.append(
            {
                "round": rnd.number,
                "closed": rnd.closed,
                "tables": tables,
                "byes": rnd.byes,
                "explanation": rnd.explanation,
                "overrides": rnd.overrides,
                "paired_at": rnd.paired_at,
                "clock": rnd.clock.as_json() if rnd.clock else None,
            }
        )
    return {"ok": True, "events": state.events_applied, "rounds": rounds}
