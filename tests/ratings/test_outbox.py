"""Issue #14, findings 2 and 3: ratings follow the game's current fold (an undo after the finish
takes the game out of the league, a new finish re-rates it, a recompute refolds stale outcomes),
and the rating task goes through a transactional outbox (a broker that is down at the finishing
append costs neither the answer nor the rating)."""

from __future__ import annotations

import io
from unittest import mock

import pytest
from django.core.management import call_command
from kombu.exceptions import OperationalError as BrokerDown

from games import services as game_services
from games.models import Game
from games.ratings import outbox, services
from games.ratings.models import GameOutcome, RatingChange, RatingOutbox
from tests.api.helpers import PLAYERS, grand_double
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

# 800:800 after four hands; a fifth Grand Tichu double victory ends the game for that team.
LEVEL = [grand_double(0), grand_double(1), grand_double(0), grand_double(1)]
TEAM0_WINS, TEAM1_WINS = grand_double(0), grand_double(1)
UNDO = {"type": "undo"}


@pytest.fixture
def scorer_client(club, scorer):
    return client_for(scorer)


def new_game(club, scorer, players=PLAYERS) -> int:
    return game_services.game_create(
        club=club, variant="nanking", options=None, players=list(players), user=scorer
    ).body["id"]


def append(game_id, events, scorer, capture):
    game = Game.objects.get(pk=game_id)
    with capture(execute=True):
        return game_services.append_events(game=game_id, events=events, expected_seq=game.seq, user=scorer).body


def winners(game_id) -> set[str]:
    return set(RatingChange.objects.filter(game_id=game_id, score=1.0).values_list("player__name", flat=True))


def clean_table(club) -> list:
    """The pool as a from-scratch recompute (every outcome refolded from the events) makes it."""
    services.recompute_club(club.pk, refold=True)
    return services.pool_signature(club.pk, "nanking")


def test_an_undo_after_the_finish_takes_the_game_out_of_the_league_and_a_new_finish_rerates_it(
    club, scorer, django_capture_on_commit_callbacks
):
    other = new_game(club, scorer, ["Ann", "Eve", "Cid", "Fay"])
    append(other, LEVEL + [TEAM1_WINS], scorer, django_capture_on_commit_callbacks)
    gid = new_game(club, scorer)
    append(gid, LEVEL + [TEAM0_WINS], scorer, django_capture_on_commit_callbacks)
    assert winners(gid) == {"Ann", "Cid"}

    assert append(gid, [UNDO], scorer, django_capture_on_commit_callbacks)["status"] == "active"
    assert not RatingChange.objects.filter(game_id=gid).exists()  # reopened: no longer counted
    assert not GameOutcome.objects.filter(game_id=gid).exists()
    reopened = services.pool_signature(club.pk, "nanking")
    assert reopened == clean_table(club)
    assert set(RatingChange.objects.filter(club=club).values_list("game_id", flat=True)) == {
        other
    }  # only the other game's changes

    assert append(gid, [TEAM1_WINS], scorer, django_capture_on_commit_callbacks)["status"] == "finished"
    assert winners(gid) == {"Bob", "Dee"}
    outcome = GameOutcome.objects.get(game_id=gid)
    assert (outcome.totals, outcome.seq) == ([800, 1200], 7)
    rerated = services.pool_signature(club.pk, "nanking")
    assert rerated == clean_table(club)
    assert not RatingOutbox.objects.exists()  # every change was handled


def test_a_recompute_refolds_a_stale_outcome_instead_of_reusing_it(club, scorer, django_capture_on_commit_callbacks):
    gid = new_game(club, scorer)
    append(gid, LEVEL + [TEAM0_WINS], scorer, django_capture_on_commit_callbacks)
    # the undo and the new finish are stored, but no rating task runs (a worker that is down)
    with mock.patch.object(outbox, "publish", return_value=False):
        append(gid, [UNDO], scorer, django_capture_on_commit_callbacks)
        append(gid, [TEAM1_WINS], scorer, django_capture_on_commit_callbacks)
    assert winners(gid) == {"Ann", "Cid"}  # still the first finish: the outbox holds the rest
    call_command("recompute_ratings", "--club", club.slug, "--no-progress", stdout=io.StringIO())
    assert winners(gid) == {"Bob", "Dee"}
    assert GameOutcome.objects.get(game_id=gid).totals == [800, 1200]
    assert services.pool_signature(club.pk, "nanking") == clean_table(club)


