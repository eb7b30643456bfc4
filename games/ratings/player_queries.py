"""Reads for the player page (queries on RatingChange); the computations are the pure modules'
(player_history, partnerships, performance, rank_history, standing, charts)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.db.models import Sum

from games.models import Club, Player
from games.tournaments.models import TableGame

from . import charts
from .evening import evening_of
from .league_cache import cached, cached_each
from .league_rules import rules_of
from .models import RatingChange
from .partnerships import Played, relations
from .player_history import Entry, evenings, period_change, tournaments
from .queries import result_letter
from .rank_history import Row, rank_history
from .standing import ClubCalendar, RankRule, status
from .systems import PREDICTIVE, SYSTEMS

MINE = (
    "game_id",
    "finished_at",
    "side",
    "rating_before",
    "rating_after",
    "rd_after",
    "expected",
    "score",
    "games",
    "points_for",
    "points_against",
    "elo_before",
    "elo_after",
)


def rank_rule(club: Club) -> RankRule:
    rules = rules_of(club)
    return RankRule(min_games=rules.min_games, inactive_days=rules.inactive_days)


def player_entries(
    player: Player, variant: str, games: list[int] | None = None
) -> tuple[list[Entry], dict[int, list[dict]], dict[int, str]]:
    """The player's rated games (all, or those of the ids `games`) as Entries (oldest first), the
    other players of each game ({game: [{player_id, side, elo_before, expected, score}]}) and
    their names."""
    own = RatingChange.objects.filter(player=player, variant=variant)
    if games is not None:
        own = own.filter(game_id__in=list(games))
    mine = list(own.order_by("ordinal", "id").values(*MINE))
    game_ids: object = [m["game_id"] for m in mine] if games is not None else own.values("game_id")  # a subquery
    others: dict[int, list[dict]] = defaultdict(list)
    for o in (
        RatingChange.objects.filter(game_id__in=game_ids)
        .exclude(player=player)
        .order_by("game_id", "side", "player_id")
        .values("game_id", "player_id", "side", "elo_before", "rating_before", "expected", "score")
    ):
        others[o["game_id"]].append(o)
    ids = {o["player_id"] for lst in others.values() for o in lst}
    names = dict(Player.objects.filter(pk__in=ids).values_list("id", "name"))
    tourn = {
        tg.game_id: (tg.tournament_id, tg.tournament.name)
        for tg in TableGame.objects.filter(game_id__in=game_ids).select_related("tournament")
    }
    tz = player.club.time_zone
    entries = []
    for m in mine:
        gid = m["game_id"]
        n_sides = 1 + max((o["side"] for o in others[gid]), default=0)
        n_sides = max(n_sides, m["side"] + 1)
        sides: list[list[float]] = [[] for _ in range(n_sides)]
        sides[m["side"]].append(m["elo_before"])
        for o in others[gid]:
            sides[o["side"]].append(o["elo_before"])
        entries.append(
            Entry(
                game_id=gid,
                played_at=m["finished_at"],
                day=evening_of(m["finished_at"], tz),
                side=m["side"],
                player_index=0,
                sides_elo=tuple(tuple(s) for s in sides),
                score=m["score"],
                expected=m["expected"],
                rating_before=m["rating_before"],
                rating_after=m["rating_after"],
                rd_after=m["rd_after"],
                elo_before=m["elo_before"],
                elo_after=m["elo_after"],
                points_for=m["points_for"],
                points_against=m["points_against"],
                partners=tuple(names.get(o["player_id"], "?") for o in others[gid] if o["side"] == m["side"]),
                opponents=tuple(names.get(o["player_id"], "?") for o in others[gid] if o["side"] != m["side"]),
                tournament=tourn.get(gid),
            )
        )
    return entries, others, names


def _played(player_id: int, entries: list[Entry], others: dict[int, list[dict]]) -> list[Played]:
    out = []
    for e in entries:
        n = len(e.sides_elo)
        sides: list[list[int]] = [[] for _ in range(n)]
        expected = [0.0] * n
        scores = [0.0] * n
        sides[e.side].append(player_id)
        expected[e.side], scores[e.side] = e.expected, e.score
        for o in others[e.game_id]:
            sides[o["side"]].append(o["player_id"])
            expected[o["side"]], scores[o["side"]] = o["expected"], o["score"]
        out.append(Played(e.game_id, tuple(tuple(s) for s in sides), tuple(expected), tuple(scores)))
    return out


def _relation_rows(book: dict, names: dict[int, str]) -> list[dict]:
    rows = [
        {"player_id": p, "player": names.get(p, "?"), **t.as_dict(), "win_rate": t.wins / t.games if t.games else 0.0}
        for p, t in book.items()
    ]
    return sorted(rows, key=lambda r: (-r["games"], r["player"]))


def rank_key(club: Club, table: str, rule: RankRule) -> tuple:
    """What a cached rank history depends on besides the pool's version: the table, its ranking
    figure's name (ranks cached under another order are not read), the club's rule and time zone."""
    return (table, SYSTEMS[table].ranks_by.__name__, rule.min_games, rule.inactive_days, club.time_zone)


def club_rank_history(club: Club, variant: str, player_id: int, table: str) -> list[dict]:
    """The player's rank after each club evening, in the given table (elo or predictive). The
    whole pool's replay, for every player at once, computed once per version of the pool's ratings,
    of the club's rule and of its time zone (league_cache)."""
    rule = rank_rule(club)
    return cached_each(
        "ranks",
        club.pk,
        variant,
        rank_key(club, table, rule),
        player_id,
        lambda: compute_rank_histories(club.pk, variant, table, rule, tz=club.time_zone),
        [],
    )


