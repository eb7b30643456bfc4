"""The common append on PostgreSQL without the transaction (games.services.events,
`sql.append_events_if_unchanged`): the game read without the lock, then one statement that stores
the batch only if the game row is still the version read. Whatever another writer does between the
read and the statement, the answer is the locked append's: a competing append (committed, or
still holding the row when the statement starts) makes this one a 409 `seq_conflict` with one
batch stored, a change of the row that keeps its seq sends the batch
to the lock (stored once), a role taken away is a 403 with nothing stored. The other guarantees
(keys, finishing a game, a caller's transaction) keep the lock. PostgreSQL only (`transactional_db`:
the path is taken outside a transaction, and the test's own would hide it); SQLite always locks."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import engine, hooks, snapshots, sql
from games.models import Event, Game, Membership
from games.services import SeqConflict, append_events, game_create
from tests.conftest import client_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("the append without the lock is PostgreSQL's (SQLite keeps the transaction)")


def new_game(club, scorer) -> int:
    return game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]


def statements(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries]


def between_read_and_write(monkeypatch, action) -> list[bool]:
    """Run `action` once, in a thread of its own (its own connection, committed), after the
    append read the game and before its statement; what each statement returned comes back."""
    real = sql.append_events_if_unchanged
    returned: list[bool] = []

    def racing(*args, **kwargs):
        if not returned and not getattr(racing, "ran", False):
            racing.ran = True  # type: ignore[attr-defined]

            def other() -> None:
                try:
                    action()
                finally:
                    connection.close()

            thread = threading.Thread(target=other)
            thread.start()
            thread.join()
        stored = real(*args, **kwargs)
        returned.append(stored)
        return stored

    monkeypatch.setattr(sql, "append_events_if_unchanged", racing)
    return returned


def stored(game_id: int) -> list[tuple]:
    return list(Event.objects.filter(game_id=game_id).order_by("seq").values_list("seq", "type", "payload"))


def test_the_common_append_is_one_statement_after_one_read_outside_a_transaction(club, scorer):
    events = engine.random_game(3)["events"]
    game_id = new_game(club, scorer)
    with CaptureQueriesContext(connection) as queries:
        result = append_events(game=game_id, events=[events[0]], expected_seq=0, user=scorer)
    sent = statements(queries)
    assert len(sent) == 2, sent
    assert "FOR UPDATE" not in sent[0] and "xmin" in sent[0], sent
    assert sent[1].startswith("WITH head AS (UPDATE"), sent
    assert result.body["seq"] == 1 and result.body["first_seq"] == 1
    assert Game.objects.get(pk=game_id).seq == 1


@pytest.mark.parametrize("seed", [5, 8])
def test_unlocked_and_locked_appends_store_the_same_rows_and_heads(club, scorer, seed):
    events = engine.random_game(seed)["events"][:40]
    unlocked, locked = new_game(club, scorer), new_game(club, scorer)
    seq = 0
    for size in (1, 3, 1, 7, 2, 1, 5):  # batches of several rows as well as the usual one
        batch = events[seq : seq + size]
        append_events(game=unlocked, events=batch, expected_seq=seq, user=scorer)
        with transaction.atomic():  # a caller's transaction: the locked append
            append_events(game=locked, events=batch, expected_seq=seq, user=scorer)
        seq += size
    assert stored(unlocked) == stored(locked) and len(stored(unlocked)) == seq
    by = set(Event.objects.filter(game_id__in=[unlocked, locked]).values_list("recorded_by", flat=True))
    assert by == {scorer.pk}
    heads = Game.objects.filter(pk__in=[unlocked, locked]).order_by("pk")
    a, b = [(g.seq, g.status, g.finished_at, g.content_hash) for g in heads]
    assert a == b


def test_an_append_between_the_read_and_the_statement_makes_this_one_a_409(club, scorer, make_user, monkeypatch):
    events = engine.random_game(4)["events"]
    game_id = new_game(club, scorer)
    rival = make_user("rival")
    Membership.objects.create(club=club, user=rival, role="scorer")
    rival_answers = []
    returned = between_read_and_write(
        monkeypatch,
        lambda: rival_answers.append(
            client_for(rival).post(
                f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": [events[0]]}, format="json"
            )
        ),
    )
    response = client_for(scorer).post(
        f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": [events[0]]}, format="json"
    )
    assert rival_answers[0].status_code == 201
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "seq_conflict" and response.json()["current_seq"] == 1
    assert returned == [True, False]  # the rival's statement stored, this one's found the row moved
    assert [(s, by) for s, by in Event.objects.filter(game_id=game_id).values_list("seq", "recorded_by")] == [
        (1, rival.pk)
    ]


def test_a_statement_waiting_on_a_locked_append_stores_nothing_once_that_one_commits(
    club, scorer, make_user, monkeypatch
):
    """The statement starts while a locked append holds the row (inserted, not committed): it
    waits for the row's lock, then finds a newer version (PostgreSQL's re-check of an updated
    row) and stores nothing; the locked append of this request then answers 409."""
    events = engine.random_game(14)["events"]
    game_id = new_game(club, scorer)
    rival = make_user("rival")
    Membership.objects.create(club=club, user=rival, role="scorer")
    holding, release, waiting = threading.Event(), threading.Event(), threading.Event()

    def rival_append() -> None:
        try:
            with transaction.atomic():  # a caller's transaction: the locked append
                append_events(game=game_id, events=[events[0]], expected_seq=0, user=rival)
                holding.set()
                release.wait(60)
        finally:
            connection.close()

    def watch() -> None:  # lets the rival commit once this append's statement waits for the row
        try:
            for _ in range(600):
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                        "AND query LIKE 'WITH head AS (UPDATE%'"
                    )
                    if cursor.fetchone()[0]:
                        waiting.set()
                        break
                release.wait(0.05)
        finally:
            release.set()
            connection.close()

    rival_thread = threading.Thread(target=rival_append)
    rival_thread.start()
    assert holding.wait(60)
    watcher = threading.Thread(target=watch)
    watcher.start()
    real, returned = sql.append_events_if_unchanged, []

    def recorded(*args, **kwargs):
        returned.append(real(*args, **kwargs))
        return returned[-1]

    # read before the rival commits: the row as it was (seq 0); the statement then waits
    game = Game.objects.get(pk=game_id)
    assert game.seq == 0
    monkeypatch.setattr(sql, "append_events_if_unchanged", recorded)
    try:
        with pytest.raises(SeqConflict) as refused:
            append_events(game=game_id, events=[events[0]], expected_seq=0, user=scorer)
    finally:
        release.set()
        rival_thread.join()
        watcher.join()
    assert waiting.is_set()  # it did wait for the rival's lock
    assert returned == [False] and refused.value.current_seq == 1
    assert [(s, by) for s, by in Event.objects.filter(game_id=game_id).values_list("seq", "recorded_by")] == [
        (1, rival.pk)
    ]


def test_a_change_of_the_row_that_keeps_its_seq_sends_the_batch_to_the_lock(club, scorer, monkeypatch):
    events = engine.random_game(6)["events"]
    game_id = new_game(club, scorer)
    append_events(game=game_id, events=[events[0]], expected_seq=0, user=scorer)
    returned = between_read_and_write(
        monkeypatch, lambda: Game.objects.filter(pk=game_id).update(header=Game.objects.get(pk=game_id).header)
    )
    with CaptureQueriesContext(connection) as queries:
        result = append_events(game=game_id, events=[events[1]], expected_seq=1, user=scorer)
    assert returned == [False]
    assert any("FOR UPDATE" in s for s in statements(queries))  # then stored under the lock
    assert result.body["seq"] == 2 and [s for s, _, _ in stored(game_id)] == [1, 2]


def test_a_role_taken_away_between_the_read_and_the_statement_stores_nothing(club, scorer, monkeypatch):
    events = engine.random_game(7)["events"]
    game_id = new_game(club, scorer)
    returned = between_read_and_write(
        monkeypatch, lambda: Membership.objects.filter(club=club, user=scorer).update(role="viewer")
    )
    response = client_for(scorer).post(
        f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": [events[0]]}, format="json"
    )
    assert returned == [False]
    assert response.status_code == 403, response.content
    assert stored(game_id) == [] and Game.objects.get(pk=game_id).seq == 0


def test_an_illegal_event_stores_nothing_and_keeps_no_snapshot(club, scorer):
    events = engine.random_game(9)["events"]
    game_id = new_game(club, scorer)
    append_events(game=game_id, events=events[:2], expected_seq=0, user=scorer)
    response = client_for(scorer).post(
        f"/api/games/{game_id}/events/", {"expected_seq": 2, "events": [events[1]]}, format="json"
    )
    assert response.status_code == 422, response.content
    assert len(stored(game_id)) == 2 and Game.objects.get(pk=game_id).seq == 2
    ok = client_for(scorer).post(
        f"/api/games/{game_id}/events/", {"expected_seq": 2, "events": [events[2]]}, format="json"
    )
    assert ok.status_code == 201 and ok.json()["seq"] == 3


def test_a_stale_expected_seq_is_refused_from_the_read(club, scorer):
    events = engine.random_game(10)["events"]
    game_id = new_game(club, scorer)
    append_events(game=game_id, events=[events[0]], expected_seq=0, user=scorer)
    with CaptureQueriesContext(connection) as queries, pytest.raises(SeqConflict) as refused:
        append_events(game=game_id, events=[events[0]], expected_seq=0, user=scorer)
    assert refused.value.current_seq == 1
    assert len(statements(queries)) == 1 and "FOR UPDATE" not in statements(queries)[0]  # the read alone
    assert len(stored(game_id)) == 1


def test_an_idempotency_key_keeps_the_transaction(club, scorer):
    events = engine.random_game(12)["events"]
    game_id = new_game(club, scorer)
    with CaptureQueriesContext(connection) as queries:
        first = append_events(game=game_id, events=[events[0]], expected_seq=0, user=scorer, idempotency_key="k-1")
    again = append_events(game=game_id, events=[events[0]], expected_seq=0, user=scorer, idempotency_key="k-1")
    assert any("FOR UPDATE" in s for s in statements(queries)), statements(queries)
    assert not any(s.startswith("WITH head") for s in statements(queries))
    assert again.replayed and first.body == again.body
    assert len(stored(game_id)) == 1


def test_the_batch_that_finishes_a_game_takes_the_lock_for_its_hook(club, scorer, monkeypatch):
    events = engine.random_game(13)["events"]
    game_id = new_game(club, scorer)
    calls: list[bool] = []
    monkeypatch.setattr(hooks.finished_game_changed, "_receivers", list(hooks.finished_game_changed._receivers))
    hooks.finished_game_changed.connect(lambda game: calls.append(connection.in_atomic_block))
    seq = 0
    while seq < len(events) - 1:
        batch = events[seq : min(seq + 200, len(events) - 1)]
        append_events(game=game_id, events=batch, expected_seq=seq, user=scorer)
        seq += len(batch)
    assert calls == [] and Game.objects.get(pk=game_id).status != Game.Status.FINISHED
    snapshots.forget_local()
    with CaptureQueriesContext(connection) as queries:
        append_events(game=game_id, events=events[seq:], expected_seq=seq, user=scorer)
    assert calls == [True]  # the hook (the rating outbox row) ran in the append's transaction
    assert any("FOR UPDATE" in s for s in statements(queries))
    assert not any(s.startswith("WITH head") for s in statements(queries))  # decided before any write
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
