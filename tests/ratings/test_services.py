"""Ratings on the database: the on-commit update, the full recompute, determinism."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services as game_services
from games.engine import random_game
from games.models import Club, Game
from games.ratings import services
from games.ratings.config import SYSTEM
from games.ratings.models import GameOutcome, PlayerRating, RatingChange, RatingPool

ROSTER = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def _record(seed: int) -> dict:
    names = [ROSTER[(seed + k) % 6] for k in (0, 1, 3, 4)]
    return random_game(seed, players=names)


@pytest.fixture
def home(db):
    return Club.objects.create(name="Home", slug="home")


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("scorer", password="pw")


def import_games(club, user, seeds, capture):
    ids = []
    for s in seeds:
        with capture(execute=True):
            body = game_services.game_import(club=club, record=_record(s), user=user).body
        ids.append(body["id"])
    return ids


@pytest.mark.django_db
def test_finishing_a_game_rates_it_after_commit(home, user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        gid = game_services.game_import(club=home, record=_record(1), user=user).body["id"]
    assert Game.objects.get(pk=gid).status == Game.Status.FINISHED
    assert not RatingChange.objects.exists()  # nothing before the commit
    for cb in callbacks:
        cb()
    changes = RatingChange.objects.filter(game_id=gid)
    assert changes.count() == 4
    assert PlayerRating.objects.filter(club=home).count() == 4
    outcome = GameOutcome.objects.get(game_id=gid)
    winners = {c.player_id for c in changes if c.score == 1.0}
    assert winners == set(outcome.sides[outcome.winner])
    assert all(c.rating_after > c.rating_before for c in changes if c.player_id in winners)
    assert RatingPool.objects.get(club=home, variant="nanking").system == SYSTEM


@pytest.mark.django_db
def test_incremental_updates_equal_the_full_recompute_and_recompute_is_idempotent(
    home, user, django_capture_on_commit_callbacks
):
    import_games(home, user, range(10, 18), django_capture_on_commit_callbacks)
    incremental = services.pool_signature(home.pk, "nanking")
    assert len(incremental) == 8 * 4 + len(ROSTER) + 1  # changes, players, the pool's weights
    ids = list(PlayerRating.objects.filter(club=home).order_by("player_id").values_list("player_id", flat=True))
    sides = [[ids[:2], ids[2:4]], [[ids[0]], [ids[3]]], [[ids[1], ids[5]], [ids[4], ids[0]]]]
    at = timezone.now() + timedelta(days=30)
    forecast_before = [services.forecast(home.pk, "nanking", s, at) for s in sides]
    services.recompute_club(home.pk)
    once = services.pool_signature(home.pk, "nanking")
    services.recompute_club(home.pk)
    assert once == incremental
    # the stored mixture (every copy of every player, the 36 log weights) gives the same forecast
    assert [services.forecast(home.pk, "nanking", s, at) for s in sides] == forecast_before
    assert len({p for f in forecast_before for _, _, p in f}) == 3
    assert services.pool_signature(home.pk, "nanking") == once
    # the task is idempotent too: a redelivered update leaves the table alone
    assert services.apply_game(Game.objects.order_by("id").first().pk) == "already rated"
    assert services.pool_signature(home.pk, "nanking") == once


@pytest.mark.django_db
def test_a_recompute_that_dies_midway_leaves_the_table_and_a_rerun_gives_the_same(
    home, user, django_capture_on_commit_callbacks, monkeypatch
):
    import_games(home, user, range(20, 26), django_capture_on_commit_callbacks)
    before = services.pool_signature(home.pk, "nanking")
    real = services._write_changes

    def dying(values, progress=None):
        real(values[: len(values) // 2], progress)  # half of the new rows are in...
        raise SystemExit("worker killed")  # ...when the worker dies

    monkeypatch.setattr(services, "_write_changes", dying)
    with pytest.raises(SystemExit):
        services.recompute_club(home.pk)
    assert services.pool_signature(home.pk, "nanking") == before  # rolled back whole
    monkeypatch.setattr(services, "_write_changes", real)
    services.recompute_club(home.pk)
    assert services.pool_signature(home.pk, "nanking") == before


@pytest.mark.django_db
def test_an_older_game_arriving_late_is_put_in_its_place(home, user, django_capture_on_commit_callbacks):
    ids = import_games(home, user, range(30, 35), django_capture_on_commit_callbacks)
    # the last imported game was actually played before all the others (an old score sheet)
    last = Game.objects.get(pk=ids[-1])
    first = Game.objects.get(pk=ids[0])
    RatingChange.objects.filter(game=last).delete()
    GameOutcome.objects.filter(game=last).delete()
    Game.objects.filter(pk=last.pk).update(played_at=first.played_at.replace(year=first.played_at.year - 1))
    assert services.apply_game(last.pk) == "recomputed"
    ordinals = dict(RatingChange.objects.filter(player__club=home).values_list("game_id", "ordinal").distinct())
    assert ordinals[last.pk] == 0
    got = services.pool_signature(home.pk, "nanking")
    services.recompute_club(home.pk)
    assert services.pool_signature(home.pk, "nanking") == got


@pytest.mark.django_db
def test_recompute_reports_progress_to_the_end(home, user, django_capture_on_commit_callbacks):
    import_games(home, user, range(40, 44), django_capture_on_commit_callbacks)
    seen = []
    out = services.recompute_club(home.pk, progress=lambda stage, done, total: seen.append((stage, done, total)))
    assert out[0]["games"] == 4
    rate = [(d, t) for s, d, t in seen if s == "rate"]
    assert rate[-1] == (4, 4)
    assert [d for d, _ in rate] == sorted(d for d, _ in rate)
    assert any(s == "write" for s, _, _ in seen)


@pytest.mark.django_db
def test_recompute_task_runs_in_process_by_default(home, user, django_capture_on_commit_callbacks):
    from games.ratings.tasks import recompute_ratings

    import_games(home, user, range(50, 53), django_capture_on_commit_callbacks)
    before = services.pool_signature(home.pk, "nanking")
    result = recompute_ratings.delay(home.pk)
    assert result.get()[0]["games"] == 3
    assert services.pool_signature(home.pk, "nanking") == before


@pytest.mark.django_db
def test_a_game_without_hands_is_refused_with_its_reason(home, user, django_capture_on_commit_callbacks):
    from games.ratings.adapters import result_from_score
    from games.ratings.types import NotRated

    with pytest.raises(NotRated) as err:
        result_from_score(
            1, 0.0, "nanking", [1, 2, 3, 4], {"ok": True, "complete": True, "hands": [], "totals": [0, 0]}
        )
    assert "no hand" in err.value.reason


@pytest.mark.django_db
def test_recompute_command_prints_progress_and_gives_the_same_table(home, user, django_capture_on_commit_callbacks):
    import io

    from django.core.management import call_command

    import_games(home, user, range(60, 63), django_capture_on_commit_callbacks)
    before = services.pool_signature(home.pk, "nanking")
    out, err = io.StringIO(), io.StringIO()
    call_command("recompute_ratings", "--club", "home", stdout=out, stderr=err)
    assert "3 games" in out.getvalue()
    assert "rating" in err.getvalue()  # the tqdm bar
    assert services.pool_signature(home.pk, "nanking") == before


@pytest.mark.django_db
def test_each_variant_is_its_own_pool(home, user, django_capture_on_commit_callbacks):
    import_games(home, user, [70], django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        gid = game_services.game_import(
            club=home, record=random_game(3, variant="tien-zi-que", players=["Ann", "Bob"]), user=user
        ).body["id"]
    assert services.apply_game(gid) == "already rated"
    rows = RatingChange.objects.filter(game_id=gid)
    assert rows.count() == 2 and {r.variant for r in rows} == {"tien-zi-que"}
    assert set(RatingPool.objects.filter(club=home).values_list("variant", flat=True)) == {"nanking", "tien-zi-que"}
    ann = PlayerRating.objects.filter(player__name="Ann", club=home)
    assert set(ann.values_list("variant", flat=True)) >= {"tien-zi-que"}
    before = services.pool_signature(home.pk, "tien-zi-que")
    services.recompute_club(home.pk)
    assert services.pool_signature(home.pk, "tien-zi-que") == before


@pytest.mark.django_db
def test_the_elo_table_is_the_club_elo_replayed_on_the_outcomes_and_incremental_equals_recompute(
    home, user, django_capture_on_commit_callbacks
):
    from games.ratings.elo import ClubElo

    import_games(home, user, range(30, 44), django_capture_on_commit_callbacks)  # 14 games, 6 players
    incremental = list(
        RatingChange.objects.filter(club=home)
        .order_by("ordinal", "player_id")
        .values_list("player_id", "elo_before", "elo_after")
    )
    elo = ClubElo()
    expected = []
    for o in GameOutcome.objects.filter(club=home).order_by("finished_at", "game_id"):
        expected += sorted((c.player, c.before, c.after) for c in elo.update(services.result_of(o)))
    assert incremental == expected
    assert len({round(a, 6) for _, _, a in incremental}) > 6  # the table moves
    assert {r.player_id: r.elo for r in PlayerRating.objects.filter(club=home)} == elo.ratings
    services.recompute_club(home.pk)
    assert (
        list(
            RatingChange.objects.filter(club=home)
            .order_by("ordinal", "player_id")
            .values_list("player_id", "elo_before", "elo_after")
        )
        == incremental
    )


@pytest.mark.django_db
def test_pools_rated_before_the_elo_table_are_recomputed_on_their_next_update(
    home, user, django_capture_on_commit_callbacks
):
    import_games(home, user, range(50, 53), django_capture_on_commit_callbacks)
    full = services.pool_signature(home.pk, "nanking")
    RatingChange.objects.filter(club=home).update(elo_before=1500.0, elo_after=1500.0)  # as migrated
    PlayerRating.objects.filter(club=home).update(elo=1500.0)
    RatingPool.objects.filter(club=home).update(system="")  # what migration 0014 does
    last = Game.objects.filter(club=home).order_by("-id").first()
    RatingChange.objects.filter(game=last).delete()
    assert services.apply_game(last.pk) == "recomputed"
    assert services.pool_signature(home.pk, "nanking") == full


@pytest.mark.django_db
def test_a_pool_rated_under_v5_forecasts_and_is_recomputed_on_its_next_update(
    home, user, django_capture_on_commit_callbacks
):
    """pool-bayes-kalman/5 stored four copies per player and 4 x 9 log weights; /6 has seven
    drifts. Until its next update such a pool forecasts from each player's shown state (the prior
    weights), and that update recomputes it to the rows a fresh recompute writes."""
    import_games(home, user, range(60, 63), django_capture_on_commit_callbacks)
    full = services.pool_signature(home.pk, "nanking")
    for r in PlayerRating.objects.filter(club=home):
        r.copies = r.copies[:4]
        r.shown = min(r.shown, 3)
        r.save(update_fields=["copies", "shown"])
    RatingPool.objects.filter(club=home).update(system="pool-bayes-kalman/5", log_weights=[[0.0] * 9] * 4)
    players = sorted(PlayerRating.objects.filter(club=home).values_list("player_id", flat=True))[:4]
    ((_, _, p),) = services.forecast(home.pk, "nanking", [players[:2], players[2:]])
    assert 0.0 < p < 1.0
    last = Game.objects.filter(club=home).order_by("-id").first()
    RatingChange.objects.filter(game=last).delete()
    assert services.apply_game(last.pk) == "recomputed"
    assert services.pool_signature(home.pk, "nanking") == full
    assert all(len(r.copies) == 7 for r in PlayerRating.objects.filter(club=home))
