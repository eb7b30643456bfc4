"""An import recognises a game the club already holds, whoever recorded it (issue 37 finding 6):
a game recorded by appends, exported, imported into its own club answers 200 `already_imported`
and the league counts it once (games.services.content, Game.content_hash)."""

from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bulk_store import fold_checked, store_records
from games.clubs import services as club_services
from games.engine import random_game
from games.models import Game, Membership, Player
from games.services import append_events, game_create
from games.services.content import record_content
from tests.api.helpers import PLAYERS, grand_double, hand, record

pytestmark = pytest.mark.django_db


def appended_game(scorer, club, events, players=PLAYERS, variant="nanking", options=None) -> int:
    game_id = game_create(club=club, variant=variant, options=options, players=list(players), user=scorer).body["id"]
    for seq, event in enumerate(events):
        append_events(game=game_id, events=[event], expected_seq=seq, user=scorer)
    return game_id


def import_into(client, club, rec):
    return client.post(f"/api/games/import/?club={club.pk}", rec, format="json")


def test_appended_game_exported_and_imported_into_its_club_is_already_there(
    scorer, scorer_client, club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # the rating task runs (in-process)
        game_id = appended_game(scorer, club, [grand_double(0)] * 3)
    exported = scorer_client.get(f"/api/games/{game_id}/record/").json()
    assert Game.objects.get(pk=game_id).status == "finished"
    league_before = Client().get(f"/clubs/{club.slug}/league.json").json()
    assert league_before["games"] == 1

    with django_capture_on_commit_callbacks(execute=True):
        response = import_into(scorer_client, club, exported)

    assert response.status_code == 200, response.json()
    body = response.json()
    assert {k: body[k] for k in ("id", "seq", "status", "already_imported")} == {
        "id": game_id,
        "seq": 3,
        "status": "finished",
        "already_imported": True,
    }
    assert set(body) == {"id", "seq", "status", "already_imported", "played_at", "played_at_source"}
    assert Game.objects.filter(club=club).count() == 1
    assert Client().get(f"/clubs/{club.slug}/league.json").json()["games"] == 1


def test_a_real_game_appended_event_by_event_then_reimported(scorer, scorer_client, club):
    rec = random_game(7, players=PLAYERS)
    game_id = appended_game(scorer, club, rec["events"], options=rec.get("options"))
    exported = scorer_client.get(f"/api/games/{game_id}/record/").json()
    response = import_into(scorer_client, club, exported)
    assert response.status_code == 200 and response.json()["id"] == game_id
    assert Game.objects.filter(club=club).count() == 1


def test_the_hash_an_append_extends_equals_the_hash_of_the_whole_record(scorer, club):
    events = [hand(), hand((30, 70)), {"type": "undo"}, hand((0, 100))]
    game_id = game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    append_events(game=game_id, events=events[:1], expected_seq=0, user=scorer)
    append_events(game=game_id, events=events[1:], expected_seq=1, user=scorer)
    game = Game.objects.get(pk=game_id)
    assert game.content_hash == record_content("nanking", None, {"format": "tichu-record/1"}, events)


def test_other_players_or_other_events_are_another_game(scorer, scorer_client, club):
    appended_game(scorer, club, [grand_double(0)] * 3)
    others = import_into(scorer_client, club, record([grand_double(0)] * 3, players=["Ann", "Bob", "Cid", "Zed"]))
    assert others.status_code == 201
    shorter = import_into(scorer_client, club, record([grand_double(0)] * 2))
    assert shorter.status_code == 201
    with_meta = import_into(scorer_client, club, record([grand_double(0)] * 3, meta={"tracker_id": 12}))
    assert with_meta.status_code == 201  # an importer's meta tells two games with equal events apart
    assert Game.objects.filter(club=club).count() == 4


def test_recognised_after_a_rename_and_whatever_the_case_of_the_names(scorer, scorer_client, club):
    game_id = appended_game(scorer, club, [grand_double(1)] * 3)
    ann = Player.objects.get(club=club, name="Ann")
    Membership.objects.filter(club=club, user=scorer).update(role="admin")
    club_services.player_rename(player=ann, actor=scorer, name="Annabel")
    exported = scorer_client.get(f"/api/games/{game_id}/record/").json()
    assert exported["players"][0] == "Annabel"
    assert import_into(scorer_client, club, exported).json()["id"] == game_id
    shouted = {**exported, "players": [n.upper() for n in exported["players"]]}
    assert import_into(scorer_client, club, shouted).json()["id"] == game_id


def test_another_club_gets_its_own_copy(scorer, scorer_client, club, make_club):
    game_id = appended_game(scorer, club, [grand_double(0)] * 3)
    exported = scorer_client.get(f"/api/games/{game_id}/record/").json()
    other = make_club("other")
    Membership.objects.create(club=other, user=scorer, role="scorer")
    assert import_into(scorer_client, other, exported).status_code == 201


def test_the_bulk_import_recognises_an_appended_game(scorer, scorer_client, club):
    game_id = appended_game(scorer, club, [grand_double(0)] * 3)
    exported = scorer_client.get(f"/api/games/{game_id}/record/").json()
    [(game, created)] = store_records(club=club, checked=[fold_checked(exported)])
    assert (game.pk, created) == (game_id, False)
    assert Game.objects.filter(club=club).count() == 1


def test_an_imported_game_appended_to_keeps_a_hash_its_new_export_finds(scorer, scorer_client, club):
    imported = import_into(scorer_client, club, record([hand()], meta={"source": "paper"})).json()["id"]
    append_events(game=imported, events=[hand((30, 70))], expected_seq=1, user=scorer)
    exported = scorer_client.get(f"/api/games/{imported}/record/").json()
    body = import_into(scorer_client, club, exported).json()
    assert {k: body[k] for k in ("id", "seq", "status", "already_imported")} == {
        "id": imported,
        "seq": 2,
        "status": "active",
        "already_imported": True,
    }


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), batches=st.lists(st.integers(1, 40), min_size=1, max_size=8))
def test_any_batching_of_the_appends_gives_the_import_hash_of_the_record(scorer, club, seed, batches):
    """Property: however a game's events are cut into appends, its stored content hash is the one
    the import computes over the whole record."""
    rec = random_game(seed, players=PLAYERS)
    game_id = game_create(club=club, variant="nanking", options=rec.get("options"), players=PLAYERS, user=scorer).body[
        "id"
    ]
    events, seq, i = rec["events"], 0, 0
    while seq < len(events):
        size = batches[i % len(batches)]
        append_events(game=game_id, events=events[seq : seq + size], expected_seq=seq, user=scorer)
        seq, i = min(seq + size, len(events)), i + 1
    header = {"format": "tichu-record/1"}
    assert Game.objects.get(pk=game_id).content_hash == record_content("nanking", rec.get("options"), header, events)


def test_a_game_row_made_outside_the_services_gets_its_hash_too(scorer, scorer_client, club):
    """A tournament's table games are made with Game.objects.create (games.tournaments.services)."""
    game = Game.objects.create(club=club, variant="nanking", options=None, header={"format": "tichu-record/1"})
    seats = [
        game.seats.create(seat=i, player=Player.objects.get_or_create(club=club, name=n)[0])
        for i, n in enumerate(PLAYERS)
    ]
    assert len(seats) == 4 and game.content_hash is not None
    append_events(game=game.pk, events=[grand_double(0)] * 3, expected_seq=0, user=scorer)
    exported = scorer_client.get(f"/api/games/{game.pk}/record/").json()
    assert import_into(scorer_client, club, exported).json()["id"] == game.pk
