"""The player page as a person reads it, bounded whatever the player's history (issue #35 item 4).

A regular's page used to show everything the player ever played: a chart point and a why line
per game, every evening, every game in the list, all computed from every game on every view (31x
the 1,000-game page for a player in 44,920 games). Now a view reads a bounded amount:

* the figures from the whole history (totals, peak, best wins and worst losses, partners and
  opponents, the latest evenings, the tournaments, which games the chart draws) are computed once
  per version of the pool's ratings and player (`summary`, league_cache: a cache, never a second
  truth: any rating change of the pool is a new version, so a recompute or a correction rebuilds
  it). Names are not kept: they are read per view (a renamed player shows at once), and so is
  each tournament's standing figure (the tournament's own state, not the pool's);
* the chart draws at most CHART_POINTS games (thinning.thin on the predictive rating: each
  stretch's highest, lowest and last game), the rank chart at most RANK_POINTS days; only the
  drawn games get their why line;
* the game list shows LIST_GAMES games, newest first, paged by the games' place in the pool's
  replay (`?before=<ordinal>` / `?after=<ordinal>`: keyset paging on the index (player, variant,
  ordinal), so an old page costs what the newest does).

The JSON and CSV downloads (player_queries.player_page) stay whole: a download is not a page a
person waits on. A view's cost after a rating change (the first, which fills the cache) still
follows the player's games.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from games.models import Player

from . import charts, player_queries
from .evening import evening_start
from .league_cache import cached, cached_each
from .league_rules import rules_of
from .models import RatingChange
from .partnerships import relations
from .player_history import evenings, tournaments
from .player_queries import (
    _played,
    compute_club_calendar,
    history_row,
    player_entries,
    rank_rule,
    tournament_overlay,
)
from .queries import result_letter
from .standing import ClubCalendar, status
from .systems import PREDICTIVE
from .thinning import thin

LIST_GAMES = 50  # games in the page's list (and the API's default answer)
MAX_LIST_GAMES = 500  # the most the API gives at once (?limit=)
CHART_POINTS = 240  # games the rating chart draws at most
RANK_POINTS = 240  # days the rank chart draws at most
EVENINGS_SHOWN = 12
RANK_DAYS_SHOWN = 12  # the latest evenings the player played, in the rank table
RANK_DAYS_API = 100  # the latest days of the rank history in the API's default answer
TOP = 5  # best wins, worst losses


@dataclass(frozen=True)
class GameList:
    """One page of the player's games, newest first, and the cursors to the pages beside it."""

    rows: list[dict]
    older: int | None  # ?before= for the next older page (None: this is the oldest)
    newer: int | None  # ?after= for the next newer page (None: this is the newest)


def _short(e, others) -> dict:
    """A best win or worst loss as the page lists it; the other players by id (named per view)."""
    mine = others[e.game_id]
    return {
        "game_id": e.game_id,
        "evening": e.day.isoformat(),
        "result": result_letter(e.score),
        "expected": e.expected,
        "change": e.change,
        "partner_ids": [o["player_id"] for o in mine if o["side"] == e.side],
        "opponent_ids": [o["player_id"] for o in mine if o["side"] != e.side],
    }


def compute_summary(player: Player, variant: str) -> dict:
    """What the page shows from the player's whole history, without names (module docstring).
    Reads every rated game of the player: kept under the pool's version."""
    entries, others, _names = player_entries(player, variant)
    if not entries:
        return {"games": 0}
    partners, opponents = relations(_played(player.pk, entries, others), player.pk)
    wins = [e for e in entries if e.score > 0.5]
    losses = [e for e in entries if e.score < 0.5]
    peak = max(entries, key=lambda e: (e.rating_after, -e.game_id))
    first, last = entries[0], entries[-1]
    drawn = thin([e.rating_after for e in entries], CHART_POINTS)
    return {
        "games": len(entries),
        "wins": len(wins),
        "last": {
            "rating": last.rating_after,
            "rd": last.rd_after,
            "elo": last.elo_after,
            "day": last.day,
        },
        "first": {"rating_before": first.rating_before, "elo_before": first.elo_before},
        "peak": {
            "rating": peak.rating_after,
            "game_id": peak.game_id,
            "finished_at": peak.played_at.isoformat(),
            "evening": peak.day.isoformat(),
        },
        "best_wins": [_short(e, others) for e in sorted(wins, key=lambda e: (e.expected, e.game_id))[:TOP]],
        "worst_losses": [_short(e, others) for e in sorted(losses, key=lambda e: (-e.expected, e.game_id))[:TOP]],
        "partners": [{"player_id": p, **t.as_dict()} for p, t in partners.items()],
        "head_to_head": [{"player_id": p, **t.as_dict()} for p, t in opponents.items()],
        "evenings": [g.as_dict() for g in evenings(entries)[-EVENINGS_SHOWN:]],
        "evening_count": len({e.day for e in entries}),
        "tournaments": [g.as_dict() for g in tournaments(entries)],
        "chart_games": [entries[i].game_id for i in drawn],
    }


