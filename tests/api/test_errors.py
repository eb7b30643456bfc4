"""Every error is JSON `{"code", "message"}` with a stable code, never an HTML page; bad input
never crashes and never half-writes."""

from __future__ import annotations

import pytest

from games.models import Event, Game, Membership
from games.services import MAX_BATCH
from tests.api.helpers import PLAYERS, hand
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def game_id(scorer_client, club):
    response = scorer_client.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": PLAYERS}, format="json"
    )
    return response.json()["id"]


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["message"], str) and body["message"]
    if code is not None:
        assert body["code"] == code, body
    return body


def post_raw(client, url: str, raw: str, content_type: str = "application/json"):
    return client.generic("POST", url, raw, content_type=content_type)


@pytest.mark.parametrize(
    "raw",
    ['{"expected_seq": 0, "events": [', "not json", '{"expected_seq": NaN, "events": []}', "", "\x00\x01"],
)
def test_malformed_json_is_400_parse_error(scorer_client, game_id, raw):
    body = assert_error(post_raw(scorer_client, f"/api/games/{game_id}/events/", raw), 400)
    assert body["code"] in ("parse_error", "invalid")
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    "payload, field",
    [
        ({"expected_seq": "0", "events": [hand()]}, "expected_seq"),
        ({"expected_seq": 0.0, "events": [hand()]}, "expected_seq"),
        ({"expected_seq": True, "events": [hand()]}, "expected_seq"),
        ({"expected_seq": -1, "events": [hand()]}, "expected_seq"),
        ({"expected_seq": None, "events": [hand()]}, "expected_seq"),
        ({"events": [hand()]}, "expected_seq"),
        ({"expected_seq": 0, "events": hand()}, "events"),
        ({"expected_seq": 0, "events": "hand_result"}, "events"),
        ({"expected_seq": 0, "events": [["hand_result"]]}, "events"),
        ({"expected_seq": 0, "events": [{"seat": 0}]}, "events"),
        ({"expected_seq": 0, "events": [{"type": 7}]}, "events"),
        ({"expected_seq": 0, "events": []}, "events"),
        ({"expected_seq": 0}, "events"),
    ],
)
def test_wrong_types_are_400_naming_the_field(scorer_client, game_id, payload, field):
    body = assert_error(scorer_client.post(f"/api/games/{game_id}/events/", payload, format="json"), 400, "invalid")
    assert field in body["errors"]
    assert field in body["message"]
    assert not Event.objects.exists()


def test_a_json_array_body_is_400(scorer_client, game_id):
    assert_error(post_raw(scorer_client, f"/api/games/{game_id}/events/", "[1, 2]"), 400, "invalid")


def test_unknown_fields_are_400(scorer_client, game_id, club):
    body = assert_error(
        scorer_client.post(
            f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": [hand()], "force": True}, format="json"
        ),
        400,
        "unknown_fields",
    )
    assert "force" in body["message"]
    body = assert_error(
        scorer_client.post(
            "/api/games/", {"club": club.pk, "variant": "nanking", "players": PLAYERS, "seats": 4}, format="json"
        ),
        400,
        "unknown_fields",
    )
    assert "seats" in body["message"]
    assert Game.objects.count() == 1 and not Event.objects.exists()


def test_batch_over_the_documented_limit_is_400(scorer_client, game_id):
    body = assert_error(
        scorer_client.post(
            f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": [hand()] * (MAX_BATCH + 1)}, format="json"
        ),
        400,
        "batch_too_large",
    )
    assert str(MAX_BATCH) in body["message"]
    assert not Event.objects.exists()


def test_batch_at_the_limit_is_accepted(scorer_client, game_id):
    # Tied hands never end a game: MAX_BATCH of them fit.
    response = scorer_client.post(
        f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": [hand()] * MAX_BATCH}, format="json"
    )
    assert response.status_code == 201 and response.json()["seq"] == MAX_BATCH