def compute_rank_histories(
    club_id: int, variant: str, table: str, rule: RankRule, players: list[int] | None = None, tz: str = "UTC"
) -> dict[int, list[dict]]:
    """Each player's (all, or only `players`) rank after each club evening (in the club's time
    zone `tz`), replayed from the pool."""
    system = SYSTEMS[table]
    ranks_by = system.ranks_by  # the table's own order (the predictive one: rating - 2 RD)
    rows = (
        Row(p, evening_of(at, tz), ranks_by(r, rd if system.has_deviation else 0.0), g)
        for p, at, r, rd, g in RatingChange.objects.filter(club_id=club_id, variant=variant)
        .order_by("ordinal", "id")
        .values_list("player_id", "finished_at", system.after, "rd_after", "games")
        .iterator(chunk_size=5000)
    )
    return {
        p: [{"day": d.day.isoformat(), "rank": d.rank, "ranked": d.ranked, "played": d.played} for d in days]
        for p, days in rank_history(rows, rule, players=players).items()
    }


def history_row(e: Entry, others: dict[int, list[dict]], render_why=None) -> dict:
    """One game of the player's history as the page, the API and the downloads show it."""
    opp = [o for o in others[e.game_id] if o["side"] != e.side]
    return {
        "game_id": e.game_id,
        "finished_at": e.played_at.isoformat(),
        "evening": e.day.isoformat(),
        "result": result_letter(e.score),
        "expected": e.expected,
        "rating_before": e.rating_before,
        "rating_after": e.rating_after,
        "rd_after": e.rd_after,
        "change": e.change,
        "elo_before": e.elo_before,
        "elo_after": e.elo_after,
        "elo_change": e.elo_change,
        "elo_expected": e.elo_expected,
        "points_for": e.points_for,
        "points_against": e.points_against,
        "partners": list(e.partners),
        "opponents": list(e.opponents),
        "opponent_rating": (sum(o["rating_before"] for o in opp) / len(opp)) if opp else None,
        "tournament": e.tournament[1] if e.tournament else None,
        "why": render_why(e.why_sentence) if render_why else e.why,
    }


def player_page(
    player: Player,
    variant: str = "nanking",
    start: date | None = None,
    end: date | None = None,
    top: int = 5,
    render_why=None,
) -> dict:
    """The player page's figures. `render_why(sentence)` renders each game's why line (the website:
    in the reader's language); without it, English (the JSON and CSV downloads)."""
    club = player.club
    entries, others, names = player_entries(player, variant)
    partners, opponents = relations(_played(player.pk, entries, others), player.pk)
    history = [history_row(e, others, render_why) for e in entries]
    best = sorted((g for g in history if g["result"] == "W"), key=lambda g: (g["expected"], g["game_id"]))[:top]
    worst = sorted((g for g in history if g["result"] == "L"), key=lambda g: (-g["expected"], g["game_id"]))[:top]
    last = entries[-1] if entries else None
    peak = max(history, key=lambda g: (g["rating_after"], -g["game_id"])) if history else None
    rule = rank_rule(club)
    st = None
    if last is not None:
        club_last, breaks = cached(
            "calendar",
            club.pk,
            variant,
            (rule.inactive_days, club.time_zone),
            lambda: compute_club_calendar(club.pk, variant, rule, club.time_zone),
        )
        st = status(len(entries), last.day, club_last, rule, ClubCalendar.from_breaks(rule, breaks))
    change = period_change(entries, start, end)
    leads = rules_of(club).leads_with
    return {
        "player_id": player.pk,
        "player": player.name,
        "club_id": player.club_id,
        "variant": variant,
        "rating": last.rating_after if last else None,
        "rd": last.rd_after if last else None,
        "elo": last.elo_after if last else None,
        "low": last.rating_after - 2 * last.rd_after if last else None,
        "high": last.rating_after + 2 * last.rd_after if last else None,
        "games": len(entries),
        "wins": sum(1 for e in entries if e.score > 0.5),
        "provisional": PREDICTIVE.provisional(variant, last.rd_after, len(entries)) if last else True,
        "ranked": st.ranked if st else False,
        "games_to_rank": st.games_to_rank if st else rule.min_games,
        "inactive": st.inactive if st else False,
        "standing_note": st.note if st else "",
        "period": {
            "from": start.isoformat() if start else None,
            "to": end.isoformat() if end else None,
            "games": change.games,
            "elo_change": change.elo,
            "change": change.predictive,
        },
        "peak": {
            "rating": peak["rating_after"],
            "game_id": peak["game_id"],
            "finished_at": peak["finished_at"],
            "evening": peak["evening"],
        }
        if peak
        else None,
        "history": history,
        "best_wins": best,
        "worst_losses": worst,
        "partners": _relation_rows(partners, names),
        "head_to_head": _relation_rows(opponents, names),
        "evenings": [g.as_dict() for g in evenings(entries)],
        "tournaments": tournament_groups(player, entries),
        "rank_table": leads,
        "rank_history": club_rank_history(club, variant, player.pk, leads) if entries else [],
    }


