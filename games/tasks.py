"""Celery tasks: thin entry points that fetch by id and call a service."""
import logging

from celery import shared_task
from django.db import OperationalError

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def update_ratings_for_game(self, game_id: int) -> str:
    """Queued on commit when a game finishes (games.services): rate the game on top of its pool
    (or recompute the pool when the game is older than the newest rated one). Idempotent: a game
    already rated is left alone, so a redelivered task is harmless."""
    from games.ratings.services import apply_game

    done = apply_game(game_id)
    logger.info("game %s: ratings %s", game_id, done)
    return done


@shared_task(bind=True, acks_late=True)
def recompute_ratings(self, club_id: int | None = None, refold: bool = False) -> list:
    """Full, deterministic recompute of one club's rating pools (every club with club_id=None).
    Reports progress as task state PROGRESS with meta {stage, done, total, club}."""
    from games.ratings.services import recompute_club

    def progress(stage: str, done: int, total: int) -> None:
        if self.request.id is None:
            return
        try:
            self.update_state(state="PROGRESS", meta={"stage": stage, "done": done, "total": total, "club": club_id})
        except Exception:  # a result backend hiccup never stops the recompute
            logger.warning("progress report failed", exc_info=True)

    return recompute_club(club_id, refold=refold, progress=progress)
