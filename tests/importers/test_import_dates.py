"""Imports keep the date each game was played (issue #19): Game.played_at from the BSW archive
folder or game id, from the Tichu-Tracker's creationDateTime; the API shows it and the ratings
follow it."""

from __future__ import annotations

import io
import json
import shutil
from datetime import datetime, timezone

import pytest
from django.core.management import call_command
from hypothesis import given
from hypothesis import strategies as st

from games.engine import bsw_dates
from games.models import Club, Game
from tests.corpus import CORPUS, needs_corpus

pytestmark = needs_corpus
UTC = timezone.utc


@pytest.fixture
def hist(db):
    return Club.objects.create(slug="hist", name="History", visibility="public")


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_bsw_logs_in_a_month_folder_are_dated_by_it_and_others_by_their_id(hist, tmp_path):
    (tmp_path / "201104").mkdir()
    shutil.copy(CORPUS / "bsw-tich_me" / "300357.tch", tmp_path / "201104" / "300357.tch")
    shutil.copy(CORPUS / "bsw-tich_me" / "2241381.tch", tmp_path / "2241381.tch")
    shutil.copy(CORPUS / "bsw-tich_me" / "demo_game.tch", tmp_path / "demo_game.tch")
    run("import_bsw", str(tmp_path), "--club", "hist", "--json")
    by_folder = Game.objects.get(header__meta__game_id="300357")
    assert by_folder.played_at == datetime(2011, 4, 1, tzinfo=UTC)
    assert by_folder.header["meta"]["played_at_source"] == bsw_dates.FROM_FOLDER
    by_id = Game.objects.get(header__meta__game_id="2241381")
    assert by_id.played_at == datetime(2019, 5, 19, tzinfo=UTC)  # an anchor of the estimate
    assert by_id.header["meta"]["played_at_source"] == bsw_dates.FROM_ID
    undated = Game.objects.get(header__meta__game_id=None)  # demo_game: no id, no folder
    assert "played_at" not in undated.header["meta"]
    assert abs((undated.played_at - undated.created_at).total_seconds()) < 5


def test_the_bsw_api_dates_by_the_game_id_and_shows_played_at(scorer_client, club):
    text = (CORPUS / "bsw-tich_me" / "2241381.tch").read_text(encoding="latin-1")
    response = scorer_client.post(
        f"/api/games/import-bsw/?club={club.pk}", {"log": text, "game_id": "1"}, format="json"
    )
    assert response.status_code == 201, response.json()
    (game_id,) = response.json()["game_ids"]
    shown = scorer_client.get(f"/api/games/{game_id}/").json()
    assert shown["played_at"].startswith("2007-01-09T19:03")


def test_tracker_games_keep_the_apps_dates(hist):
    data = json.loads((CORPUS / "tichu-tracker" / "allgames.converted.json").read_text(encoding="utf-8"))
    run("import_tracker", str(CORPUS / "tichu-tracker" / "allgames.converted.json"), "--club", "hist")
    stamps = {g["id"]: g["creationDateTime"] for g in data["games"]}
    games = list(Game.objects.filter(club=hist))
    assert len(games) == len(stamps) == 150
    for game in games:
        want = datetime.fromtimestamp(float(stamps[game.header["meta"]["game_id"]]), tz=UTC)
        assert game.played_at == want
    assert min(g.played_at for g in games).year == 2012  # not the import's day


def test_the_ratings_order_games_by_when_they_were_played(hist):
    from games.ratings.models import RatingChange

    run(
        "import_tracker",
        str(CORPUS / "tichu-tracker" / "allgames.converted.json"),
        "--club",
        "hist",
        "--stopped-games-end",
    )
    run("recompute_ratings", "--club", "hist", "--no-progress")
    rows = list(RatingChange.objects.filter(club=hist).order_by("ordinal").values_list("game_id", "finished_at"))
    played = dict(Game.objects.filter(club=hist).values_list("id", "played_at"))
    assert rows and all(when == played[gid] for gid, when in rows)
    keys = [(played[gid], gid) for gid, _ in rows]
    assert keys == sorted(keys)