def test_form_encoded_body_is_415(scorer_client, game_id):
    response = scorer_client.post(f"/api/games/{game_id}/events/", {"expected_seq": 0}, format="multipart")
    assert_error(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("key", ["", "x" * 256, "naïve", "has space"])
def test_invalid_idempotency_key_is_400(scorer_client, game_id, key):
    response = scorer_client.post(
        f"/api/games/{game_id}/events/",
        {"expected_seq": 0, "events": [hand()]},
        format="json",
        headers={"Idempotency-Key": key},
    )
    assert_error(response, 400, "invalid_idempotency_key")
    assert not Event.objects.exists()


@pytest.mark.parametrize("query", ["at=-1", "at=x", "at=1.5", "at=2"])
def test_bad_state_positions_are_400(scorer_client, game_id, query):
    scorer_client.post(f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": [hand()]}, format="json")
    body = assert_error(scorer_client.get(f"/api/games/{game_id}/state/?{query}"), 400)
    assert body["code"] in ("invalid", "out_of_range")


@pytest.mark.parametrize("query", ["after=-3", "after=abc", "limit=ten"])
def test_bad_event_query_is_400(scorer_client, game_id, query):
    assert_error(scorer_client.get(f"/api/games/{game_id}/events/?{query}"), 400, "invalid")


def test_unknown_paths_and_objects_are_json_404(scorer_client, game_id):
    assert_error(scorer_client.get("/api/nowhere/"), 404, "not_found")
    assert_error(scorer_client.get("/api/games/999999/"), 404, "not_found")
    assert_error(scorer_client.get("/api/games/999999/state/"), 404, "not_found")
    assert_error(
        scorer_client.post("/api/games/999999/events/", {"expected_seq": 0, "events": [hand()]}, format="json"),
        404,
        "not_found",
    )
    body = assert_error(scorer_client.get(f"/api/games/{game_id}"), 404, "not_found")
    assert f"/api/games/{game_id}/" in body["message"]


@pytest.mark.parametrize("ref", ["1" * 5000, str(2**63), "\u00b2", "\u0661"])
def test_a_club_named_by_a_number_no_club_can_have_is_json_404(scorer_client, club, ref):
    """Digits past any id (thousands of them: int() itself refuses) and digits Python's isdigit
    takes but that are no id ("²", Arabic-Indic "١") name no club, wherever a club is named (a
    500 before, found by fuzzing)."""
    assert_error(scorer_client.get(f"/api/clubs/{ref}/"), 404, "not_found")
    assert_error(scorer_client.get("/api/tournaments/", {"club": ref}), 404, "not_found")
    refused = scorer_client.post("/api/players/", {"club": ref, "name": "Zed"}, format="json")
    assert (refused.status_code, refused.json()["code"]) in {(404, "not_found"), (400, "invalid")}
    assert scorer_client.get("/api/clubs/home/").status_code == 200  # the fixture's club, by slug


def test_wrong_method_is_json_405(scorer_client, game_id):
    assert_error(scorer_client.delete(f"/api/games/{game_id}/events/"), 405, "method_not_allowed")
    assert_error(scorer_client.put(f"/api/games/{game_id}/state/", {}, format="json"), 405, "method_not_allowed")


def test_html_accept_header_still_gets_json(scorer_client):
    response = scorer_client.get("/api/games/999999/", HTTP_ACCEPT="text/html")
    assert response.status_code in (404, 406)
    assert response["Content-Type"].startswith("application/json")


def test_import_errors(scorer_client, club):
    url = f"/api/games/import/?club={club.pk}"
    assert_error(
        scorer_client.post(url, {"variant": "nanking", "players": PLAYERS, "events": [], "extra": 1}, format="json"),
        400,
        "malformed",
    )
    assert_error(
        scorer_client.post(url, {"format": "tichu-record/9", "variant": "nanking", "players": PLAYERS}, format="json"),
        400,
        "malformed",
    )
    assert_error(scorer_client.post(url, {"variant": "nanking", "players": "Ann"}, format="json"), 400, "malformed")
    assert_error(post_raw(scorer_client, url, "[]"), 400, "malformed")
    assert_error(
        scorer_client.post("/api/games/import/", {"variant": "nanking", "players": PLAYERS}, format="json"),
        400,
        "invalid",
    )
    body = assert_error(
        scorer_client.post(
            url,
            {"variant": "nanking", "players": PLAYERS, "events": [hand(), hand(), {"type": "hand_result"}]},
            format="json",
        ),
        422,
    )
    assert body["index"] == 2 and body["ok"] is False and body["error"]["code"] == body["code"]
    assert not Game.objects.exists() and not Event.objects.exists() and not club.players.exists()


def test_nul_characters_cannot_be_stored_and_are_refused(scorer_client, club):
    url = f"/api/games/import/?club={club.pk}"
    body = assert_error(
        scorer_client.post(url, {"variant": "nanking", "players": ["A\x00", "B", "C", "D"]}, format="json"), 400
    )
    assert "NUL" in body["message"] or body["code"] == "malformed"
    assert_error(
        scorer_client.post(url, {"variant": "nanking", "players": PLAYERS, "meta": {"x": "\x00"}}, format="json"), 400
    )
    assert not Game.objects.exists()


def test_unhandled_errors_are_json_500(scorer_client, game_id, monkeypatch):
    from games import selectors

    def boom(*args, **kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr(selectors, "game_score", boom)
    scorer_client.raise_request_exception = False
    assert_error(scorer_client.get(f"/api/games/{game_id}/score/"), 500, "server_error")


def test_write_throttling_is_json_429(scorer_client, game_id, settings, club, make_user):
    # The game's creation (fixture) was this user's first write.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"writes": "4/minute"}}
    codes = [
        scorer_client.post(
            f"/api/games/{game_id}/events/", {"expected_seq": seq, "events": [hand()]}, format="json"
        ).status_code
        for seq in range(4)
    ]
    assert codes == [201, 201, 201, 429]
    body = assert_error(
        scorer_client.post(f"/api/games/{game_id}/events/", {"expected_seq": 3, "events": [hand()]}, format="json"),
        429,
        "throttled",
    )
    # Another user has their own allowance.
    other = make_user("other")
    Membership.objects.create(club=club, user=other, role="scorer")
    assert (
        client_for(other)
        .post(f"/api/games/{game_id}/events/", {"expected_seq": 3, "events": [hand()]}, format="json")
        .status_code
        == 201
    )
    assert body["retry_after"] > 0
    # Reads are not throttled.
    assert scorer_client.get(f"/api/games/{game_id}/events/").status_code == 200
    assert Event.objects.count() == 4


@pytest.mark.parametrize("depth", [100, 50_000])
def test_deeply_nested_json_is_400(scorer_client, game_id, depth):
    raw = '{"expected_seq": 0, "events": [{"type": "pass", "x": ' + "[" * depth + "]" * depth + "}]}"
    body = assert_error(post_raw(scorer_client, f"/api/games/{game_id}/events/", raw), 400, "parse_error")
    assert "nested" in body["message"]
    assert not Event.objects.exists()


def test_body_over_the_upload_limit_is_413(scorer_client, game_id, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    raw = '{"expected_seq": 0, "events": [' + ",".join(['{"type": "pass", "seat": 0}'] * 500) + "]}"
    assert_error(post_raw(scorer_client, f"/api/games/{game_id}/events/", raw), 413, "request_too_large")
    assert not Event.objects.exists()


def _redis_answers(url: str) -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except Exception:  # noqa: BLE001
        return False


TEST_REDIS = "redis://127.0.0.1:6379/15"


def test_write_throttling_counts_on_redis_when_the_cache_is_redis(scorer_client, game_id, settings):
    import os

    import redis

    from games import window_counter

    if not _redis_answers(TEST_REDIS):  # CI starts Redis (.ci/run): its absence is a failure, not a skip
        pytest.fail(f"this test needs Redis at {TEST_REDIS}")
    # A prefix of this process's own: the SQLite and PostgreSQL stages run side by side on the one
    # Redis, and their users have the same ids.
    prefix = f"test-throttle-{os.getpid()}"
    settings.CACHES = {"default": {"BACKEND": window_counter.REDIS_CACHE, "LOCATION": TEST_REDIS, "KEY_PREFIX": prefix}}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"writes": "3/minute"}}
    server = redis.Redis.from_url(TEST_REDIS)
    for key in server.scan_iter(f"{prefix}*"):
        server.delete(key)
    codes = [
        scorer_client.post(
            f"/api/games/{game_id}/events/", {"expected_seq": seq, "events": [hand()]}, format="json"
        ).status_code
        for seq in range(4)
    ]
    assert codes == [201, 201, 201, 429]
    (key,) = list(server.scan_iter(f"{prefix}*tichu:throttle:writes:*"))
    assert int(server.get(key)) == 4  # the refused write was counted too, as on any backend
    assert 0 < server.ttl(key) <= 61
    server.delete(key)


# Ids past the database's integer range: the driver refuses such numbers (SQLite raises
# OverflowError), so every lookup must answer 404 before it reaches the database.
HUGE_IDS = (2**63, 10**30)
GAME_PATHS = (
    "/api/games/{}/",
    "/api/games/{}/events/",
    "/api/games/{}/state/",
    "/api/games/{}/score/",
    "/api/games/{}/record/",
    "/api/games/{}/legal/",
    "/api/clubs/{}/",
    "/api/clubs/{}/members/",
    "/api/players/{}/",
)


@pytest.mark.parametrize("path", GAME_PATHS)
def test_ids_past_the_integer_range_are_not_found(scorer, path):
    for pk in HUGE_IDS:
        assert_error(client_for(scorer).get(path.format(pk)), 404)


def test_appending_to_an_id_past_the_integer_range_is_not_found(scorer):
    body = {"expected_seq": 0, "events": [hand()]}
    assert_error(client_for(scorer).post(f"/api/games/{10**30}/events/", body, format="json"), 404)


@pytest.mark.parametrize("path", ["/games/{}/", "/games/{}/replay/", "/games/{}/enter/", "/games/{}/enter/panels/"])
def test_pages_with_ids_past_the_integer_range_are_not_found(scorer, path):
    client = client_for(scorer)
    client.force_login(scorer)
    for pk in HUGE_IDS:
        assert client.get(path.format(pk)).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    [
        "club=99999999999999999999999",
        "player=99999999999999999999999",
        "player=-99999999999999999999999",
        "club=9223372036854775808",
    ],
)
def test_an_id_filter_past_the_integer_range_finds_nothing(query):
    """Found by tests/api/test_openapi_conformance.py: a 500 (OverflowError) on SQLite. A club
    that is not there is a 404 (issue 37), a player an empty list."""
    response = client_for().get(f"/api/games/?{query}")
    if query.startswith("club="):
        assert response.status_code == 404 and response.json()["code"] == "not_found", response.content
        return
    assert response.status_code == 200, response.content
    assert response.json()["count"] == 0


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_a_refusals_message_is_in_the_requests_language_and_its_code_and_params_are_not(scorer_client, game_id, lang):
    """Accept-Language chooses the words of `message` (the engine's, from the code and params);
    the code, params and index are those of the English answer."""
    from games import engine

    url = f"/api/games/{game_id}/events/"
    payload = {"expected_seq": 0, "events": [{"type": "pass", "seat": 0}]}
    english = assert_error(scorer_client.post(url, payload, format="json", HTTP_ACCEPT_LANGUAGE="en"), 422)
    said = assert_error(scorer_client.post(url, payload, format="json", HTTP_ACCEPT_LANGUAGE=lang), 422)
    assert said["code"] == english["code"] == said["error"]["code"] == "wrong_phase"
    assert said["error"]["params"] == english["error"]["params"] and said["index"] == english["index"]
    assert said["message"] == said["error"]["message"] == engine.refusal_words(english["error"], [], lang)
    assert said["message"] != english["message"] and "{" not in said["message"]
    assert english["message"] == english["error"]["message"]  # English: the engine's own message


#: a refusal that names a seat: seat 1 calls Grand Tichu twice in one hand (already_called)
CALLED_TWICE = [{"type": "shuffle", "seat": 0}, {"type": "grand_tichu", "seat": 1}, {"type": "grand_tichu", "seat": 1}]


def _nameless_seat(lang: str, seat: int) -> str:
    """How the engine words a seat it has no name for in `lang` ("place 1" in French)."""
    from games import engine

    return engine.words(lang).terms["seat"].replace("{number:seat}", str(seat))


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_a_refusal_names_the_seat_by_its_player_as_the_pages_do(scorer_client, game_id, lang):
    """The API's refusal names a seat as the site's pages do: by the game's seat names (its
    players, engine.seat_names, what the entry page's script names seats by), never "place 1"
    (the seat's index) while the game has players."""
    from games import engine

    url = f"/api/games/{game_id}/events/"
    payload = {"expected_seq": 0, "events": CALLED_TWICE}
    english = assert_error(scorer_client.post(url, payload, format="json", HTTP_ACCEPT_LANGUAGE="en"), 422)
    said = assert_error(scorer_client.post(url, payload, format="json", HTTP_ACCEPT_LANGUAGE=lang), 422)
    assert said["code"] == "already_called" and said["index"] == 2 and said["error"]["params"]["seat"] == 1
    assert said["message"] == said["error"]["message"]
    assert said["message"] == engine.refusal_words(english["error"], engine.seat_names("nanking", PLAYERS), lang)
    assert "Bob" in said["message"] and _nameless_seat(lang, 1) not in said["message"]
    assert english["message"] == english["error"]["message"]  # English: the engine's own message, as before


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_an_imported_records_refusal_names_the_records_players(scorer_client, club, lang):
    """An import refused by an event names the seat by the record's players."""
    from tests.api.helpers import record

    names = ["Zoé", "Yann", "Xénia", "Wim"]
    url = f"/api/games/import/?club={club.pk}"
    said = assert_error(
        scorer_client.post(url, record(CALLED_TWICE, players=names), format="json", HTTP_ACCEPT_LANGUAGE=lang), 422
    )
    assert said["code"] == "already_called" and said["index"] == 2
    assert "Yann" in said["message"] and _nameless_seat(lang, 1) not in said["message"]
    assert not Game.objects.exists()


@pytest.mark.parametrize("lang", ["de", "uk"])
def test_the_projects_own_errors_speak_the_requests_language_with_the_same_code(scorer_client, game_id, lang):
    """Not only the engine's refusals: the service's and the API's own errors (a stale
    expected_seq, a bad query parameter, an unknown endpoint) answer `message` in the request's
    language; `code` and every other field are those of the English answer."""
    calls = [
        lambda h: scorer_client.post(
            f"/api/games/{game_id}/events/",
            {"expected_seq": 7, "events": [{"type": "pass", "seat": 0}]},
            format="json",
            **h,
        ),
        lambda h: scorer_client.get(f"/api/games/{game_id}/events/?after=-1", **h),
        lambda h: scorer_client.get("/api/no-such-endpoint/", **h),
    ]
    codes = []
    for call in calls:
        english, said = call({"HTTP_ACCEPT_LANGUAGE": "en"}), call({"HTTP_ACCEPT_LANGUAGE": lang})
        assert said.status_code == english.status_code >= 400
        e, s = english.json(), said.json()
        assert {k: v for k, v in s.items() if k != "message"} == {k: v for k, v in e.items() if k != "message"}
        assert s["message"] and s["message"] != e["message"]
        assert not {"the", "must", "but", "is", "no"} & set(s["message"].split())
        codes.append(s["code"])
    assert codes == ["seq_conflict", "invalid", "not_found"]


#: Threechu's dummy (seat 3) in each language: the engine catalogue's seat_name:dummy (docs/glossary.md)
DUMMY_WORDS = {"fr": "Mort", "de": "Strohmann", "uk": "уявний гравець"}


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_a_refusal_names_threechus_dummy_in_the_requests_language(scorer_client, club, lang):
    """The dummy is named as the language's rule book names it, never "Dummy" (loose follow-up 2):
    the dealer may not call Grand Tichu for the dummy (not_in_variant, seat 3)."""
    from games import engine

    created = scorer_client.post(
        "/api/games/", {"club": club.pk, "variant": "threechu", "players": ["Ann", "Bob", "Cid"]}, format="json"
    )
    assert created.status_code == 201, created.content
    url = f"/api/games/{created.json()['id']}/events/"
    payload = {"expected_seq": 0, "events": [{"type": "shuffle", "seat": 0}, {"type": "grand_tichu", "seat": 3}]}
    said = assert_error(scorer_client.post(url, payload, format="json", HTTP_ACCEPT_LANGUAGE=lang), 422)
    assert said["code"] == "not_in_variant" and said["error"]["params"]["seat"] == 3
    assert said["message"].startswith(DUMMY_WORDS[lang]) and "Dummy" not in said["message"], said["message"]
    names = engine.seat_names("threechu", ["Ann", "Bob", "Cid"], lang)
    assert names[3] == DUMMY_WORDS[lang] == engine.words(lang).terms["seat_name:dummy"]
    assert said["message"] == engine.refusal_words(said["error"], names, lang)
    assert engine.seat_names("threechu", ["Ann", "Bob", "Cid"])[3] == "Dummy"  # English, the default