def compute_club_calendar(club_id: int, variant: str, rule: RankRule, tz: str) -> tuple[date | None, list]:
    """The pool's last evening and its calendar's breaks (ClubCalendar.breaks; none without an
    inactivity rule): read from every RatingChange of the pool, so kept under its version."""
    pool_changes = RatingChange.objects.filter(club_id=club_id, variant=variant)
    club_last = pool_changes.order_by("-ordinal").values_list("finished_at", flat=True).first()
    days = (
        {evening_of(t, tz) for t in pool_changes.order_by().values_list("finished_at", flat=True).distinct()}
        if rule.inactive_days
        else ()
    )
    return (evening_of(club_last, tz) if club_last else None), ClubCalendar(rule, days).breaks()


def tournament_groups(player: Player, entries: list[Entry]) -> list[dict]:
    """The player's tournaments with the performance the tournament's standings show (its
    entry's, against the Elo ratings before the event: games.tournaments.performance), so that
    the two pages agree; the figure from the player's own games is kept as `games_performance`."""
    return tournament_overlay(player, [g.as_dict() for g in tournaments(entries)])


def tournament_overlay(player: Player, groups: list[dict]) -> list[dict]:
    """The tournament groups (player_history.Group.as_dict) with each tournament's name now and
    its standings' performance of the player's entry (tournament_groups)."""
    from games.tournament import TournamentError
    from games.tournaments import selectors as t_selectors
    from games.tournaments.models import Tournament
    from games.tournaments.performance import performances

    out = []
    found = {t.pk: t for t in Tournament.objects.filter(pk__in=[g["key"] for g in groups])}
    for g in groups:
        row = dict(g)
        row["games_performance"], row["entry"] = row["performance"], None
        t = found.get(g["key"])
        if t is not None:
            row["label"] = t.name
        try:
            state = t_selectors.state_at(t) if t is not None else None
        except TournamentError:  # a stream that does not fold (none stored so): the games' own figure
            state = None
        if state is not None:
            perf = performances(t, state)
            entry = next((e for e, en in state.entries.items() if player.pk in en.players), None)
            if entry is not None and perf.get(entry):
                # the standings' figure, also when they show none yet (fewer than MIN_TABLES
                # tables: games.tournament.performance), so that the two pages agree
                row["performance"], row["entry"] = perf[entry].get("performance"), entry
                row["bound"] = perf[entry].get("bound", "")
        out.append(row)
    return out


def chart_points(page: dict) -> list[charts.GamePoint]:
    from datetime import datetime

    return [
        charts.GamePoint(
            datetime.fromisoformat(g["finished_at"]),
            g["elo_after"],
            g["rating_after"],
            g["rd_after"],
            f"{g['evening']} #{g['game_id']}: {g['why']}",
        )
        for g in page["history"]
    ]


def rating_lines(player_ids, game_ids) -> dict[int, dict]:
    """A player's own line of each of these rated games ({game: figures}), for the player's home
    (replay/accounts/me.py): the Elo change and the calls of that game. `player_ids`: the reader's
    roster players (one per club); a game has at most one of them."""
    rows = RatingChange.objects.filter(player_id__in=list(player_ids), game_id__in=list(game_ids)).values(
        "game_id", "elo_before", "elo_after", "tichu_called", "tichu_made", "grand_called", "grand_made"
    )
    return {r["game_id"]: {**r, "elo_change": r["elo_after"] - r["elo_before"]} for r in rows}


def call_rates(player_ids, games=None) -> dict:
    """How often the players' Tichu and Grand Tichu calls were made, over their rated games (or
    the subset `games`, a queryset or list of game ids): called, made and the rate (None when
    never called)."""
    rows = RatingChange.objects.filter(player_id__in=list(player_ids))
    if games is not None:
        rows = rows.filter(game_id__in=games)
    sums = rows.aggregate(tc=Sum("tichu_called"), tm=Sum("tichu_made"), gc=Sum("grand_called"), gm=Sum("grand_made"))

    def rate(called, made) -> dict:
        called, made = called or 0, made or 0
        return {"called": called, "made": made, "rate": made / called if called else None}

    return {"tichu": rate(sums["tc"], sums["tm"]), "grand_tichu": rate(sums["gc"], sums["gm"])}
