"""POST /api/games/import-bsw/: a Brettspielwelt log through the API, with the same report as
the management command; scorers only; bad bodies are 400 JSON."""

from __future__ import annotations

from games.models import Game
from tests.conftest import client_for
from tests.corpus import CORPUS, needs_corpus

LOG = CORPUS / "bsw-tich_me" / "2241381.tch"
pytestmark = needs_corpus


def post(client, club, body):
    return client.post(f"/api/games/import-bsw/?club={club.pk}", body, format="json")


def test_a_scorer_imports_a_log_and_reads_the_games_score(scorer_client, club):
    response = post(scorer_client, club, {"log": LOG.read_text(encoding="latin-1")})
    assert response.status_code == 201, response.json()
    report = response.json()
    assert (report["games"], report["hands"], report["equal"], report["stored"]) == (1, 8, 8, 1)
    assert report["differences"] == [] and report["errors"] == []
    (game_id,) = report["game_ids"]
    score = scorer_client.get(f"/api/games/{game_id}/score/").json()
    assert score["complete"] is True and score["totals"] == [380, 1020]
    assert Game.objects.get(pk=game_id).club == club


def test_import_bsw_needs_a_scorer_and_a_well_formed_body(anon, make_user, make_club, club, scorer_client):
    text = LOG.read_text(encoding="latin-1")
    assert post(anon, club, {"log": text}).status_code == 401
    from games.models import Membership

    other = make_user("other")  # a scorer, but of another club
    Membership.objects.create(club=make_club("elsewhere"), user=other, role=Membership.Role.SCORER)
    assert post(client_for(other), club, {"log": text}).status_code == 403
    bad = post(scorer_client, club, {"log": text, "colour": "red"})
    assert bad.status_code == 400 and bad.json()["code"] == "unknown_fields"
    not_a_log = post(scorer_client, club, {"log": "hello"})
    assert not_a_log.status_code == 200 and not_a_log.json()["stored"] == 0
    assert "not a BSW log" in not_a_log.json()["errors"][0]
    assert Game.objects.count() == 0


def test_the_reason_of_a_mended_hand_is_in_the_requests_language(scorer_client, club):
    text = LOG.read_text(encoding="latin-1").replace(
        "Drache an: (3)Sayxas\n", "Drache an: (3)Sayxas\nZuschauer: hallo\n", 1
    )
    english = post(scorer_client, club, {"log": text}).json()["hands_mended"]
    french = scorer_client.post(
        f"/api/games/import-bsw/?club={club.pk}", {"log": text}, format="json", HTTP_ACCEPT_LANGUAGE="fr"
    ).json()["hands_mended"]
    (en,), (fr,) = english, french
    assert en["reason"] == (
        "unexpected line in the play: 'Zuschauer: hallo'; the hand is a hand_result from its calls and Ergebnis"
    )
    assert fr["reason"].startswith("ligne inattendue dans le jeu\u00a0: 'Zuschauer: hallo'\u00a0; ")
    assert {k: v for k, v in fr.items() if k != "reason"} == {k: v for k, v in en.items() if k != "reason"}
    assert (en["rule"], en["params"]["cause"]["rule"]) == ("kept", "play_line")


def test_a_game_id_past_any_date_imports_the_log_undated_not_a_server_error(scorer_client, club):
    """The id's estimate runs out of calendar (past year 9999) for ids the body may carry (12
    digits): the games are then undated, as a log without an id, never a 500."""
    response = post(scorer_client, club, {"log": LOG.read_text(encoding="latin-1"), "game_id": "999999999999"})
    assert response.status_code == 201, response.json()
    (game_id,) = response.json()["game_ids"]
    assert "played_at" not in Game.objects.get(pk=game_id).header["meta"]
