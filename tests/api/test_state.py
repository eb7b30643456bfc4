"""`state?at=N` is the engine's state after N events, served from cached snapshots (hand
boundaries, every SNAPSHOT_EVERY events, the tip) instead of refolding the game every time, and
rebuilt from events when the cache has lost them."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache

from games import snapshots
from games.engine import GameState, fold, random_game, state_json
from games.local_cache import LocalLru
from games.models import Game
from games.services import game_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported(club, scorer):
    rec = random_game(3)
    game_id = game_import(club=club, record=rec, user=scorer).body["id"]
    return Game.objects.get(pk=game_id), rec


@pytest.fixture
def count_applies(monkeypatch):
    calls = {"n": 0}
    original = GameState.apply

    def counting(self, event):
        calls["n"] += 1
        return original(self, event)

    monkeypatch.setattr(GameState, "apply", counting)
    return calls


def cold_cache() -> None:
    cache.clear()
    snapshots.forget_local()


def hand_starts(rec) -> list[int]:
    return [i for i, e in enumerate(rec["events"]) if e["type"] in ("shuffle", "hand_result")]


def test_state_at_every_sampled_position_equals_the_engine_fold(scorer_client, imported):
    game, rec = imported
    n_events = len(rec["events"])
    positions = sorted({0, 1, n_events, *random.Random(1).sample(range(n_events), 25), *hand_starts(rec)})
    for at in positions:
        response = scorer_client.get(f"/api/games/{game.pk}/state/?at={at}")
        assert response.status_code == 200
        assert response.json() == state_json(fold(rec, upto=at)), at
    assert scorer_client.get(f"/api/games/{game.pk}/state/").json() == state_json(fold(rec))


def test_same_answers_with_a_cold_cache(scorer_client, imported):
    game, rec = imported
    for at in (len(rec["events"]) // 2, 7, len(rec["events"])):
        cold_cache()
        assert scorer_client.get(f"/api/games/{game.pk}/state/?at={at}").json() == state_json(fold(rec, upto=at))


def test_a_deep_position_folds_at_most_one_snapshot_interval(imported, count_applies):
    game, rec = imported
    starts = hand_starts(rec)
    cold_cache()
    snapshots.state_at(game, game.seq)  # rebuilds once from the events, caching boundaries
    assert count_applies["n"] == len(rec["events"])
    for at in random.Random(2).sample(range(1, game.seq), 30):
        count_applies["n"] = 0
        snapshots.state_at(game, at)
        base = max(b for b in [s for s in starts if s <= at] + [at - at % snapshots.SNAPSHOT_EVERY])
        assert count_applies["n"] == at - base <= snapshots.SNAPSHOT_EVERY, at


def test_append_starts_from_the_cached_tip(
    scorer_client, club, scorer, count_applies, django_capture_on_commit_callbacks
):
    rec = random_game(4)
    head, tail = rec["events"][:900], rec["events"][900:905]
    with django_capture_on_commit_callbacks(execute=True):
        game_id = game_import(club=club, record={**rec, "events": head}, user=scorer).body["id"]
    count_applies["n"] = 0
    response = scorer_client.post(
        f"/api/games/{game_id}/events/", {"expected_seq": 900, "events": tail[:2]}, format="json"
    )
    assert response.status_code == 201
    assert count_applies["n"] == 2  # only the new events: the state at 900 came from the cache
    # With the cache gone the append still works, folding from events.
    cold_cache()
    count_applies["n"] = 0
    response = scorer_client.post(
        f"/api/games/{game_id}/events/", {"expected_seq": 902, "events": tail[2:]}, format="json"
    )
    assert response.status_code == 201
    assert count_applies["n"] == 902 + 3
    assert scorer_client.get(f"/api/games/{game_id}/state/").json() == state_json(fold({**rec, "events": head + tail}))


def test_an_append_another_worker_missed_folds_from_its_own_older_tip(
    scorer_client, club, scorer, count_applies, django_capture_on_commit_callbacks, monkeypatch
):
    """With several server processes, consecutive appends to a game land on different ones: a
    process that saw the game at seq p and is now asked to append at p + 2 folds the two events it
    missed from its own state at p, not everything since the last snapshot boundary."""
    rec = random_game(4)
    events = rec["events"]
    starts = hand_starts(rec)
    # mid-hand, well past the hand's start and off the every-100 snapshots
    p = next(
        p
        for p in range(900, len(events) - 5)
        if 20 <= p % snapshots.SNAPSHOT_EVERY <= 90 and not any(p - 20 <= s <= p + 5 for s in starts)
    )
    with django_capture_on_commit_callbacks(execute=True):
        game_id = game_import(club=club, record={**rec, "events": events[:p]}, user=scorer).body["id"]
    this_worker = (snapshots._states, snapshots._events)
    # another worker appends two events (its own caches; this one's are left as they were)
    monkeypatch.setattr(snapshots, "_states", LocalLru(snapshots.LOCAL_STATES))
    monkeypatch.setattr(snapshots, "_events", LocalLru(snapshots.LOCAL_STREAMS))
    with django_capture_on_commit_callbacks(execute=True):
        other = scorer_client.post(
            f"/api/games/{game_id}/events/", {"expected_seq": p, "events": events[p : p + 2]}, format="json"
        )
    assert other.status_code == 201
    monkeypatch.setattr(snapshots, "_states", this_worker[0])
    monkeypatch.setattr(snapshots, "_events", this_worker[1])
    count_applies["n"] = 0
    response = scorer_client.post(
        f"/api/games/{game_id}/events/", {"expected_seq": p + 2, "events": events[p + 2 : p + 5]}, format="json"
    )
    assert response.status_code == 201
    assert count_applies["n"] == 2 + 3  # the two it missed, then the batch
    assert scorer_client.get(f"/api/games/{game_id}/state/").json() == state_json(
        fold({**rec, "events": events[: p + 5]})
    )


def test_a_refused_batch_leaves_no_snapshot_behind(scorer_client, club, scorer, django_capture_on_commit_callbacks):
    """Snapshots are cached on commit only: a rolled-back batch must not poison the cache."""
    rec = random_game(6)
    with django_capture_on_commit_callbacks(execute=True):
        game_id = game_import(club=club, record={**rec, "events": rec["events"][:100]}, user=scorer).body["id"]
    good = rec["events"][100:103]
    bad = good[:2] + [{"type": "pass", "seat": 9}]
    with django_capture_on_commit_callbacks(execute=True):
        response = scorer_client.post(
            f"/api/games/{game_id}/events/", {"expected_seq": 100, "events": bad}, format="json"
        )
    assert response.status_code == 422
    game = Game.objects.get(pk=game_id)
    assert snapshots.cached_state(game, 102) is None and snapshots.cached_state(game, 103) is None
    with django_capture_on_commit_callbacks(execute=True):
        response = scorer_client.post(
            f"/api/games/{game_id}/events/", {"expected_seq": 100, "events": good}, format="json"
        )
    assert response.status_code == 201
    assert state_json(snapshots.cached_state(game, 103)) == state_json(fold({**rec, "events": rec["events"][:103]}))


def test_a_batch_rolled_back_after_the_engine_accepted_it_caches_nothing(
    club, scorer, django_capture_on_commit_callbacks
):
    """The engine accepts the batch and the rows are written, then the transaction around it rolls
    back: the snapshots the batch produced must not reach the cache, since nothing was stored.
    Caching waits for the commit."""
    from django.db import transaction

    from games.services import append_events

    rec = random_game(6)
    with django_capture_on_commit_callbacks(execute=True):
        game_id = game_import(club=club, record={**rec, "events": rec["events"][:100]}, user=scorer).body["id"]
    with pytest.raises(RuntimeError), django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            append_events(game=game_id, events=rec["events"][100:103], expected_seq=100, user=scorer)
            raise RuntimeError("the caller's transaction fails after the append")
    assert callbacks == []  # the rolled-back transaction's on-commit work was dropped
    game = Game.objects.get(pk=game_id)
    assert game.seq == 100
    assert snapshots.cached_state(game, 103) is None


def test_long_games_work_and_their_states_pickle(scorer_client, club, scorer):
    """300 score-sheet hands: the engine's undo checkpoints are a flat tuple, so even a long
    game's state pickles for the shared cache, and reads and appends agree with a fresh fold."""
    import pickle

    from tests.api.helpers import hand

    rec = {"variant": "nanking", "players": ["A", "B", "C", "D"], "events": [hand()] * 300}
    game_id = game_import(club=club, record=rec, user=scorer).body["id"]
    response = scorer_client.post(
        f"/api/games/{game_id}/events/", {"expected_seq": 300, "events": [hand((100, 0))]}, format="json"
    )
    assert response.status_code == 201
    assert scorer_client.get(f"/api/games/{game_id}/score/").json()["totals"] == [15100, 15000]
    assert scorer_client.get(f"/api/games/{game_id}/state/?at=150").json() == state_json(fold(rec, upto=150))
    assert state_json(pickle.loads(pickle.dumps(fold(rec)))) == state_json(fold(rec))


def test_a_failing_cache_does_not_fail_writes_or_reads(
    scorer_client, imported, monkeypatch, django_capture_on_commit_callbacks
):
    game, rec = imported

    def down(*args, **kwargs):
        raise ConnectionError("cache server down")

    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    assert scorer_client.get(f"/api/games/{game.pk}/state/?at=500").json() == state_json(fold(rec, upto=500))
    undo = {"type": "undo"}
    with django_capture_on_commit_callbacks(execute=True):
        response = scorer_client.post(
            f"/api/games/{game.pk}/events/", {"expected_seq": game.seq, "events": [undo]}, format="json"
        )
    assert response.status_code == 201
    assert scorer_client.get(f"/api/games/{game.pk}/").json()["status"] == "active"


def test_warm_state_reads_need_no_event_queries(anon, imported, django_assert_max_num_queries):
    game, rec = imported
    snapshots.state_at(game, game.seq)  # warm: boundaries and the stream's events cached in-process
    rng = random.Random(3)
    for at in rng.sample(range(game.seq), 10):
        with django_assert_max_num_queries(1):  # the game itself (visibility); anonymous: no token
            response = anon.get(f"/api/games/{game.pk}/state/?at={at}")
        assert response.json() == state_json(fold(rec, upto=at))
