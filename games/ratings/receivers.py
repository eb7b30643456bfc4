"""What the ratings do when the records call a hook (games/hooks.py); connected by RatingsConfig.ready()."""
from __future__ import annotations

import logging

from games import hooks
from games.models import Game

from . import outbox, tournament_elo
from .services import ensure_outcome
from .tasks import rate_import_job, recompute_ratings

logger = logging.getLogger(__name__)


def _games_imported(games) -> None:
    """The rating outcome of each finished game just imported, from the state its import folded
    (in this process's cache: games.bulk_store), so that the job's recompute folds nothing. Best
    effort: an outcome missing here is folded by the recompute (`ensure_outcomes`)."""
    for game in games:
        if game.status != Game.Status.FINISHED:
            continue
        try:
            ensure_outcome(game)
        except Exception:  # noqa: BLE001 - never fails a stored file; the recompute redoes it
            logger.warning("game %s: rating outcome left to the job's recompute", game.pk, exc_info=True)


def _import_job_finished(job_id: int) -> None:
    rate_import_job.delay(job_id)


def _club_players_merged(club_id: int) -> None:
    recompute_ratings.delay(club_id, refold=True)


def connect() -> None:
    hooks.finished_game_changed.connect(outbox.record)
    hooks.finished_games_stored_held.connect(outbox.record_held)
    hooks.games_imported.connect(_games_imported)
    hooks.import_job_finished.connect(_import_job_finished)
    hooks.club_players_merged.connect(_club_players_merged)
    hooks.ratings_before_tournament.provide(tournament_elo.ratings_before)
