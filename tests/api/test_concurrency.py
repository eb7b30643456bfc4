"""Racing writers on PostgreSQL: 8 threads, each with its own user, token and database
connection, make 200 append attempts each on one game through the HTTP API, always with
`expected_seq`. No event is lost or duplicated, seq has no gap, and every loser gets a 409."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection

from games.engine import fold, random_game, state_json
from games.models import Event, Game, Membership
from games.services import game_create
from tests.conftest import client_for

WRITERS = 8
ATTEMPTS = 200


@pytest.mark.postgres
def test_racing_appends_lose_nothing_duplicate_nothing_and_losers_get_409(transactional_db, club, make_user, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"writes": "100000/minute"}}
    rec = random_game(21)
    events = rec["events"]
    assert len(events) >= WRITERS * ATTEMPTS // 2
    users = [make_user(f"writer{w}") for w in range(WRITERS)]
    for user in users:
        Membership.objects.create(club=club, user=user, role="scorer")
    game_id = game_create(club=club, variant="nanking", options=None, players=rec["players"], user=users[0]).body["id"]

    start = threading.Barrier(WRITERS)
    results: list[list[tuple]] = [[] for _ in range(WRITERS)]

    def writer(w: int) -> None:
        client = client_for(users[w])
        seq = 0
        try:
            start.wait()
            for _ in range(ATTEMPTS):
                if seq >= len(events):
                    break
                response = client.post(
                    f"/api/games/{game_id}/events/", {"expected_seq": seq, "events": [events[seq]]}, format="json"
                )
                body = response.json()
                results[w].append((response.status_code, seq, body))
                if response.status_code == 201:
                    seq = body["seq"]
                elif response.status_code == 409:
                    seq = body["current_seq"]
                else:
                    break
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    outcomes = Counter(status for rows in results for status, _, _ in rows)
    assert set(outcomes) <= {201, 409}, outcomes
    assert sum(outcomes.values()) == WRITERS * ATTEMPTS
    assert outcomes[409] > 0, "the writers never raced: the test proved nothing"
    wins = {}  # seq -> writer
    for w, rows in enumerate(results):
        for status, expected, body in rows:
            if status == 201:
                assert (body["first_seq"], body["seq"]) == (expected + 1, expected + 1)
                assert expected + 1 not in wins, "two writers were told they stored the same seq"
                wins[expected + 1] = w
            else:
                assert body["code"] == "seq_conflict" and body["expected_seq"] == expected
                assert body["current_seq"] > expected  # the loser really was behind

    stored = list(
        Event.objects.filter(game_id=game_id)
        .order_by("seq")
        .values_list("seq", "recorded_by__username", "type", "payload")
    )
    total = len(stored)
    assert total == outcomes[201] == len(wins)
    assert [row[0] for row in stored] == list(range(1, total + 1))  # no gap, no duplicate
    assert [{"type": t, **p} for _, _, t, p in stored] == events[:total]  # nothing lost, in order
    assert all(stored[seq - 1][1] == f"writer{w}" for seq, w in wins.items())  # each 201 is its writer's row
    assert Game.objects.get(pk=game_id).seq == total
    response = client_for(users[0]).get(f"/api/games/{game_id}/state/")
    assert response.json() == state_json(fold({**rec, "events": events[:total]}))


IMPORTERS = 6


@pytest.mark.postgres
def test_racing_imports_of_the_same_record_store_one_game(transactional_db, club, make_user, settings):
    """Content idempotency under a race: the unique (club, import_hash) decides, every loser
    answers 200 with the winner's game, nothing is stored twice."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"writes": "100000/minute"}}
    rec = random_game(22)
    users = [make_user(f"importer{w}") for w in range(IMPORTERS)]
    for user in users:
        Membership.objects.create(club=club, user=user, role="scorer")
    start = threading.Barrier(IMPORTERS)
    answers: list[tuple[int, dict]] = []

    def importer(w: int) -> None:
        try:
            start.wait()
            response = client_for(users[w]).post(f"/api/games/import/?club={club.pk}", rec, format="json")
            answers.append((response.status_code, response.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=importer, args=(w,)) for w in range(IMPORTERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(status for status, _ in answers) == [200] * (IMPORTERS - 1) + [201], answers
    assert len({body["id"] for _, body in answers}) == 1
    assert Game.objects.count() == 1
    assert Event.objects.count() == len(rec["events"])