def test_the_task_is_idempotent_and_order_free(club, scorer, django_capture_on_commit_callbacks):
    gid = new_game(club, scorer)
    append(gid, LEVEL + [TEAM0_WINS], scorer, django_capture_on_commit_callbacks)
    table = services.pool_signature(club.pk, "nanking")
    assert services.apply_game(gid) == "already rated"
    assert services.pool_signature(club.pk, "nanking") == table
    with mock.patch.object(outbox, "publish", return_value=False):
        append(gid, [UNDO], scorer, django_capture_on_commit_callbacks)
    # a late redelivery of the first finish's task sees the game as it is now: reopened
    assert services.apply_game(gid) == "withdrawn"
    assert services.apply_game(gid) == "not finished"
    assert not RatingChange.objects.exists()


def test_the_finishing_append_writes_its_outbox_row_in_its_own_transaction(
    club, scorer, django_capture_on_commit_callbacks
):
    gid = new_game(club, scorer)
    append(gid, LEVEL, scorer, django_capture_on_commit_callbacks)
    assert not RatingOutbox.objects.exists()  # not finished: nothing for the ratings
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game_services.append_events(game=gid, events=[TEAM0_WINS], expected_seq=4, user=scorer)
    row = RatingOutbox.objects.get()
    assert (row.game_id, row.seq) == (gid, 5)
    assert not RatingChange.objects.exists()  # the task is queued only after the commit
    for callback in callbacks:
        callback()
    assert winners(gid) == {"Ann", "Cid"} and not RatingOutbox.objects.exists()


def test_a_refused_append_writes_no_outbox_row(club, scorer, django_capture_on_commit_callbacks):
    gid = new_game(club, scorer)
    append(gid, LEVEL, scorer, django_capture_on_commit_callbacks)
    with pytest.raises(game_services.RuleViolation):
        game_services.append_events(game=gid, events=[TEAM0_WINS, TEAM0_WINS], expected_seq=4, user=scorer)
    assert not RatingOutbox.objects.exists() and Game.objects.get(pk=gid).seq == 4


def test_broker_down_at_the_finishing_append_answers_201_and_the_sweep_rates_the_game_later(
    club, scorer, scorer_client, django_capture_on_commit_callbacks
):
    gid = new_game(club, scorer)
    append(gid, LEVEL, scorer, django_capture_on_commit_callbacks)
    with mock.patch("games.ratings.tasks.update_ratings_for_game.apply_async", side_effect=BrokerDown("refused")):
        with django_capture_on_commit_callbacks(execute=True):
            response = scorer_client.post(
                f"/api/games/{gid}/events/", {"expected_seq": 4, "events": [TEAM0_WINS]}, format="json"
            )
    assert response.status_code == 201 and response.json()["status"] == "finished"
    assert not RatingChange.objects.exists() and RatingOutbox.objects.filter(game_id=gid).exists()
    # the broker is back: the sweep (beat, worker start or the command) queues the task
    out = io.StringIO()
    call_command("sweep_rating_outbox", "--grace", "0", stdout=out)
    assert "1 game(s) queued" in out.getvalue()
    assert winners(gid) == {"Ann", "Cid"} and not RatingOutbox.objects.exists()
    assert services.pool_signature(club.pk, "nanking") == clean_table(club)


def test_the_sweep_waits_for_the_grace_period_and_does_not_requeue_at_every_run(
    club, scorer, django_capture_on_commit_callbacks
):
    gid = new_game(club, scorer)
    with mock.patch.object(outbox, "publish", return_value=False):
        append(gid, LEVEL + [TEAM0_WINS], scorer, django_capture_on_commit_callbacks)
    queued = []
    assert outbox.sweep(lambda g: queued.append(g) or True, grace_s=60, requeue_s=300)["queued"] == 0
    assert outbox.sweep(lambda g: queued.append(g) or True, grace_s=0, requeue_s=300)["queued"] == 1
    assert outbox.sweep(lambda g: queued.append(g) or True, grace_s=0, requeue_s=300)["queued"] == 0
    assert queued == [gid]
    assert outbox.sweep(lambda g: False, grace_s=0, requeue_s=0) == {"queued": 0, "failed": 1, "pending": 1}


def test_publish_never_raises_and_never_retries():
    """With the broker down a finishing append pays one refused connection, not kombu's retries."""
    from games.ratings.tasks import update_ratings_for_game

    conf = update_ratings_for_game.app.conf
    saved = {"broker_url": conf.broker_url, "task_always_eager": conf.task_always_eager}
    conf.update(broker_url="redis://127.0.0.1:1/0", task_always_eager=False)  # nothing listens on port 1
    try:
        with mock.patch("time.sleep", side_effect=AssertionError("publish waited for a retry")):
            assert outbox.publish(12345) is False
    finally:
        conf.update(**saved)


def test_celery_delivery_settings(settings):
    from tichu_site.celery import app

    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_publish_retry is False
    visibility = app.conf.broker_transport_options["visibility_timeout"]
    assert 600 < visibility < 3600  # above the longest task and a retry's countdown, well below the default
    assert app.conf.beat_schedule["rating-outbox-sweep"]["task"] == "games.tasks.sweep_rating_outbox"
