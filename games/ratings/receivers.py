"""What the ratings do when the records call a hook (games/hooks.py); connected by RatingsConfig.ready()."""

from __future__ import annotations

import logging

from django.db.models.signals import post_delete
from django.utils import timezone

from games import hooks
from games.models import Game, Player

from . import outbox, tournament_elo
from .league_rules import rules_of_club_id
from .models import RatingPool
from .services import store_imported_outcomes
from .tasks import rate_import_job, recompute_ratings

logger = logging.getLogger(__name__)


def _imported_games_held(imported) -> None:
    """The finished games of an imported file (games.bulk_store, in its transaction): their held
    outbox rows, and their outcomes from the scores of the states the import folded, so that the
    job's recompute folds nothing."""
    outbox.record_held([game for game, _, _ in imported])
    store_imported_outcomes(imported)


def _import_job_finished(job_id: int) -> None:
    rate_import_job.delay(job_id)


def _club_players_merged(club_id: int) -> None:
    recompute_ratings.delay(club_id, refold=True)


def _club_imported(club_id: int) -> None:
    recompute_ratings.delay(club_id, refold=True)


def _table_results_changed(tournament, games) -> None:
    """A tournament table's result recorded or corrected (games.tournaments.services, in its
    transaction): for a league that follows the tournaments' VP, each finished game is rated
    again (its outbox row: the task refolds an outcome whose VP are no longer the table's)."""
    if not rules_of_club_id(tournament.club_id).follows_tournament_vp:
        return
    for game in games:
        outbox.record(game)


def touch_pools(sender, instance, **kwargs) -> None:
    """A game or a player deleted takes its RatingChange rows with it (CASCADE), with no rating
    write to save its pool: the club's pools get a new version (league_cache.pool_version), so
    that no figure cached from the removed rows is read again."""
    RatingPool.objects.filter(club_id=instance.club_id).update(updated_at=timezone.now())


def connect() -> None:
    post_delete.connect(touch_pools, sender=Game, dispatch_uid="ratings-touch-pools-game")
    post_delete.connect(touch_pools, sender=Player, dispatch_uid="ratings-touch-pools-player")
    hooks.finished_game_changed.connect(outbox.record)
    hooks.finished_games_stored_held.connect(_imported_games_held)
    hooks.import_job_finished.connect(_import_job_finished)
    hooks.club_players_merged.connect(_club_players_merged)
    hooks.table_results_changed.connect(_table_results_changed)
    hooks.club_imported.connect(_club_imported)
    hooks.ratings_before_tournament.provide(tournament_elo.ratings_before)
    hooks.club_elo_ratings.provide(tournament_elo.club_elo_ratings)
