"""Reads for the league table and the player page (queries on RatingChange / PlayerRating)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time, timedelta, timezone as dt_timezone
from html import escape

from django.db.models import Count, F, Q, Sum, Window
from django.db.models.functions import RowNumber

from games.models import Player

from .config import SYSTEM, newcomer_rd, params_for
from .elo import CLUB_ELO
from .models import RatingChange, RatingPool

FORM_LENGTH = 5
TABLES = ("elo", "predictive")  # the league's two tables (docs/ratings.md section 4)


def _bounds(start: date | None, end: date | None) -> tuple[datetime | None, datetime | None]:
    lo = datetime.combine(start, time.min, tzinfo=dt_timezone.utc) if start else None
    hi = datetime.combine(end + timedelta(days=1), time.min, tzinfo=dt_timezone.utc) if end else None
    return lo, hi


def _in_period(qs, start, end):
    lo, hi = _bounds(start, end)
    if lo is not None:
        qs = qs.filter(finished_at__gte=lo)
    if hi is not None:
        qs = qs.filter(finished_at__lt=hi)
    return qs


def is_provisional(variant: str, rd: float, games: int) -> bool:
    p = params_for(variant)
    return games < p.provisional_games or rd > p.provisional_rd_ratio * newcomer_rd(variant)


def result_letter(score: float) -> str:
    return "W" if score > 0.5 else "L" if score < 0.5 else "D"


@dataclass
class LeagueRow:
    rank: int | None
    player_id: int
    player: str
    rating: float
    rd: float  # 0 in the Elo table (it has no uncertainty)
    last_change: float
    change: float  # over the period: the rating at its end minus the rating before its first game
    games: int  # games in the period
    wins: int
    win_rate: float
    tichu_made: int
    tichu_called: int
    grand_made: int
    grand_called: int
    double_victories: int
    form: str  # last five results in the period, oldest first, e.g. "WLWWL"
    provisional: bool
    career_games: int
    last_played: datetime

    @property
    def low(self) -> float:
        """The lower end of the rating's 95% range (rating - 2 RD)."""
        return self.rating - 2 * self.rd

    @property
    def high(self) -> float:
        return self.rating + 2 * self.rd

    def as_dict(self) -> dict:
        d = asdict(self)
        d["last_played"] = self.last_played.isoformat()
        return d


@dataclass
class League:
    club_id: int
    variant: str
    start: date | None
    end: date | None
    rows: list[LeagueRow] = field(default_factory=list)
    system: str = SYSTEM
    recomputed_at: datetime | None = None
    games: int = 0
    table: str = "predictive"


CSV_COLUMNS = ["rank", "player", "rating", "provisional", "rd", "last_change", "change", "games", "wins", "win_rate",
               "tichu_made", "tichu_called", "grand_made", "grand_called", "double_victories", "form",
               "career_games", "last_played", "player_id"]


