"""Creating games and appending events over HTTP: atomic batches, expected_seq, rule errors,
idempotency keys, status and the rating task."""

from __future__ import annotations

from unittest import mock

import pytest

from games.models import Event, Game, IdempotencyKey
from tests.api.helpers import ILLEGAL_HAND, PLAYERS, grand_double, hand

pytestmark = pytest.mark.django_db


def create_game(client, club, players=PLAYERS, **extra) -> int:
    response = client.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": players, **extra}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def append(client, game_id, events, expected_seq, **headers):
    return client.post(
        f"/api/games/{game_id}/events/",
        {"expected_seq": expected_seq, "events": events},
        format="json",
        headers=headers,
    )


def stored(game_id) -> list[dict]:
    return [e.as_record_event() for e in Event.objects.filter(game_id=game_id).order_by("seq")]


def test_create_game_maps_names_to_club_players(scorer_client, club):
    game_id = create_game(scorer_client, club, players=["Ann", "Bob", "Ann2", "Dee"], options={"preset": "tiki"})
    body = scorer_client.get(f"/api/games/{game_id}/").json()
    assert body["players"] == ["Ann", "Bob", "Ann2", "Dee"]
    assert body["options"] == {"preset": "tiki"}
    assert (body["status"], body["seq"], body["club"]) == ("active", 0, club.pk)
    assert sorted(club.players.values_list("name", flat=True)) == ["Ann", "Ann2", "Bob", "Dee"]
    # A second game reuses the club's Player rows.
    second = create_game(scorer_client, club)
    assert club.players.count() == 5
    assert scorer_client.get(f"/api/games/{second}/").json()["player_ids"][0] == body["player_ids"][0]


def test_create_game_the_engine_refuses_is_422_and_stores_nothing(scorer_client, club):
    response = scorer_client.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": ["Ann", "Bob", "Cid"]}, format="json"
    )
    assert response.status_code in (400, 422)
    body = response.json()
    assert body["code"] and body["message"]
    assert Game.objects.count() == 0 and club.players.count() == 0


def test_append_batch_returns_new_seq_and_events_read_back(scorer_client, club):
    game_id = create_game(scorer_client, club)
    response = append(scorer_client, game_id, [hand(), hand((30, 70))], expected_seq=0)
    assert response.status_code == 201
    assert response.json() == {"id": game_id, "seq": 2, "status": "active", "appended": 2, "first_seq": 1}
    response = append(scorer_client, game_id, [hand((100, 0))], expected_seq=2)
    assert response.json()["seq"] == 3
    events = scorer_client.get(f"/api/games/{game_id}/events/?after=1").json()
    assert [e["seq"] for e in events["events"]] == [2, 3]
    assert [e["event"] for e in events["events"]] == [hand((30, 70)), hand((100, 0))]
    assert events["events"][0]["recorded_by"] == "scorer"
    assert events["seq"] == 3 and events["more"] is False
    limited = scorer_client.get(f"/api/games/{game_id}/events/?after=0&limit=2").json()
    assert [e["seq"] for e in limited["events"]] == [1, 2] and limited["more"] is True
    assert scorer_client.get(f"/api/games/{game_id}/score/").json()["totals"] == [180, 120]


def test_stale_expected_seq_is_409_with_current_seq_and_stores_nothing(scorer_client, club):
    game_id = create_game(scorer_client, club)
    append(scorer_client, game_id, [hand(), hand()], expected_seq=0)
    for stale in (0, 1, 3, 99):
        response = append(scorer_client, game_id, [hand()], expected_seq=stale)
        assert response.status_code == 409
        body = response.json()
        assert (body["code"], body["current_seq"], body["expected_seq"]) == ("seq_conflict", 2, stale)
        assert body["message"]
    assert len(stored(game_id)) == 2
    assert Game.objects.get(pk=game_id).seq == 2


def test_rule_violation_is_422_with_engine_error_and_batch_index_and_stores_nothing(scorer_client, club):
    game_id = create_game(scorer_client, club)
    append(scorer_client, game_id, [hand()], expected_seq=0)
    response = append(scorer_client, game_id, [hand(), hand(), ILLEGAL_HAND, hand()], expected_seq=1)
    assert response.status_code == 422
    body = response.json()
    assert body["ok"] is False
    assert body["index"] == 2
    assert body["error"]["code"] == "result_invalid"
    assert body["error"]["message"]
    assert (body["code"], body["message"]) == (body["error"]["code"], body["error"]["message"])
    # The two valid events before the bad one are not stored either.
    assert len(stored(game_id)) == 1
    assert Game.objects.get(pk=game_id).seq == 1
    # And the game still accepts the right next event at the old seq.
    assert append(scorer_client, game_id, [hand()], expected_seq=1).status_code == 201


def test_unknown_event_type_is_a_rule_error_at_its_index(scorer_client, club):
    game_id = create_game(scorer_client, club)
    response = append(scorer_client, game_id, [hand(), {"type": "teleport", "seat": 0}], expected_seq=0)
    assert response.status_code == 422
    assert response.json()["index"] == 1
    assert response.json()["error"]["code"] == "malformed"
    assert stored(game_id) == []