def summary(player: Player, variant: str) -> dict:
    """compute_summary for this version of the pool's ratings (league_cache)."""
    return cached("player", player.club_id, variant, (player.pk,), lambda: compute_summary(player, variant))


def _rank_page(days: list[dict]) -> dict:
    """A player's rank history as the page and the API's default answer read it: the days the
    chart draws, the latest played days, the latest days, the last day."""
    drawn = thin([d["rank"] for d in days], RANK_POINTS)
    return {
        "chart": [days[i] for i in drawn],
        "played": [d for d in reversed(days) if d["played"]][:RANK_DAYS_SHOWN],
        "tail": days[-RANK_DAYS_API:],
        "days": len(days),
    }


def rank_page(player: Player, variant: str, table: str) -> dict:
    """_rank_page of the player's rank history in `table`: one replay of the pool per version
    gives every player's, each kept under a key of its own (as player_queries.club_rank_history)."""
    club = player.club
    rule = rank_rule(club)
    return cached_each(
        "rankpage",
        club.pk,
        variant,
        player_queries.rank_key(club, table, rule),
        player.pk,
        lambda: {
            p: _rank_page(days)
            for p, days in player_queries.compute_rank_histories(
                club.pk, variant, table, rule, tz=club.time_zone
            ).items()
        },
        _rank_page([]),
    )


def period_change(player: Player, variant: str, start: date | None, end: date | None, whole: dict) -> dict:
    """Both tables' change over the player's games of evenings start..end (None: open), as
    player_history.period_change, from the database: the count, the first and the last game
    of the period by the index (player, variant, ordinal). The whole history: from the summary."""
    if start is None and end is None:
        if not whole["games"]:
            return {"from": None, "to": None, "games": 0, "elo_change": 0.0, "change": 0.0}
        return {
            "from": None,
            "to": None,
            "games": whole["games"],
            "elo_change": whole["last"]["elo"] - whole["first"]["elo_before"],
            "change": whole["last"]["rating"] - whole["first"]["rating_before"],
        }
    tz = player.club.time_zone
    rows = RatingChange.objects.filter(player=player, variant=variant)
    if start is not None:
        rows = rows.filter(finished_at__gte=evening_start(start, tz))
    if end is not None:
        rows = rows.filter(finished_at__lt=evening_start(end + timedelta(days=1), tz))
    fields = ("elo_before", "rating_before", "elo_after", "rating_after")
    first = rows.order_by("ordinal", "id").values(*fields).first()
    last = rows.order_by("-ordinal", "-id").values(*fields).first()
    games = rows.count() if first else 0
    return {
        "from": start.isoformat() if start else None,
        "to": end.isoformat() if end else None,
        "games": games,
        "elo_change": last["elo_after"] - first["elo_before"] if first and last else 0.0,
        "change": last["rating_after"] - first["rating_before"] if first and last else 0.0,
    }


def game_list(
    player: Player, variant: str, before: int | None = None, after: int | None = None, limit: int = LIST_GAMES
) -> tuple[list[int], int | None, int | None]:
    """The game ids of one page of the player's games (newest first) and the cursors beside it:
    the `limit` games before the ordinal `before` (the newest without it), or the `limit` games
    after `after`."""
    own = RatingChange.objects.filter(player=player, variant=variant)
    if after is not None:
        rows = list(own.filter(ordinal__gt=after).order_by("ordinal").values_list("ordinal", "game_id")[: limit + 1])
        more_newer = len(rows) > limit
        rows = rows[:limit][::-1]
        more_older = own.filter(ordinal__lte=after).exists()
    else:
        page = own.filter(ordinal__lt=before) if before is not None else own
        rows = list(page.order_by("-ordinal").values_list("ordinal", "game_id")[: limit + 1])
        more_older = len(rows) > limit
        rows = rows[:limit]
        more_newer = before is not None and own.filter(ordinal__gte=before).exists()
    older = rows[-1][0] if rows and more_older else None
    newer = rows[0][0] if rows and more_newer else None
    return [g for _o, g in rows], older, newer


