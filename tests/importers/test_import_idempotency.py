"""Imports are idempotent by content and by key, and atomic per request (issue 14, finding 15).

- The same content imported again into a club (the same record, the same game of a BSW log, the
  same file through a command) stores nothing and answers with the games already there.
- `Idempotency-Key` on POST /api/games/import/ and /api/games/import-bsw/: a retry replays the
  first answer; the same key with another body is 422.
- Everything one request stores commits together: a failure midway stores nothing.
BSW logs are written by the engine's own exporter from bot-played games: no corpus needed."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from games import services
from games.engine import export_bsw, random_game
from games.models import Club, Event, Game, Membership
from tests.api.helpers import grand_double, hand, record

pytestmark = pytest.mark.django_db

LOG_ONE = export_bsw(random_game(3))
LOG_TWO = LOG_ONE + "\n" + export_bsw(random_game(4))


def import_record(client, club, body, **headers):
    return client.post(f"/api/games/import/?club={club.pk}", body, format="json", headers=headers)


def import_bsw(client, club, log, **headers):
    return client.post(f"/api/games/import-bsw/?club={club.pk}", {"log": log}, format="json", headers=headers)


# --- by content ----------------------------------------------------------------------------------


def test_the_same_record_imported_twice_is_stored_once(scorer_client, club):
    body = record([grand_double(), grand_double(), grand_double()], meta={"source": "sheet 7"})
    first = import_record(scorer_client, club, body)
    assert first.status_code == 201 and "already_imported" not in first.json()
    again = import_record(scorer_client, club, body)
    assert again.status_code == 200, again.content
    assert again.json() == {**first.json(), "already_imported": True}
    assert Game.objects.count() == 1 and Event.objects.count() == 3


def test_another_club_or_other_content_is_another_game(scorer_client, club, make_club, scorer):
    other = make_club("other")
    Membership.objects.create(club=other, user=scorer, role=Membership.Role.SCORER)
    body = record([hand()])
    assert import_record(scorer_client, club, body).status_code == 201
    assert import_record(scorer_client, other, body).status_code == 201
    assert import_record(scorer_client, club, record([hand()], meta={"n": 2})).status_code == 201
    assert Game.objects.count() == 3


def test_the_same_bsw_log_imported_twice_stores_its_games_once(scorer_client, club):
    first = import_bsw(scorer_client, club, LOG_TWO)
    assert first.status_code == 201 and first.json()["stored"] == 2, first.json()
    again = import_bsw(scorer_client, club, LOG_TWO)
    assert again.status_code == 200, again.content
    report = again.json()
    assert report["stored"] == 0 and report["already_imported"] == 2
    assert report["game_ids"] == first.json()["game_ids"]
    assert Game.objects.count() == 2
    # a log holding one known game and one new: only the new one is stored
    third = import_bsw(scorer_client, club, LOG_ONE + "\n" + export_bsw(random_game(5)))
    assert (third.json()["stored"], third.json()["already_imported"]) == (1, 1)
    assert third.json()["game_ids"][0] == first.json()["game_ids"][0]
    assert Game.objects.count() == 3


# --- by key --------------------------------------------------------------------------------------


def test_an_idempotency_key_on_the_bsw_import_replays_the_first_answer(scorer_client, club):
    first = import_bsw(scorer_client, club, LOG_ONE, **{"Idempotency-Key": "bsw-1"})
    assert first.status_code == 201
    retry = import_bsw(scorer_client, club, LOG_ONE, **{"Idempotency-Key": "bsw-1"})
    assert retry.status_code == 201 and retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    reused = import_bsw(scorer_client, club, LOG_TWO, **{"Idempotency-Key": "bsw-1"})
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency_key_reused"
    bad = import_bsw(scorer_client, club, LOG_ONE, **{"Idempotency-Key": ""})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_idempotency_key"
    assert Game.objects.count() == 1


def test_an_idempotency_key_on_the_record_import_replays_even_a_duplicate(scorer_client, club):
    body = record([hand()])
    assert import_record(scorer_client, club, body).status_code == 201
    keyed = import_record(scorer_client, club, body, **{"Idempotency-Key": "r-1"})
    assert keyed.status_code == 200 and keyed.json()["already_imported"] is True
    retry = import_record(scorer_client, club, body, **{"Idempotency-Key": "r-1"})
    assert retry.status_code == 200 and retry["Idempotent-Replayed"] == "true" and retry.json() == keyed.json()


# --- atomic per request --------------------------------------------------------------------------


def test_a_bsw_import_failing_midway_stores_nothing(scorer_client, club, monkeypatch):
    real = services.events._insert_events  # the append's insert, which the import uses too
    calls = []

    def insert_then_fail(**kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("the worker died")
        return real(**kwargs)

    monkeypatch.setattr(services.events, "_insert_events", insert_then_fail)
    scorer_client.raise_request_exception = False
    response = import_bsw(scorer_client, club, LOG_TWO)
    assert response.status_code == 500 and response.json()["code"] == "server_error"
    assert len(calls) == 2
    assert Game.objects.count() == 0 and Event.objects.count() == 0
    monkeypatch.setattr(services.events, "_insert_events", real)
    assert import_bsw(scorer_client, club, LOG_TWO).json()["stored"] == 2


# --- the commands --------------------------------------------------------------------------------


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.fixture
def cmd_club(db):
    return Club.objects.create(slug="c", name="C")


def test_import_bsw_skips_and_reports_a_file_already_imported(cmd_club, tmp_path):
    (tmp_path / "a.tch").write_text(LOG_TWO, encoding="latin-1")
    run("import_bsw", str(tmp_path), "--club", "c")
    assert Game.objects.count() == 2
    report = json.loads(run("import_bsw", str(tmp_path), "--club", "c", "--json"))
    assert report[0]["stored"] == 0 and report[0]["already_imported"] == 2
    assert "already imported" in run("import_bsw", str(tmp_path), "--club", "c")
    assert Game.objects.count() == 2


def test_import_records_skips_and_reports_a_file_already_imported(cmd_club, tmp_path):
    (tmp_path / "r.json").write_text(json.dumps([record([hand()]), record([grand_double()])]), encoding="utf-8")
    assert "2 games stored" in run("import_records", str(tmp_path), "--club", "c")
    text = run("import_records", str(tmp_path), "--club", "c")
    assert "r.json: already imported" in text and "0 games stored" in text
    assert Game.objects.count() == 2


def _tracker_file(path) -> None:
    hand_ = {
        "outFirst": 0,
        "cardScore0": 60,
        "cardScore1": 40,
        **{f"tichuCall{s}": False for s in range(4)},
        **{f"grandTichuCall{s}": False for s in range(4)},
    }
    games = [
        {
            "id": g,
            "players": [0, 1, 2, 3],
            "hands": [hand_] * (g + 1),
            "team1Score": 60 * (g + 1),
            "team2Score": 40 * (g + 1),
        }
        for g in range(2)
    ]
    path.write_text(
        json.dumps({"version": 1, "players": [{"id": i, "name": f"P{i}"} for i in range(4)], "games": games})
    )


def test_import_tracker_skips_and_reports_a_file_already_imported(cmd_club, tmp_path):
    path = tmp_path / "tracker.json"
    _tracker_file(path)
    assert "2 stored" in run("import_tracker", str(path), "--club", "c")
    text = run("import_tracker", str(path), "--club", "c")
    assert "0 stored" in text and "2 already imported" in text
    assert Game.objects.count() == 2