def test_idempotency_key_retry_returns_first_answer_and_stores_once(scorer_client, club):
    game_id = create_game(scorer_client, club)
    first = append(scorer_client, game_id, [hand()], expected_seq=0, **{"Idempotency-Key": "k-1"})
    assert first.status_code == 201
    retry = append(scorer_client, game_id, [hand()], expected_seq=0, **{"Idempotency-Key": "k-1"})
    assert retry.status_code == 201
    assert retry.json() == first.json()
    assert retry.headers.get("Idempotent-Replayed") == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert len(stored(game_id)) == 1
    # Still the first answer after the game moved on.
    append(scorer_client, game_id, [hand()], expected_seq=1)
    again = append(scorer_client, game_id, [hand()], expected_seq=0, **{"Idempotency-Key": "k-1"})
    assert (again.status_code, again.json()) == (201, first.json())
    assert len(stored(game_id)) == 2


def test_idempotency_key_with_another_body_is_422(scorer_client, club):
    game_id = create_game(scorer_client, club)
    append(scorer_client, game_id, [hand()], expected_seq=0, **{"Idempotency-Key": "k-2"})
    response = append(scorer_client, game_id, [hand((0, 100))], expected_seq=1, **{"Idempotency-Key": "k-2"})
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    assert len(stored(game_id)) == 1


def test_idempotency_keys_are_per_user(scorer_client, club, make_user):
    from games.models import Membership
    from tests.conftest import client_for

    other = make_user("other")
    Membership.objects.create(club=club, user=other, role="scorer")
    game_id = create_game(scorer_client, club)
    append(scorer_client, game_id, [hand()], expected_seq=0, **{"Idempotency-Key": "same"})
    response = append(client_for(other), game_id, [hand()], expected_seq=1, **{"Idempotency-Key": "same"})
    assert response.status_code == 201 and "Idempotent-Replayed" not in response.headers
    assert len(stored(game_id)) == 2


def test_failed_write_with_idempotency_key_remembers_nothing(scorer_client, club):
    game_id = create_game(scorer_client, club)
    bad = append(scorer_client, game_id, [ILLEGAL_HAND], expected_seq=0, **{"Idempotency-Key": "k-3"})
    assert bad.status_code == 422
    assert not IdempotencyKey.objects.exists()
    good = append(scorer_client, game_id, [hand()], expected_seq=0, **{"Idempotency-Key": "k-3"})
    assert good.status_code == 201 and len(stored(game_id)) == 1


def test_idempotent_game_create_and_import(scorer_client, club):
    body = {"club": club.pk, "variant": "nanking", "players": PLAYERS}
    first = scorer_client.post("/api/games/", body, format="json", headers={"Idempotency-Key": "create-1"})
    retry = scorer_client.post("/api/games/", body, format="json", headers={"Idempotency-Key": "create-1"})
    assert first.json() == retry.json() and Game.objects.count() == 1
    record = {"variant": "nanking", "players": PLAYERS, "events": [hand()]}
    first = scorer_client.post(
        f"/api/games/import/?club={club.pk}", record, format="json", headers={"Idempotency-Key": "imp"}
    )
    retry = scorer_client.post(
        f"/api/games/import/?club={club.pk}", record, format="json", headers={"Idempotency-Key": "imp"}
    )
    assert first.status_code == retry.status_code == 201
    assert first.json() == retry.json() and Game.objects.count() == 2 and Event.objects.count() == 1


def test_finishing_a_game_sets_status_and_queues_the_rating_task_on_commit(
    scorer_client, club, django_capture_on_commit_callbacks
):
    game_id = create_game(scorer_client, club)
    with mock.patch("games.ratings.tasks.update_ratings_for_game.apply_async") as delay:
        with django_capture_on_commit_callbacks(execute=True):
            append(scorer_client, game_id, [grand_double(0), grand_double(0)], expected_seq=0)
        assert Game.objects.get(pk=game_id).status == "active"
        delay.assert_not_called()
        with django_capture_on_commit_callbacks(execute=True):
            response = append(scorer_client, game_id, [grand_double(1), grand_double(0)], expected_seq=2)
        assert response.json()["status"] == "finished"
        delay.assert_called_once_with((game_id,))  # eager here: the outbox's publish
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.seq) == ("finished", 4) and game.finished_at is not None
    after_end = append(scorer_client, game_id, [hand()], expected_seq=4)
    assert after_end.status_code == 422 and after_end.json()["error"]["code"] == "game_over"
    # An undo of the last hand reopens the game.
    assert append(scorer_client, game_id, [{"type": "undo"}], expected_seq=4).json()["status"] == "active"
    assert Game.objects.get(pk=game_id).finished_at is None


def test_rating_task_is_not_queued_when_the_batch_fails(scorer_client, club, django_capture_on_commit_callbacks):
    game_id = create_game(scorer_client, club)
    with mock.patch("games.ratings.tasks.update_ratings_for_game.apply_async") as delay:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            response = append(scorer_client, game_id, [grand_double(0)] * 3 + [ILLEGAL_HAND], expected_seq=0)
        assert response.status_code == 422 and response.json()["index"] == 3
        assert callbacks == []
        delay.assert_not_called()