def _named(rows: list[dict], names: dict[int, str]) -> list[dict]:
    """Partners and opponents' rows with their names now, most games first (as the whole page)."""
    out = [
        {**r, "player": names.get(r["player_id"], "?"), "win_rate": r["wins"] / r["games"] if r["games"] else 0.0}
        for r in rows
    ]
    return sorted(out, key=lambda r: (-r["games"], r["player"]))


def player_view(
    player: Player,
    variant: str = "nanking",
    start: date | None = None,
    end: date | None = None,
    *,
    before: int | None = None,
    after: int | None = None,
    limit: int | None = None,
    render_why=None,
    chart: bool = True,
) -> dict:
    """The player page's figures, bounded (module docstring): the keys of player_page, where
    `history` is one page of the games (oldest first; `older`/`newer` the cursors beside it,
    `history_total` all of them), `chart_history` the games the chart draws (with `chart`) and
    `rank_history` the latest RANK_DAYS_API days (`rank` the page's rank figures)."""
    club = player.club
    whole = summary(player, variant)
    listed, older, newer = game_list(player, variant, before, after, limit or LIST_GAMES)
    drawn = whole.get("chart_games", []) if chart else []
    entries, others, _names = player_entries(player, variant, games=sorted({*listed, *drawn}))
    by_game = {e.game_id: history_row(e, others, render_why) for e in entries}
    history = [by_game[g] for g in reversed(listed) if g in by_game]
    games = whole["games"]
    rule = rank_rule(club)
    leads = rules_of(club).leads_with
    base = {
        "player_id": player.pk,
        "player": player.name,
        "club_id": player.club_id,
        "variant": variant,
        "games": games,
        "history": history,
        "history_total": games,
        "older": older,
        "newer": newer,
        "rank_table": leads,
    }
    if not games:
        return {
            **base,
            **dict.fromkeys(("rating", "rd", "elo", "low", "high", "peak"), None),
            "wins": 0,
            "provisional": True,
            "ranked": False,
            "games_to_rank": rule.min_games,
            "inactive": False,
            "standing_note": "",
            "period": period_change(player, variant, start, end, whole),
            "chart_history": [],
            "best_wins": [],
            "worst_losses": [],
            "partners": [],
            "head_to_head": [],
            "evenings": [],
            "tournaments": [],
            "rank": _rank_page([]),
            "rank_history": [],
        }
    last = whole["last"]
    club_last, breaks = cached(
        "calendar",
        club.pk,
        variant,
        (rule.inactive_days, club.time_zone),
        lambda: compute_club_calendar(club.pk, variant, rule, club.time_zone),
    )
    st = status(games, last["day"], club_last, rule, ClubCalendar.from_breaks(rule, breaks))
    ids = {
        p
        for rows in (whole["best_wins"], whole["worst_losses"])
        for r in rows
        for p in (*r["partner_ids"], *r["opponent_ids"])
    }
    ids |= {r["player_id"] for r in (*whole["partners"], *whole["head_to_head"])}
    names = dict(Player.objects.filter(pk__in=ids).values_list("id", "name"))

    def short(rows: list[dict]) -> list[dict]:
        return [
            {
                **r,
                "partners": [names.get(p, "?") for p in r["partner_ids"]],
                "opponents": [names.get(p, "?") for p in r["opponent_ids"]],
            }
            for r in rows
        ]

    rank = rank_page(player, variant, leads)
    return {
        **base,
        "rating": last["rating"],
        "rd": last["rd"],
        "elo": last["elo"],
        "low": last["rating"] - 2 * last["rd"],
        "high": last["rating"] + 2 * last["rd"],
        "wins": whole["wins"],
        "provisional": PREDICTIVE.provisional(variant, last["rd"], games),
        "ranked": st.ranked,
        "games_to_rank": st.games_to_rank,
        "inactive": st.inactive,
        "standing_note": st.note,
        "period": period_change(player, variant, start, end, whole),
        "peak": whole["peak"],
        "chart_history": [by_game[g] for g in drawn if g in by_game],
        "best_wins": short(whole["best_wins"]),
        "worst_losses": short(whole["worst_losses"]),
        "partners": _named(whole["partners"], names),
        "head_to_head": _named(whole["head_to_head"], names),
        "evenings": whole["evenings"],
        "tournaments": tournament_overlay(player, whole["tournaments"]),
        "rank": rank,
        "rank_history": rank["tail"],
    }


def chart_points(history: list[dict]) -> list[charts.GamePoint]:
    """The rating chart's points of these games (player_view's chart_history)."""
    return [
        charts.GamePoint(
            datetime.fromisoformat(g["finished_at"]),
            g["elo_after"],
            g["rating_after"],
            g["rd_after"],
            f"{g['evening']} #{g['game_id']}: {g['why']}",
        )
        for g in history
    ]
