"""Celery tasks: thin entry points that fetch by id and call a service."""
import logging

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task
def update_ratings_for_game(game_id: int) -> None:
    """Queued on commit when a game finishes (games.services). Placeholder: the ratings service
    will be called from here."""
    logger.info("game %s finished: ratings update requested", game_id)
