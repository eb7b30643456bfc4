"""What the club page says about each game: the players by team, the final score, the winner,
finished, in play or unfinished; and the club's latest evening at a glance.

Scores come from the engine's state at the game's last event (`games.snapshots`, cached per game), the
same state the score sheet shows; only totals, teams and the winner are read from it (never a
hand), so nothing hidden during play can show here.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TYPE_CHECKING

from games import engine, safe_cache, selectors, snapshots
from games.ratings.evening import evening_of, evening_start
from games.tournaments import game_table

if TYPE_CHECKING:  # types only: the page reads through the selectors
    from games.models import Game

logger = logging.getLogger(__name__)


@dataclass
class Side:
    names: list[str]
    total: int | None
    won: bool = False
    ids: list[int] = field(default_factory=list)  # the side's roster players (to mark "you")

    @property
    def label(self) -> str:
        return " & ".join(self.names)


@dataclass
class GameSummary:
    game: Game
    sides: list[Side]
    finished: bool
    hands: int
    error: str = ""
    player_ids: dict[str, int] = field(default_factory=dict)
    vp: list | None = None  # a tournament table's game: the table's VP as the tournament counts them

    @property
    def unfinished(self) -> bool:
        """Its source (an imported log or score sheet) ended before the game did: not in play."""
        return self.game.status == selectors.GameStatus.UNFINISHED

    @property
    def in_play(self) -> bool:
        return not self.finished and not self.unfinished

    @property
    def winner(self) -> Side | None:
        return next((s for s in self.sides if s.won), None)

    @property
    def score(self) -> str:
        return " : ".join("–" if s.total is None else str(s.total) for s in self.sides)


SCORE_CACHE_TIMEOUT = 30 * 24 * 3600


def _score_key(game: Game) -> str:
    # stream_id changes when a player of the game is renamed or merged (games.clubs.services)
    return f"tichu:club-score:v1:{game.stream_id}:{game.seq}"


def _fold_score(game: Game) -> dict:
    state = engine.state_json(snapshots.state_at(game, game.seq))
    if isinstance(state, str):
        state = json.loads(state)
    return {
        "totals": state.get("totals") or [],
        "teams": state.get("teams") or [],
        "winner": state.get("winner") if state.get("complete") else None,
        "hands": len(state.get("score_sheet") or []),
    }


def scores(games: list[Game]) -> dict[int, dict]:
    """Totals, teams, winner and hands played per game: from the cache in one round trip, the
    rest folded (and cached: a game's score at a seq never changes)."""
    keys = {_score_key(g): g for g in games}
    found = safe_cache.get_many(list(keys))  # a cache that is down reads as misses
    out, new = {}, {}
    for key, game in keys.items():
        if key in found:
            out[game.pk] = found[key]
            continue
        try:
            out[game.pk] = new[key] = _fold_score(game)
        except Exception as err:  # noqa: BLE001 - a game that no longer folds is listed, not fatal
            logger.exception("club scores: game %s does not fold", game.pk)
            out[game.pk] = {"error": str(err)}
    if new:
        safe_cache.set_many(new, SCORE_CACHE_TIMEOUT)
    return out


def summarise(game: Game, score: dict) -> GameSummary:
    """The game's sides (teams, or players where each keeps a total of their own) with totals."""
    seats = list(game.seats.all())
    names = [s.player.name for s in seats]
    finished = game.status == selectors.GameStatus.FINISHED
    ids = {s.player.name: s.player_id for s in seats}
    seat_ids = [s.player_id for s in seats]
    if "error" in score:
        return GameSummary(game, [Side(names, None, ids=seat_ids)], finished, 0, error=score["error"], player_ids=ids)
    totals, teams, winner = score["totals"], score["teams"], score["winner"]
    if totals and len(totals) == len(teams):
        groups = [[s for s in team if 0 <= s < len(names)] for team in teams]
    else:  # a total per player (Threechu, Grand Seigneur, Tien Zi Que)
        groups = [[i] for i in range(len(names[: len(totals)]))] or [list(range(len(names)))]
    sides = [
        Side(
            [names[s] for s in g],
            totals[i] if i < len(totals) else None,
            won=(winner == i),
            ids=[seat_ids[s] for s in g],
        )
        for i, g in enumerate(groups)
    ]
    return GameSummary(game, sides, finished, score["hands"], player_ids=ids)


def summarise_all(games: list[Game]) -> list[GameSummary]:
    found = scores(games)
    return [summarise(g, found[g.pk]) for g in games]


@dataclass
class Evening:
    day: date
    games: list[GameSummary]
    finished: int
    in_play: int
    unfinished: int
    # (name, finished games played, games won), most wins first: a game still in play (or one
    # its source ended before it was over) is no win and no loss yet, so it is not counted
    tally: list[tuple[str, int, int]]


def latest_evening(club_games, tz: str, reader=None) -> Evening | None:
    """The games of the latest evening the club played any (by played_at), an evening as the
    league counts it (games.ratings.evening: 06:00 to 06:00 in the club's time zone `tz`); a
    tournament table's game with its VP as `reader` may see them (issue 31, item 3)."""
    latest = club_games.order_by("-played_at", "-id").first()
    if latest is None:
        return None
    day = evening_of(latest.played_at, tz)
    same_day = [g for g in club_games.filter(played_at__gte=evening_start(day, tz),
                                             played_at__lt=evening_start(day + timedelta(days=1), tz))
                .prefetch_related("seats__player").order_by("played_at", "id")]  # fmt: skip
    summaries = summarise_all(same_day)
    vps = game_table.vp_of([g.pk for g in same_day], reader)
    for s in summaries:
        s.vp = vps.get(s.game.pk)
    played, won = Counter(), Counter()
    for s in summaries:
        if not s.finished:
            continue
        for side in s.sides:
            for name in side.names:
                played[name] += 1
                won[name] += 1 if side.won else 0
    tally = sorted(((n, played[n], won[n]) for n in played), key=lambda t: (-t[2], -t[1], t[0].lower()))
    finished = sum(1 for s in summaries if s.finished)
    in_play = sum(1 for s in summaries if s.in_play)
    return Evening(day, summaries, finished, in_play, len(summaries) - finished - in_play, tally)