def league_table(club_id: int, variant: str = "nanking", start: date | None = None,
                 end: date | None = None, table: str = "predictive") -> League:
    """The table for a club and a period: ratings as they stood at the end of the period.
    `table`: "predictive" (the model's rating and deviation) or "elo" (the Elo table)."""
    before, after = ("elo_before", "elo_after") if table == "elo" else ("rating_before", "rating_after")
    qs = _in_period(RatingChange.objects.filter(club_id=club_id, variant=variant), start, end)
    agg = {a["player_id"]: a for a in qs.values("player_id").annotate(
        n=Count("id"), wins=Count("id", filter=Q(score__gt=0.5)),
        tc=Sum("tichu_called"), tm=Sum("tichu_made"), gc=Sum("grand_called"), gm=Sum("grand_made"),
        dv=Sum("double_victories"))}
    recent = (qs.annotate(rn=Window(RowNumber(), partition_by=[F("player_id")],
                                    order_by=[F("ordinal").desc(), F("id").desc()]),
                          rn_first=Window(RowNumber(), partition_by=[F("player_id")],
                                          order_by=[F("ordinal").asc(), F("id").asc()]))
              .filter(Q(rn__lte=FORM_LENGTH) | Q(rn_first=1))
              .values("player_id", "rn", "rn_first", "score", before, after, "rd_after", "games",
                      "finished_at"))
    last: dict[int, dict] = {}
    first: dict[int, float] = {}
    form: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for r in recent:
        if r["rn_first"] == 1:
            first[r["player_id"]] = r[before]
        if r["rn"] > FORM_LENGTH:
            continue
        form[r["player_id"]].append((r["rn"], result_letter(r["score"])))
        if r["rn"] == 1:
            last[r["player_id"]] = r
    names = dict(Player.objects.filter(pk__in=agg.keys()).values_list("id", "name"))
    rows = []
    for pid, a in agg.items():
        lr = last[pid]
        if table == "elo":
            rd, provisional = 0.0, lr["games"] < CLUB_ELO.provisional_games
        else:
            rd, provisional = lr["rd_after"], is_provisional(variant, lr["rd_after"], lr["games"])
        rows.append(LeagueRow(
            rank=None, player_id=pid, player=names.get(pid, str(pid)), rating=lr[after],
            rd=rd, last_change=lr[after] - lr[before], change=lr[after] - first[pid], games=a["n"],
            wins=a["wins"], win_rate=a["wins"] / a["n"], tichu_made=a["tm"] or 0, tichu_called=a["tc"] or 0,
            grand_made=a["gm"] or 0, grand_called=a["gc"] or 0, double_victories=a["dv"] or 0,
            form="".join(letter for _, letter in sorted(form[pid], reverse=True)),
            provisional=provisional, career_games=lr["games"],
            last_played=lr["finished_at"]))
    rows.sort(key=lambda r: (r.provisional, -r.rating, r.player, r.player_id))
    rank = 0
    for r in rows:
        if not r.provisional:
            rank += 1
            r.rank = rank
    pool = RatingPool.objects.filter(club_id=club_id, variant=variant).first()
    return League(club_id, variant, start, end, rows, pool.system if pool else SYSTEM,
                  pool.recomputed_at if pool else None, qs.values("game_id").distinct().count(), table)


# -- player page ----------------------------------------------------------------------------------

@dataclass
class Record:
    player_id: int
    player: str
    games: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def as_dict(self) -> dict:
        return {"player_id": self.player_id, "player": self.player, "games": self.games, "wins": self.wins,
                "win_rate": self.win_rate}


def player_page(player: Player, variant: str = "nanking", top: int = 5) -> dict:
    mine = list(RatingChange.objects.filter(player=player, variant=variant).order_by("ordinal", "id")
                .values("game_id", "finished_at", "side", "rating_before", "rating_after", "rd_after",
                        "expected", "score", "games", "points_for", "points_against"))
    game_ids = RatingChange.objects.filter(player=player, variant=variant).values("game_id")  # a subquery
    others = defaultdict(list)
    for o in (RatingChange.objects.filter(game_id__in=game_ids).exclude(player=player)
              .values("game_id", "player_id", "side", "rating_before")):
        others[o["game_id"]].append(o)
    ids = {o["player_id"] for lst in others.values() for o in lst}
    names = dict(Player.objects.filter(pk__in=ids).values_list("id", "name"))
    partners: dict[int, Record] = {}
    opponents: dict[int, Record] = {}
    games = []
    for m in mine:
        won = m["score"] > 0.5
        part = [o for o in others[m["game_id"]] if o["side"] == m["side"]]
        opp = [o for o in others[m["game_id"]] if o["side"] != m["side"]]
        for o, book in [(o, partners) for o in part] + [(o, opponents) for o in opp]:
            rec = book.setdefault(o["player_id"], Record(o["player_id"], names.get(o["player_id"], "?")))
            rec.games += 1
            rec.wins += won
        games.append({
            "game_id": m["game_id"], "finished_at": m["finished_at"].isoformat(),
            "result": result_letter(m["score"]), "expected": m["expected"],
            "rating_before": m["rating_before"], "rating_after": m["rating_after"],
            "change": m["rating_after"] - m["rating_before"],
            "points_for": m["points_for"], "points_against": m["points_against"],
            "partners": [names.get(o["player_id"], "?") for o in part],
            "opponents": [names.get(o["player_id"], "?") for o in opp],
            "opponent_rating": (sum(o["rating_before"] for o in opp) / len(opp)) if opp else None,
        })
    # best wins: the least expected wins; worst losses: the most expected losses
    best = sorted((g for g in games if g["result"] == "W"), key=lambda g: (g["expected"], g["game_id"]))[:top]
    worst = sorted((g for g in games if g["result"] == "L"), key=lambda g: (-g["expected"], g["game_id"]))[:top]
    current = mine[-1] if mine else None
    peak = max(mine, key=lambda m: (m["rating_after"], -m["game_id"])) if mine else None
    return {
        "player_id": player.pk, "player": player.name, "club_id": player.club_id, "variant": variant,
        "rating": current["rating_after"] if current else None,
        "rd": current["rd_after"] if current else None,
        "games": len(mine), "wins": sum(1 for g in games if g["result"] == "W"),
        "provisional": is_provisional(variant, current["rd_after"], current["games"]) if current else True,
        "peak": {"rating": peak["rating_after"], "game_id": peak["game_id"],
                 "finished_at": peak["finished_at"].isoformat()} if peak else None,
        "history": games,
        "best_wins": best, "worst_losses": worst,
        "partners": [r.as_dict() for r in sorted(partners.values(), key=lambda r: (-r.games, r.player))],
        "head_to_head": [r.as_dict() for r in sorted(opponents.values(), key=lambda r: (-r.games, r.player))],
    }