@pytest.mark.parametrize("played_at", ["last Tuesday", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
def test_a_record_with_a_malformed_played_at_is_refused_whole(club, scorer_client, played_at):
    """The last two are ISO 8601 but past the calendar once in UTC (a 500 before, found by fuzzing)."""
    from games.engine import random_game

    record = random_game(1)
    record["meta"] = {"played_at": played_at}
    response = scorer_client.post(f"/api/games/import/?club={club.pk}", record, format="json")
    assert response.status_code == 400 and response.json()["code"] == "malformed"
    assert not Game.objects.exists()
    record["meta"] = {"played_at": "2013-05-01"}
    response = scorer_client.post(f"/api/games/import/?club={club.pk}", record, format="json")
    assert response.status_code == 201, response.json()
    assert Game.objects.get(pk=response.json()["id"]).played_at == datetime(2013, 5, 1, tzinfo=UTC)


def test_import_records_keeps_each_records_played_at(hist, tmp_path):
    """The file importer (manage.py import_records) keeps the date a record carries, like the
    API above; a record without one is dated by its import."""
    from games.engine import random_game

    dated, undated = random_game(4), random_game(5)
    dated["meta"] = {"played_at": "2014-03-07T20:15:00Z"}
    (tmp_path / "sheets.json").write_text(json.dumps([dated, undated]))
    run("import_records", str(tmp_path), "--club", "hist")
    games = list(Game.objects.filter(club=hist).order_by("played_at"))
    assert len(games) == 2
    assert games[0].played_at == datetime(2014, 3, 7, 20, 15, tzinfo=UTC)
    assert abs((games[1].played_at - games[1].created_at).total_seconds()) < 5


@given(st.integers(1, 3_000_000), st.integers(1, 3_000_000))
def test_the_id_estimate_never_dates_a_later_game_earlier(a, b):
    lo, hi = sorted((a, b))
    assert bsw_dates.played_at_from_id(lo) <= bsw_dates.played_at_from_id(hi)


@given(st.integers(1, 10**400))
def test_an_id_whose_estimate_is_past_the_calendar_has_no_date(game_id):
    """Ids far past the last anchor (the API takes 12 digits, a file name any) extrapolate past
    year 9999: no estimate, as for a log without an id, never an OverflowError."""
    when = bsw_dates.played_at_from_id(game_id)
    assert when is None or datetime.fromisoformat(when) >= datetime(2007, 1, 9, 19, 3, tzinfo=UTC)
    if when is None:
        assert bsw_dates.played_at_from_id(game_id + 1) is None  # the estimate stops, it does not come back


def test_the_id_estimate_meets_its_anchors_and_refuses_non_ids():
    for gid, when in bsw_dates.ANCHORS:
        assert bsw_dates.played_at_from_id(gid) == when.isoformat().replace("+00:00", "Z")
    assert bsw_dates.played_at_from_id("demo") is None and bsw_dates.played_at_from_id(0) is None
    assert bsw_dates.played_at_from_path("x/202507/2410688.tch") == "2025-07-01T00:00:00Z"
    assert bsw_dates.played_at_from_path("x/2025/2410688.tch") is None


def test_the_bsw_api_says_how_each_game_is_dated_and_when_it_is_dated_by_the_import(scorer_client, club):
    text = (CORPUS / "bsw-tich_me" / "2241381.tch").read_text(encoding="latin-1")
    dated = scorer_client.post(
        f"/api/games/import-bsw/?club={club.pk}", {"log": text, "game_id": "2241381"}, format="json"
    ).json()
    assert dated["dates"] == [{"game": 1, "played_at": "2019-05-19T00:00:00Z", "played_at_source": bsw_dates.FROM_ID}]
    undated_log = (CORPUS / "bsw-tich_me" / "demo_game.tch").read_text(encoding="latin-1")
    undated = scorer_client.post(f"/api/games/import-bsw/?club={club.pk}", {"log": undated_log}, format="json").json()
    assert undated["dates"] == [
        {"game": 1, "played_at": None, "played_at_source": "none in the record: dated by its import"}
    ]


def test_the_bsw_api_takes_the_date_when_the_importer_knows_it(scorer_client, club):
    text = (CORPUS / "bsw-tich_me" / "demo_game.tch").read_text(encoding="latin-1")
    response = scorer_client.post(
        f"/api/games/import-bsw/?club={club.pk}", {"log": text, "played_at": "2019-03-02T20:15:00+01:00"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["dates"][0]["played_at"] == "2019-03-02T19:15:00Z"
    (game_id,) = response.json()["game_ids"]
    assert Game.objects.get(pk=game_id).played_at == datetime(2019, 3, 2, 19, 15, tzinfo=UTC)
    bad = scorer_client.post(
        f"/api/games/import-bsw/?club={club.pk}", {"log": text, "played_at": "0001-01-01T00:00+01:00"}, format="json"
    )
    assert bad.status_code == 400 and Game.objects.filter(club=club).count() == 1


def test_import_bsw_says_which_games_are_dated_by_the_import(hist, tmp_path):
    shutil.copy(CORPUS / "bsw-tich_me" / "demo_game.tch", tmp_path / "demo_game.tch")
    shutil.copy(CORPUS / "bsw-tich_me" / "2241381.tch", tmp_path / "2241381.tch")
    out = run("import_bsw", str(tmp_path), "--club", "hist")
    assert out.count("dated by its import") == 1
    assert out.index("dated by its import") > out.index("demo_game.tch")


def test_the_record_import_answers_when_the_game_was_played_or_that_the_import_dates_it(scorer_client, club):
    from games.engine import random_game

    record = random_game(5, players=["Ann", "Bob", "Cid", "Dee"])
    undated = scorer_client.post(f"/api/games/import/?club={club.pk}", record, format="json").json()
    assert undated["played_at_source"] == "none in the record: dated by its import"
    dated = scorer_client.post(
        f"/api/games/import/?club={club.pk}", {**record, "meta": {"played_at": "2014-06-03"}}, format="json"
    ).json()
    assert dated["played_at"].startswith("2014-06-03T00:00:00")
    assert dated["played_at_source"] == "the record's meta.played_at"
