"""A game whose source ended before the game did (a truncated BSW log, a tracker sheet that
stopped) is stored as *unfinished*, not "in play" for ever: on every import path (the API, the
command, the bulk store of `--workers`), on the club page and the game page; its cards are shown
as a finished game's; it is not rated. The club's latest evening counts finished games only
(issue 39 item 4)."""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from django.test import Client

from games.bulk_store import fold_checked, store_records
from games.engine import random_game, read_bsw
from games.models import Club, Game
from games.services import append_events, game_import
from tests.corpus import CORPUS, needs_corpus

TRUNCATED = CORPUS / "bsw-tich_me" / "2241402.tch"  # 10 hand headers, 9 with Ergebnis
COMPLETE = CORPUS / "bsw-tich_me" / "2241381.tch"

pytestmark = pytest.mark.django_db


def _log(path) -> str:
    return path.read_text(encoding="latin-1")


@needs_corpus
def test_a_truncated_bsw_log_imported_through_the_api_is_unfinished_not_in_play(scorer_client, club):
    response = scorer_client.post(
        f"/api/games/import-bsw/?club={club.pk}", {"log": _log(TRUNCATED), "game_id": "2241402"}, format="json"
    )
    assert response.status_code == 201, response.json()
    (game_id,) = response.json()["game_ids"]
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.UNFINISHED
    assert scorer_client.get(f"/api/games/{game_id}/").json()["status"] == "unfinished"
    page = Client().get(f"/clubs/{club.slug}/").content.decode()
    row = re.search(rf'<tr data-game="{game_id}">.*?</tr>', page, re.S).group(0)
    assert "unfinished" in row and "in play" not in row
    detail = Client().get(f"/games/{game_id}/").content.decode()
    assert "Unfinished" in detail


@needs_corpus
def test_an_unfinished_game_shows_its_cards_as_a_finished_one_does(scorer_client, club):
    game_import(club=club, record=read_bsw(_log(TRUNCATED), game_id="2241402")[0].record, user=None)
    game = Game.objects.get(club=club)
    page = Client().get(f"/games/{game.pk}/replay/").content.decode()
    assert 'id="hidden-note"' not in page  # "This game is still being played: ..." is for games in play


@needs_corpus
def test_the_bulk_store_marks_the_truncated_game_unfinished_and_the_complete_one_finished():
    club = Club.objects.create(slug="bulk", name="Bulk", visibility="public")
    records = [r.record for path in (TRUNCATED, COMPLETE) for r in read_bsw(_log(path), lax=True)]
    with transaction.atomic():
        stored = store_records(club=club, checked=[fold_checked(r) for r in records])
    statuses = [Game.objects.get(pk=g.pk).status for g, _ in stored]
    assert statuses == [Game.Status.UNFINISHED, Game.Status.FINISHED]


def test_a_record_that_says_its_source_ended_is_unfinished_and_one_that_does_not_is_in_play(club):
    whole = random_game(3, players=["Ann", "Bob", "Cid", "Dee"])
    half = {**whole, "events": whole["events"][: len(whole["events"]) // 2]}
    live = game_import(club=club, record=half, user=None).body
    ended = game_import(club=club, record={**half, "meta": {"source_ended": True}}, user=None).body
    assert (live["status"], ended["status"]) == ("active", "unfinished")


def test_an_event_appended_to_an_unfinished_game_keeps_it_unfinished(club, scorer):
    whole = random_game(4, players=["Ann", "Bob", "Cid", "Dee"])
    cut = len(whole["events"]) // 2
    body = game_import(
        club=club, record={**whole, "events": whole["events"][:cut], "meta": {"source_ended": True}}, user=None
    ).body
    after = append_events(game=body["id"], events=whole["events"][cut : cut + 1], expected_seq=cut, user=scorer).body
    assert after["status"] == "unfinished"


def test_the_latest_evening_counts_finished_games_only(club):
    players = ["Ann", "Bob", "Cid", "Dee"]
    done = random_game(1, players=players)
    game_import(club=club, record=done, user=None)
    unfinished = random_game(2, players=players)
    game_import(club=club, record={**unfinished, "events": unfinished["events"][:40]}, user=None)
    page = Client().get(f"/clubs/{club.slug}/").content.decode()
    evening = page[page.index('id="latest-evening"') : page.index("</section>")]
    assert "2 games, 1 finished, 1 in play" in evening
    tally = re.search(r'<p class="tally">(.*?)</p>', evening, re.S).group(1)
    # each of the four played one finished game: "1/1" or "0/1", never "x/2"
    assert re.findall(r"\d+/(\d+)", tally) == ["1"] * 4, tally
    assert sorted(re.findall(r"(\d+)/\d+", tally)) == ["0", "0", "1", "1"], tally


def test_a_player_of_an_unfinished_game_is_in_no_open_game(club):
    from games.clubs.services import open_game_of
    from games.models import Player

    whole = random_game(6, players=["Ann", "Bob", "Cid", "Dee"])
    half = {**whole, "events": whole["events"][: len(whole["events"]) // 2]}
    game_import(club=club, record={**half, "meta": {"source_ended": True}}, user=None)
    assert open_game_of(Player.objects.get(club=club, name="Ann")) is None
    live = game_import(club=club, record=half, user=None).body  # the same hands, in play
    assert open_game_of(Player.objects.get(club=club, name="Ann")) == live["id"]