def daily_points(history: list[dict]) -> list[tuple[str, float]]:
    """One point per day: the last rating of that day (lichess style)."""
    by_day: dict[str, float] = {}
    for g in history:
        by_day[g["finished_at"][:10]] = g["rating_after"]
    return sorted(by_day.items())


def rating_chart_svg(points: list[tuple[str, float]], width: int = 640, height: int = 220,
                     title: str = "Rating history") -> str:
    """A server-rendered SVG line chart of (day, rating) points."""
    pad_l, pad_r, pad_t, pad_b = 52, 12, 14, 28
    w, h = width - pad_l - pad_r, height - pad_t - pad_b
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" role="img" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}">'
            f'<title>{escape(title)}</title>')
    if not points:
        return head + (f'<text x="{width / 2}" y="{height / 2}" text-anchor="middle">No rated games yet'
                       '</text></svg>')
    vals = [v for _, v in points]
    lo, hi = min(vals), max(vals)
    if hi - lo < 20:
        mid = (hi + lo) / 2
        lo, hi = mid - 10, mid + 10
    n = len(points)

    def xy(i: int, v: float) -> tuple[float, float]:
        x = pad_l + (w * i / (n - 1) if n > 1 else w / 2)
        y = pad_t + h * (hi - v) / (hi - lo)
        return round(x, 1), round(y, 1)

    coords = [xy(i, v) for i, (_, v) in enumerate(points)]
    parts = [head,
             f'<line x1="{pad_l}" y1="{pad_t}" x2="{pad_l}" y2="{pad_t + h}" stroke="#888"/>',
             f'<line x1="{pad_l}" y1="{pad_t + h}" x2="{pad_l + w}" y2="{pad_t + h}" stroke="#888"/>',
             f'<text x="{pad_l - 6}" y="{pad_t + 4}" text-anchor="end" font-size="11">{hi:.0f}</text>',
             f'<text x="{pad_l - 6}" y="{pad_t + h}" text-anchor="end" font-size="11">{lo:.0f}</text>',
             f'<text x="{pad_l}" y="{height - 8}" font-size="11">{escape(points[0][0])}</text>',
             f'<text x="{pad_l + w}" y="{height - 8}" text-anchor="end" font-size="11">'
             f'{escape(points[-1][0])}</text>']
    if lo < 1500 < hi:
        y = xy(0, 1500)[1]
        parts.append(f'<line x1="{pad_l}" y1="{y}" x2="{pad_l + w}" y2="{y}" stroke="#ccc" '
                     'stroke-dasharray="4 3"/>')
    parts.append('<polyline fill="none" stroke="#1f5fa8" stroke-width="2" points="'
                 + " ".join(f"{x},{y}" for x, y in coords) + '"/>')
    for (day, v), (x, y) in zip(points, coords):
        parts.append(f'<circle cx="{x}" cy="{y}" r="2.5" fill="#1f5fa8"><title>{escape(day)}: {v:.0f}'
                     '</title></circle>')
    parts.append("</svg>")
    return "".join(parts)
