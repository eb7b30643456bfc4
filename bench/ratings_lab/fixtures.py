"""Load a generated history straight into the tables (tests and the 100,000-game bench).

Creates Player, Game (finished, no events: a score-sheet summary only), GameSeat and GameOutcome
rows in bulk. The GameOutcome is what a finished game's fold would have stored, so a recompute
over these rows is the same work as over folded games.
"""

from __future__ import annotations

from datetime import datetime
from datetime import timezone as dt_timezone
from typing import Sequence

from django.db import transaction

from games.models import Club, Game, GameSeat, Player
from games.ratings.models import GameOutcome
from games.ratings.services import outcome_fields
from games.ratings.types import GameResult, HandDetail


def load_history(club: Club, games: Sequence[GameResult], names: dict | None = None, batch: int = 5000) -> dict:
    """Returns {history player id: Player id}. Two-side 2v2 games only (seats 0,2 v 1,3)."""
    with transaction.atomic():
        ids = sorted({p for g in games for p in g.players}, key=str)
        Player.objects.bulk_create(
            [Player(club=club, name=(names or {}).get(p, f"Player {p}")) for p in ids], batch_size=batch
        )
        pmap = dict(Player.objects.filter(club=club).values_list("name", "id"))
        pid = {p: pmap[(names or {}).get(p, f"Player {p}")] for p in ids}
        for start in range(0, len(games), batch):
            chunk = games[start : start + batch]
            rows = Game.objects.bulk_create(
                [
                    Game(
                        club=club,
                        variant=g.variant,
                        status=Game.Status.FINISHED,
                        finished_at=datetime.fromtimestamp(g.finished_at, tz=dt_timezone.utc),
                        played_at=datetime.fromtimestamp(g.finished_at, tz=dt_timezone.utc),
                        header={"format": "tichu-record/1"},
                    )
                    for g in chunk
                ]
            )
            seats, outcomes = [], []
            for g, row in zip(chunk, rows):
                (a0, a1), (b0, b1) = g.teams
                for seat, p in enumerate((a0, b0, a1, b1)):
                    seats.append(GameSeat(game=row, seat=seat, player_id=pid[p]))
                details = tuple(
                    HandDetail(
                        h.points,
                        tuple((pid[p], m) for p, m in h.tichu),
                        tuple((pid[p], m) for p, m in h.grand_tichu),
                        h.double_victory,
                    )
                    for h in g.hand_details
                )
                mapped = GameResult(
                    row.pk,
                    g.finished_at,
                    tuple(tuple(pid[p] for p in t) for t in g.teams),
                    g.scores,
                    g.winner,
                    g.hands,
                    g.variant,
                    hand_details=details,
                )
                outcomes.append(
                    GameOutcome(
                        game=row,
                        club=club,
                        variant=g.variant,
                        finished_at=row.finished_at,
                        seq=row.seq,
                        **outcome_fields(mapped),
                    )
                )
            GameSeat.objects.bulk_create(seats, batch_size=batch)
            GameOutcome.objects.bulk_create(outcomes, batch_size=batch)
    return pid
