"""Reads for the league table and the player page (queries on RatingChange / PlayerRating)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta

from django.db.models import Count, F, Q, Sum, Window
from django.db.models.functions import RowNumber

from games.models import Player

from .config import SYSTEM
from .evening import evening_of, evening_start
from .models import RatingChange, RatingPool
from .standing import ClubCalendar, RankRule, order_key, status
from .systems import SYSTEMS

FORM_LENGTH = 5
TABLES = tuple(SYSTEMS)  # the league's tables (games.ratings.systems; docs/ratings.md section 4)


def _bounds(start: date | None, end: date | None, tz: str) -> tuple[datetime | None, datetime | None]:
    """The instants of the evenings start..end (both included) in the club's time zone: from 06:00
    local on `start` to 06:00 local the morning after `end` (games.ratings.evening)."""
    lo = evening_start(start, tz) if start else None
    hi = evening_start(end + timedelta(days=1), tz) if end else None
    return lo, hi


def _in_period(qs, start, end, tz: str):
    lo, hi = _bounds(start, end, tz)
    if lo is not None:
        qs = qs.filter(finished_at__gte=lo)
    if hi is not None:
        qs = qs.filter(finished_at__lt=hi)
    return qs


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
    games_to_rank: int = 0  # games still needed for the club's minimum (standing.RankRule)
    inactive: bool = False  # last game longer ago than the club's inactivity rule allows
    note: str = ""  # what the table says of an unranked player ("3 more games until ranked")

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
    rule: RankRule = field(default_factory=RankRule)
    reference: date | None = None  # the day inactivity counts from: the latest game in the period


CSV_COLUMNS = [
    "rank",
    "player",
    "rating",
    "provisional",
    "rd",
    "last_change",
    "change",
    "games",
    "wins",
    "win_rate",
    "tichu_made",
    "tichu_called",
    "grand_made",
    "grand_called",
    "double_victories",
    "form",
    "career_games",
    "last_played",
    "games_to_rank",
    "inactive",
    "player_id",
]


def league_table(
    club_id: int,
    variant: str = "nanking",
    start: date | None = None,
    end: date | None = None,
    table: str = "predictive",
    rule: RankRule | None = None,
    tz: str = "UTC",
) -> League:
    """The table for a club and a period of evenings: ratings as they stood at the end of the
    period. `table`: "predictive" (the model's rating and deviation) or "elo" (the Elo table);
    `rule`: the club's minimum games and inactivity rule for the ranked part (standing.py); `tz`:
    the club's time zone, in which its evenings are counted (the period, inactivity)."""
    from .league_cache import cached

    rule = rule or RankRule()
    rated = SYSTEMS[table]
    before, after = rated.before, rated.after
    # the period's figures: a replay of the pool's rows, kept under the pool's version (league_cache)
    figures = cached(
        "table",
        club_id,
        variant,
        (table, start, end, tz, rule.inactive_days),
        lambda: compute_table_figures(club_id, variant, start, end, table, tz, rule.inactive_days),
    )
    agg, last, first, form = figures["agg"], figures["last"], figures["first"], figures["form"]
    names = dict(Player.objects.filter(pk__in=agg.keys()).values_list("id", "name"))
    rows = []
    for pid, a in agg.items():
        lr = last[pid]
        rd = lr["rd_after"] if rated.has_deviation else 0.0
        provisional = rated.provisional(variant, rd, lr["games"])
        rows.append(
            LeagueRow(
                rank=None,
                player_id=pid,
                player=names.get(pid, str(pid)),
                rating=lr[after],
                rd=rd,
                last_change=lr[after] - lr[before],
                change=lr[after] - first[pid],
                games=a["n"],
                wins=a["wins"],
                win_rate=a["wins"] / a["n"],
                tichu_made=a["tm"] or 0,
                tichu_called=a["tc"] or 0,
                grand_made=a["gm"] or 0,
                grand_called=a["gc"] or 0,
                double_victories=a["dv"] or 0,
                form="".join(letter for _, letter in sorted(form.get(pid, ()), reverse=True)),
                provisional=provisional,
                career_games=lr["games"],
                last_played=lr["finished_at"],
            )
        )
    reference = max((r.last_played for r in rows), default=None)
    ref_day = evening_of(reference, tz) if reference else None
    # the club's evenings in the period: a break longer than the rule's window is no one's absence
    calendar = ClubCalendar.from_breaks(rule, figures["calendar"])
    keyed = []
    for r in rows:
        st = status(r.career_games, evening_of(r.last_played, tz), ref_day, rule, calendar)
        r.games_to_rank, r.inactive, r.note = st.games_to_rank, st.inactive, st.note
        keyed.append((order_key(rated.ranks_by(r.rating, r.rd), r.player, r.player_id, st), r, st))
    keyed.sort(key=lambda k: k[0])
    rows = []
    rank = 0
    for _, r, st in keyed:
        if st.ranked:
            rank += 1
            r.rank = rank
        rows.append(r)
    pool = RatingPool.objects.filter(club_id=club_id, variant=variant).first()
    return League(
        club_id,
        variant,
        start,
        end,
        rows,
        pool.system if pool else SYSTEM,
        pool.recomputed_at if pool else None,
        figures["games"],
        table,
        rule,
        ref_day,
    )


def compute_table_figures(
    club_id: int, variant: str, start: date | None, end: date | None, table: str, tz: str, inactive_days: int
) -> dict:
    """What league_table reads from the pool's RatingChange rows of the period (every row: a cost
    that grows with the club's history, hence kept under the pool's version): per player the
    counts and sums, the last row, the rating before the first game and the last results; the
    club's calendar of the period as its breaks (when the rule counts absences: `inactive_days`,
    ClubCalendar.breaks) and the games of the period. Names are not in it: they are read on every
    view."""
    rated = SYSTEMS[table]
    before, after = rated.before, rated.after
    qs = _in_period(RatingChange.objects.filter(club_id=club_id, variant=variant), start, end, tz)
    agg = {
        a["player_id"]: a
        for a in qs.values("player_id").annotate(
            n=Count("id"),
            wins=Count("id", filter=Q(score__gt=0.5)),
            tc=Sum("tichu_called"),
            tm=Sum("tichu_made"),
            gc=Sum("grand_called"),
            gm=Sum("grand_made"),
            dv=Sum("double_victories"),
        )
    }
    recent = (
        qs.annotate(
            rn=Window(RowNumber(), partition_by=[F("player_id")], order_by=[F("ordinal").desc(), F("id").desc()]),
            rn_first=Window(RowNumber(), partition_by=[F("player_id")], order_by=[F("ordinal").asc(), F("id").asc()]),
        )
        .filter(Q(rn__lte=FORM_LENGTH) | Q(rn_first=1))
        .values("player_id", "rn", "rn_first", "score", before, after, "rd_after", "games", "finished_at")
    )
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
    evenings = (
        {evening_of(t, tz) for t in qs.order_by().values_list("finished_at", flat=True).distinct()}
        if inactive_days
        else ()
    )
    return {
        "agg": agg,
        "last": last,
        "first": first,
        "form": dict(form),
        "calendar": ClubCalendar(RankRule(inactive_days=inactive_days), evenings).breaks(),
        "games": qs.values("game_id").distinct().count(),
    }


# -- partnerships --------------------------------------------------------------------------------


def league_partnerships(
    club_id: int,
    variant: str = "nanking",
    start: date | None = None,
    end: date | None = None,
    min_games: int = 2,
    limit: int | None = None,
    tz: str = "UTC",
) -> list[dict]:
    """The pairs who shared a side in the period (partnerships.py): games, wins, expected
    against actual, and the pair's performance rating on the Elo table's scale. A replay of the
    period's games: computed once per version of the pool's ratings (league_cache)."""
    from .league_cache import cached

    pairs = cached(
        "pairs",
        club_id,
        variant,
        (start, end, min_games, limit, tz),
        lambda: compute_partnerships(club_id, variant, start, end, min_games, limit, tz),
    )
    names = dict(Player.objects.filter(pk__in={p for pr in pairs for p in pr["players"]}).values_list("id", "name"))
    return [{**pr, "names": [names.get(p, "?") for p in pr["players"]]} for pr in pairs]


def compute_partnerships(
    club_id: int, variant: str, start: date | None, end: date | None, min_games: int, limit: int | None, tz: str = "UTC"
) -> list[dict]:
    """league_partnerships' figures (without the names) replayed from the pool's RatingChanges."""
    from .partnerships import Played, partnerships

    qs = _in_period(RatingChange.objects.filter(club_id=club_id, variant=variant), start, end, tz)
    by_game: dict[int, list[dict]] = defaultdict(list)
    for r in qs.order_by("ordinal", "side", "player_id").values(
        "game_id", "player_id", "side", "expected", "score", "elo_before"
    ):
        by_game[r["game_id"]].append(r)
    played = []
    for gid, rs in by_game.items():
        n = 1 + max(r["side"] for r in rs)
        sides: list[list[int]] = [[] for _ in range(n)]
        expected, scores = [0.0] * n, [0.0] * n
        for r in rs:
            sides[r["side"]].append(r["player_id"])
            expected[r["side"]], scores[r["side"]] = r["expected"], r["score"]
        played.append(
            Played(
                gid,
                tuple(tuple(s) for s in sides),
                tuple(expected),
                tuple(scores),
                {r["player_id"]: r["elo_before"] for r in rs},
            )
        )
    return [pr.as_dict() for pr in partnerships(played, min_games=min_games, limit=limit)]
