"""JSON the database cannot store is refused up front, on every endpoint and in the importers:
numbers out of range (`1e400` parses as Infinity), NaN and Infinity, lone surrogates
(`"\\udfff"`: valid JSON text, but no UTF-8 for PostgreSQL) and NUL characters. 400 with a code,
never a 500 at the insert, never a stored value that the export cannot write back."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from games.models import Club, Event, Game
from tests.api.helpers import PLAYERS, hand, record

pytestmark = pytest.mark.django_db

#: raw JSON texts of values the database cannot hold (written by hand: json.dumps cannot)
UNSTORABLE = ["1e400", "-1e400", "NaN", "Infinity", '"\\udfff"', '"a\\ud83d"', '{"\\udfff": 1}', '"\\u0000"']


def post_raw(client, url: str, raw: str):
    return client.generic("POST", url, raw, content_type="application/json")


def assert_refused(response) -> None:
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == "parse_error", body
    assert body["message"]


@pytest.mark.parametrize("raw", UNSTORABLE)
def test_an_import_with_unstorable_meta_is_400(scorer_client, club, raw):
    text = json.dumps(record([hand()]))[:-1] + f', "meta": {{"note": {raw}}}}}'
    assert_refused(post_raw(scorer_client, f"/api/games/import/?club={club.pk}", text))
    assert not Game.objects.exists() and not Event.objects.exists()


@pytest.mark.parametrize("raw", UNSTORABLE)
def test_an_unstorable_value_in_an_event_is_400(scorer_client, club, raw):
    game_id = scorer_client.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": PLAYERS}, format="json"
    ).json()["id"]
    text = (
        '{"expected_seq": 0, "events": [{"type": "hand_result", "out": [0, 1], "points": [50, 50], "note": %s}]}' % raw
    )
    assert_refused(post_raw(scorer_client, f"/api/games/{game_id}/events/", text))
    assert not Event.objects.exists()


@pytest.mark.parametrize("raw", ['"\\udfff"', '"Ann\\u0000"'])
def test_every_endpoint_refuses_them_players_and_clubs_too(scorer_client, club, raw):
    assert_refused(post_raw(scorer_client, "/api/players/", '{"club": %d, "name": %s}' % (club.pk, raw)))
    assert_refused(post_raw(scorer_client, "/api/clubs/", '{"name": %s, "slug": "x", "visibility": "public"}' % raw))
    assert_refused(
        post_raw(
            scorer_client,
            "/api/games/",
            '{"club": %d, "variant": "nanking", "players": ["A", "B", "C", %s]}' % (club.pk, raw),
        )
    )
    assert not Game.objects.exists() and club.players.count() == 0


def test_a_surrogate_pair_is_a_character_like_any_other(scorer_client, club):
    """Only lone surrogates are refused: an escaped pair is one character (here U+1F600)."""
    response = post_raw(
        scorer_client,
        f"/api/games/import/?club={club.pk}",
        json.dumps(record([hand()], players=["\\ud83d\\ude00", "B", "C", "D"])).replace("\\\\", "\\"),
    )
    assert response.status_code == 201, response.content
    assert Game.objects.get().seats.get(seat=0).player.name == "\U0001f600"


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.parametrize("raw", UNSTORABLE)
def test_import_records_reports_a_file_with_unstorable_json_and_stores_nothing(tmp_path, raw):
    Club.objects.create(slug="c", name="C")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record([hand()]))[:-1] + f', "meta": {{"note": {raw}}}}}', encoding="utf-8")
    text = run("import_records", str(path), "--club", "c")
    assert "bad.json" in text and "0 games stored, 1 refused" in text
    assert not Game.objects.exists()


@pytest.mark.parametrize("raw", ['"\\udfff"', "1e400"])
def test_import_tracker_refuses_a_file_with_unstorable_json(tmp_path, raw):
    from django.core.management import CommandError

    Club.objects.create(slug="c", name="C")
    path = tmp_path / "tracker.json"
    path.write_text('{"games": [{"id": %s}]}' % raw, encoding="utf-8")
    with pytest.raises(CommandError, match="tracker.json"):
        run("import_tracker", str(path), "--club", "c")
    assert not Game.objects.exists()


def test_a_body_over_the_upload_limit_is_413_on_every_endpoint(scorer_client, club, settings):
    """DRF reads the request stream itself, past Django's DATA_UPLOAD_MAX_MEMORY_SIZE check: the
    parser applies it."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    meta = {"note": "x" * 10_000}
    for url in (f"/api/games/import/?club={club.pk}", "/api/clubs/", "/api/players/"):
        response = scorer_client.post(url, {**record([hand()]), "meta": meta}, format="json")
        assert response.status_code == 413, response.content[:200]
        assert response.json()["code"] == "request_too_large"
    assert not Game.objects.exists()
    small = scorer_client.post(
        f"/api/games/import/?club={club.pk}", {**record([hand()]), "meta": {"note": "x" * 9_000}}, format="json"
    )
    assert small.status_code == 201, small.content[:200]


def _json_values():
    from hypothesis import strategies as st

    text = st.text(
        alphabet=st.sampled_from(["a", "\x00", "\udfff", "\ud83d", "\\", "u", "0", "N", "I", '"', "é"]), max_size=8
    )
    leaves = st.none() | st.booleans() | st.integers() | st.floats() | text
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=4) | st.tuples(inner) | st.dictionaries(text | st.integers(), inner, max_size=4)
        ),
        max_leaves=20,
    )


def test_the_quick_search_answers_as_the_walk_on_any_value():
    """storable.problem searches the value's JSON text first and walks it only on a hit: the
    answers (message and path) are the walk's on every value, stored or not."""
    from hypothesis import given, settings

    from games import storable

    @settings(max_examples=500, deadline=None)
    @given(_json_values())
    def check(value):
        assert storable.problem_sentence(value) == storable._walk(value)

    check()


def test_the_services_backstop_speaks_the_readers_language(club, scorer):
    """The services' refusal of what cannot be stored (what the API's parser does not see: here a
    direct call): `message` a whole sentence in the reader's language, `code` as in English."""
    from django.utils import translation

    from games.services import InvalidInput, game_create

    def refusal(language: str) -> InvalidInput:
        with translation.override(language), pytest.raises(InvalidInput) as caught:
            game_create(club=club, variant="nanking", options={"note": "a\x00"}, players=PLAYERS, user=scorer)
        return caught.value

    english, said = refusal("en"), refusal("uk")
    assert english.code == said.code == "invalid"
    assert str(english) == "the game: [1].note contains a NUL character (\\u0000), which cannot be stored"
    assert str(said) == "гра: [1].note містить символ NUL (\\u0000), який не можна зберегти"
    assert not Game.objects.exists()


def test_the_parsers_refusal_speaks_the_requests_language(scorer_client, club):
    """The parser's refusal of what cannot be stored: the whole sentence in the request's
    language (here de), `code` as in English."""
    raw = '{"club": %d, "name": "Ann\\u0000"}' % club.pk

    def refusal(language: str) -> dict:
        response = scorer_client.generic(
            "POST", "/api/players/", raw, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language
        )
        assert response.status_code == 400
        return response.json()

    english, said = refusal("en"), refusal("de")
    assert english["code"] == said["code"] == "parse_error"
    assert english["message"] == (
        "JSON parse error - cannot be stored: name contains a NUL character (\\u0000), which cannot be stored"
    )
    assert said["message"] == (
        "JSON-Parse-Fehler - kann nicht gespeichert werden: name enthält ein NUL-Zeichen "
        "(\\u0000), das nicht gespeichert werden kann"
    )
