"""Issue 30, findings 6-8: a tournament import is bounded in entrants, boards and error size before
any work is done, and idempotent by content and by Idempotency-Key; a tournament's events carry
only finite, bounded numbers, so two huge adjustments cannot break its standings for good."""

from __future__ import annotations

import json
import time

import pytest
from django.test import Client

from games import tournament as core
from games.models import Player
from games.tournaments.models import Tournament, TournamentEvent
from tests.tournament_api.test_api import append, create, register_pairs
from tests.tournament_api.test_aragos_import import aragos_example, import_aragos
from tests.tournament_api.test_results_import import away, evening, export, import_file  # noqa: F401 (away: a fixture)


def stored() -> tuple[int, int, int]:
    return Tournament.objects.count(), TournamentEvent.objects.count(), Player.objects.count()


@pytest.mark.django_db
def test_a_small_file_naming_8000_pairs_is_refused_at_once_naming_the_bound(club, scorer_client):
    """The probe's 170-byte file: 8,000 pairs, one board played by two of them."""
    data = {
        "no_pairs": 8000,
        "no_boards": 1,
        "hands": [{"board_no": 1, "ns_pair": 1, "ew_pair": 2, "ns_score": 10, "ew_score": 90}],
    }
    before = stored()
    start = time.perf_counter()
    response = import_aragos(scorer_client, data)
    assert time.perf_counter() - start < 2
    body = response.json()
    assert response.status_code == 400 and body["code"] == "too_many_entrants", body
    assert body["params"] == {"limit": core.MAX_ENTRIES, "count": 8000}
    assert str(core.MAX_ENTRIES) in body["message"]
    assert stored() == before


@pytest.mark.django_db
def test_a_million_boards_is_refused_with_a_small_error(club, scorer_client):
    response = import_aragos(scorer_client, {"no_pairs": 4, "no_boards": 1_000_000, "hands": []})
    body = response.json()
    assert response.status_code == 400 and body["code"] == "too_many_boards", body
    assert body["params"] == {"limit": core.MAX_BOARDS, "count": 1_000_000}
    assert len(response.content) < 1000


@pytest.mark.django_db
def test_boards_without_results_are_listed_ten_at_most(club, scorer_client):
    response = import_aragos(
        scorer_client,
        {
            "no_pairs": 4,
            "no_boards": core.MAX_BOARDS,
            "hands": [{"board_no": 1, "ns_pair": 1, "ew_pair": 2, "ns_score": 10, "ew_score": 90}],
        },
    )
    body = response.json()
    assert response.status_code == 400 and body["code"] == "aragos_incomplete", body
    assert body["params"]["count"] == core.MAX_BOARDS - 1 and len(body["params"]["boards"]) == 10
    assert "and 489 more" in body["message"] and len(response.content) < 1000


@pytest.mark.django_db
def test_more_hands_than_the_pairs_can_play_are_refused(club, scorer_client):
    hand = {"board_no": 1, "ns_pair": 1, "ew_pair": 2, "ns_score": 10, "ew_score": 90}
    response = import_aragos(scorer_client, {"no_pairs": 4, "no_boards": 1, "hands": [hand] * 1000})
    assert response.status_code == 400 and response.json()["code"] == "malformed"


@pytest.mark.django_db
def test_our_format_with_too_many_entrants_is_refused_before_the_roster_grows(club, away, scorer_client):
    data = export(evening(scorer_client))
    extra = [
        {"type": "entry_registered", "entry": f"x{i}", "players": [f"X{i}", f"Y{i}"]} for i in range(core.MAX_ENTRIES)
    ]
    data["events"] = extra + data["events"]
    before = stored()
    response = import_file(scorer_client, data)
    body = response.json()
    assert response.status_code == 400 and body["code"] == "too_many_entrants", body
    assert body["params"]["limit"] == core.MAX_ENTRIES
    assert stored() == before


@pytest.mark.django_db
def test_the_same_results_file_imported_twice_makes_one_tournament(club, away, scorer_client):
    data = export(evening(scorer_client))
    first = import_file(scorer_client, data)
    assert first.status_code == 201, first.json()
    before = stored()
    again = import_file(scorer_client, data)
    assert again.status_code == 200, again.json()
    assert again.json() == {**first.json(), "already_imported": True}
    assert stored() == before
    # another club may import the same file: content is per club
    assert import_file(scorer_client, data, club="home").status_code == 201


@pytest.mark.django_db
def test_the_same_aragos_file_imported_twice_makes_one_tournament(club, scorer_client):
    first = import_aragos(scorer_client, aragos_example())
    assert first.status_code == 201
    count = Tournament.objects.count()
    again = import_aragos(scorer_client, aragos_example())
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert again.json()["already_imported"] is True and Tournament.objects.count() == count
    # named otherwise, it is another import
    assert import_aragos(scorer_client, aragos_example(), name="Again").status_code == 201


def keyed(client, key, **body):
    return client.post(
        "/api/tournaments/import/",
        {"club": "home", "format": "aragos", **body},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


@pytest.mark.django_db
def test_an_import_honours_its_idempotency_key(club, scorer_client):
    first = keyed(scorer_client, "imp-1", results=aragos_example())
    assert first.status_code == 201, first.json()
    count = Tournament.objects.count()
    replay = keyed(scorer_client, "imp-1", results=aragos_example())
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert replay.json() == first.json() and Tournament.objects.count() == count
    other = keyed(scorer_client, "imp-1", results=aragos_example(), name="Other")
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert Tournament.objects.count() == count


@pytest.mark.django_db
def test_huge_adjustments_are_refused_and_the_tournament_still_reads(club, scorer_client):
    """The probe: two score_adjusted of vp 1e308, each 201, then every reading answered 500."""
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)
    for seq in (4, 4):
        response = append(
            scorer_client, tid, [{"type": "score_adjusted", "entry": "e0", "vp": 1e308, "reason": "probe"}], seq
        )
        body = response.json()
        assert response.status_code == 400 and body["code"] == "malformed", body
        assert body["params"]["rule"] == "number_out_of_range" and body["params"]["limit"] == core.MAX_VP
    for vp in (core.MAX_VP, core.MAX_VP):
        seq = scorer_client.get(f"/api/tournaments/{tid}/").json()["seq"]
        assert (
            append(
                scorer_client, tid, [{"type": "score_adjusted", "entry": "e0", "vp": vp, "reason": "bonus"}], seq
            ).status_code
            == 201
        )
    reader = Client()
    for path in ("standings/", "crosstable/", "record/", "results/", "results/?as=xlsx", "results/?as=standings.csv"):
        response = reader.get(f"/api/tournaments/{tid}/{path}")
        assert response.status_code == 200, path
    standings = reader.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    assert json.dumps(standings, allow_nan=False)
    assert next(r for r in standings if r["entry"] == "e0")["vp"] == 2 * core.MAX_VP
    for page in (
        f"/tournaments/{tid}/",
        f"/tournaments/{tid}/projector/",
        f"/tournaments/{tid}/standings/",
        f"/tournaments/{tid}/standings.pdf",
    ):
        assert scorer_client.get(page).status_code == 200, page


@pytest.mark.django_db
def test_our_format_with_too_many_events_is_refused_before_any_work(club, away, scorer_client):
    from games.tournaments.results_import import MAX_FILE_EVENTS

    data = export(evening(scorer_client))
    data["events"] = data["events"] + [{"type": "lots_drawn", "order": []}] * MAX_FILE_EVENTS
    before = stored()
    response = import_file(scorer_client, data)
    body = response.json()
    assert response.status_code == 400 and body["code"] == "too_many_events", body
    assert body["params"]["limit"] == MAX_FILE_EVENTS and stored() == before
