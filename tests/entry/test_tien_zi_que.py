"""Tien Zi Que's entry page with Django's test client (replay/entry/tien_zi_que.py): the score
line's form stores one `round_result` the engine accepts, shows the engine's refusal (its code's
heading and its reason, the engine's words in the reader's language) beside the field it names, keeps a line refused by a 409 with Save disabled until "Enter
again", and a reader who is not a scorer never sees the hands of a round in play."""

from __future__ import annotations

import json
import re
from html import unescape as html_unescape

import pytest

from games import engine
from games.models import Event, Game
from games.services import append_events, game_create
from tests.entry.conftest import browser_client

pytestmark = pytest.mark.django_db

PLAYERS = ["Ann", "Bob"]


@pytest.fixture
def tzq(home, users):
    body = game_create(
        club=home, variant="tien-zi-que", options={"rounds": 2}, players=PLAYERS, user=users["scorer"]
    ).body
    return Game.objects.get(pk=body["id"])


def page(client, game):
    response = client.get(f"/games/{game.pk}/enter/")
    assert response.status_code == 200
    return response.content.decode()


def line(client, game, **fields):
    game.refresh_from_db()
    html = page(client, game)
    token = re.search(r'name="token" value="([0-9a-f]{32})"', html).group(1)
    form = {
        "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        "expected_seq": str(game.seq),
        "token": token,
        **fields,
    }
    return form


def post(client, game, form):
    return client.post(f"/games/{game.pk}/enter/round/", form)


def _field_error(html, field):
    return re.search(rf'<p class="field-error" id="err-{field}" role="alert" data-code="([^"]*)">([^<]*)</p>', html)


def error_of(html, field):
    """The words next to the field; the scorer never reads the engine's code in brackets."""
    words = html_unescape(_field_error(html, field).group(2))
    assert not re.search(r"\([a-z]+(_[a-z]+)+\)", words), f"an engine code shown to the scorer: {words}"
    return words


def code_of(html, field):
    """The engine's refusal code, kept in the field error's data-code (empty for the form's own)."""
    return _field_error(html, field).group(1)


def test_the_page_offers_the_score_line_and_the_actions(users, tzq):
    html = page(browser_client(users["scorer"]), tzq)
    assert 'id="round-form"' in html and 'name="winner" value="1"' in html and 'id="tzq-controls"' in html
    assert "Nothing to enter here now" not in html
    # round 1: either player may start; both choices are taps (radio chips), no drop-down
    assert html.count('name="seat"') == 2 and "disabled" not in re.search(
        r'id="f-seat".*?</fieldset>', html, re.S
    ).group(0)
    assert "<select" not in re.search(r'<form id="round-form".*?</form>', html, re.S).group(0)


def test_a_valid_line_is_stored_once_and_announced_with_its_score(users, tzq):
    client = browser_client(users["scorer"])
    form = line(client, tzq, seat="0", winner="1", by="chow", score_pile="Ew Eb Jk Jk Jk")
    response = post(client, tzq, form)
    assert response.status_code == 302 and response["Location"].endswith(f"/games/{tzq.pk}/enter/?saved=1#score-line")
    stored = [e.as_record_event() for e in Event.objects.filter(game=tzq).order_by("seq")]
    assert stored == [
        {"type": "round_result", "seat": 0, "winner": 1, "by": "chow", "score_pile": ["Ew", "Eb", "Jk", "Jk", "Jk"]}
    ]
    assert post(client, tzq, form).status_code == 302  # a double tap: the same key, stored once
    assert Event.objects.filter(game=tzq).count() == 1
    html = client.get(response["Location"]).content.decode()
    assert "Round 1 is over: Bob +9 (Mah-jong by a Chow); totals Ann 0, Bob 9." in html
    # round 2: the first player changes, so Ann's chip is disabled and Bob's is chosen
    seat_box = re.search(r'id="f-seat".*?</fieldset>', html, re.S).group(0)
    assert re.search(r'value="0"[^>]*disabled', seat_box) and re.search(r'value="1" checked', seat_box)
    response = post(client, tzq, line(client, tzq, seat="1", winner="0", by="pung", points="13"))
    game = Game.objects.get(pk=tzq.pk)
    assert engine.score_json(
        engine.fold(
            {
                "variant": "tien-zi-que",
                "players": PLAYERS,
                "options": {"rounds": 2},
                "events": [e.as_record_event() for e in game.events.order_by("seq")],
            }
        )
    )["totals"] == [13, 9]
    assert game.status == Game.Status.FINISHED
    assert "Game over: Ann wins." in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize(
    ("fields", "field", "words", "code"),
    [
        (
            {"seat": "0", "winner": "0", "by": "chow", "points": "19"},
            "points",
            "Not a possible score line: no score pile won by a Chow scores 19; the nearest possible: 18 or 20",
            "result_invalid",
        ),
        ({"seat": "0", "winner": "0", "points": "4"}, "by", "Not a possible score line: say how", "result_invalid"),
        (
            {"seat": "0", "winner": "0", "by": "pung", "score_pile": "Ew Eb Jk Jk"},
            "score_pile",
            "holds 5 cards, not 4",
            None,
        ),
        (
            {"seat": "0", "winner": "0", "by": "pung", "score_pile": "Ew Eb Jk Jk Zz"},
            "score_pile",
            "Not a card of this game: ",
            "unknown_card",
        ),
        (
            {"seat": "0", "winner": "1", "by": "pung", "points": "9", "score_pile": "Ew Eb Jk Jk Jk"},
            "points",
            "scores 10, not 9",
            None,
        ),
        ({"seat": "0", "by": "chow", "points": "4"}, "winner", "Choose who made Mah-jong", ""),
        ({"seat": "0", "winner": "1", "by": "chow", "points": "lots"}, "points", "a whole number", ""),
    ],
)
def test_refusals_stand_next_to_their_field_and_nothing_is_stored(users, tzq, fields, field, words, code):
    client = browser_client(users["scorer"])
    response = post(client, tzq, line(client, tzq, **fields))
    assert response.status_code in (400, 422)
    html = response.content.decode()
    assert words in error_of(html, field)
    if code is not None:
        assert code_of(html, field) == code
    assert not Event.objects.filter(game=tzq).exists()
    # the line as typed stays in the form, and Save stays usable
    assert 'id="save-round" class="btn primary">' in html
    for name, value in fields.items():
        if name in ("points", "score_pile"):
            assert f'value="{value}"' in html


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_a_refusal_is_headed_by_the_engines_words_in_the_readers_language(users, tzq, lang):
    """The heading is the engine's (engine.refusal_heading, its catalogue), not the site's."""
    client = browser_client(users["scorer"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    response = post(client, tzq, line(client, tzq, seat="0", winner="0", by="chow", points="19"))
    assert response.status_code == 422
    words = error_of(response.content.decode(), "points")
    heading = engine.refusal_heading("result_invalid", lang)
    assert heading != engine.refusal_heading("result_invalid") and words.startswith(heading + ": ")
    assert code_of(response.content.decode(), "points") == "result_invalid"


def test_the_wrong_starter_is_refused_in_the_players_names(users, tzq):
    client = browser_client(users["scorer"])
    post(client, tzq, line(client, tzq, seat="1", winner="1", by="chow", points="3"))
    response = post(client, tzq, line(client, tzq, seat="1", winner="0", by="chow", points="3"))
    assert response.status_code == 422
    html = response.content.decode()
    assert "Not this player's turn: Ann starts round 2" in error_of(html, "seat")
    assert code_of(html, "seat") == "not_your_turn"


def test_a_409_keeps_the_line_with_save_disabled_until_entered_again(users, tzq):
    client = browser_client(users["scorer"])
    form = line(client, tzq, seat="0", winner="1", by="chow", points="4")
    # another scorer saves round 1 first
    append_events(
        game=tzq,
        events=[{"type": "round_result", "seat": 0, "winner": 0, "by": "pung", "points": 7}],
        expected_seq=0,
        user=users["admin"],
    )
    response = post(client, tzq, form)
    assert response.status_code == 409
    html = response.content.decode()
    assert re.search(r'id="save-round" class="btn primary" disabled', html)
    assert "another scorer entered up to #1" in html and 'name="action" value="reenter"' in html
    assert 'value="4"' in html  # the line is kept
    # pressing Save again anyway (a stale form re-sent) is refused again: nothing stored
    assert post(client, tzq, form).status_code == 409
    assert Event.objects.filter(game=tzq).count() == 1
    # "Enter again": the same line on the new state, Save back, the new expected_seq
    again = post(client, tzq, {**form, "action": "reenter"})
    assert again.status_code == 200
    html = again.content.decode()
    assert re.search(r'id="save-round" class="btn primary">', html) and 'name="expected_seq" value="1"' in html
    assert 'value="4"' in html


def test_the_page_and_the_form_are_for_scorers_only_and_hands_stay_hidden_from_readers(users, tzq):
    viewer = browser_client(users["viewer"])
    assert viewer.get(f"/games/{tzq.pk}/enter/").status_code == 403
    assert viewer.post(f"/games/{tzq.pk}/enter/round/", {}).status_code == 403
    # a round in play, dealt action by action: a viewer's state has the hands masked
    deck = engine.random_tzq_record(4)["options"]["deck"]
    append_events(
        game=tzq,
        events=[{"type": "round_start", "seat": 0, "hands": [deck[:5], deck[5:10]], "stock": deck[10:]}],
        expected_seq=0,
        user=users["scorer"],
    )
    state = viewer.get(f"/api/games/{tzq.pk}/state/").json()
    assert state["hands"] == [["?"] * 5, ["?"] * 5]
    scorer = browser_client(users["scorer"])
    html = page(scorer, tzq)
    assert re.search(r'<form id="round-form"[^>]*hidden', html)  # a round in play: no score line
    response = post(scorer, tzq, line(scorer, tzq, seat="1", winner="1", by="chow", points="3"))
    assert response.status_code == 422 and code_of(response.content.decode(), "seat") == "wrong_phase"
    assert error_of(response.content.decode(), "seat").startswith("Not at this point of the game: ")


def test_another_variant_has_no_round_form(users, game):
    client = browser_client(users["scorer"])
    assert client.get(f"/games/{game.pk}/enter/").status_code == 200
    client.get(f"/games/{game.pk}/enter/")
    response = client.post(f"/games/{game.pk}/enter/round/", {"csrfmiddlewaretoken": client.cookies["csrftoken"].value})
    assert response.status_code == 404


def test_the_legal_endpoint_gives_the_round_sheet(users, tzq):
    body = browser_client(users["scorer"]).get(f"/api/games/{tzq.pk}/legal/").json()
    assert body["round_sheet"]["starters"] == [0, 1] and 19 not in body["round_sheet"]["points"]["chow"]
    check = json.dumps({"type": "round_result", "seat": 0, "winner": 0, "by": "chow", "points": 19})
    answer = browser_client(users["scorer"]).get(f"/api/games/{tzq.pk}/legal/", {"check": check}).json()["check"]
    assert (
        answer["ok"] is False
        and answer["error"]["code"] == "result_invalid"
        and answer["error"]["params"]["field"] == "points"
    )


def test_the_replay_and_the_game_page_show_rounds_entered_by_score_line(users, tzq):
    append_events(
        game=tzq,
        events=[
            {"type": "round_result", "seat": 0, "winner": 1, "by": "chow", "score_pile": ["Ew", "Eb", "Jk", "Jk", "Jk"]}
        ],
        expected_seq=0,
        user=users["scorer"],
    )
    viewer = browser_client(users["viewer"])
    replay = viewer.get(f"/games/{tzq.pk}/replay/?at=1")
    assert replay.status_code == 200
    assert "Round 1 recorded from the score line: Bob +9, Mah-jong by a Chow" in replay.content.decode()
    assert viewer.get(f"/games/{tzq.pk}/").status_code == 200
    assert viewer.get(f"/api/games/{tzq.pk}/score/").json()["totals"] == [0, 9]


def test_a_refusal_is_worded_in_german_beside_its_field(users, tzq):
    """The reason as well as its heading is the engine's, in German (issue #21): worded from the
    refusal's code and parameters, the players by name, no English left."""
    client = browser_client(users["scorer"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    response = post(client, tzq, line(client, tzq, seat="0", winner="0", by="chow", points="19"))
    assert response.status_code == 422
    assert error_of(response.content.decode(), "points") == (
        "Keine mögliche Punktezeile: kein Punktestapel ergibt mit einem Chow 19 Punkte; am nächsten möglich: 18 oder 20"
    )
    post(client, tzq, line(client, tzq, seat="1", winner="1", by="chow", points="3"))
    response = post(client, tzq, line(client, tzq, seat="1", winner="0", by="chow", points="3"))
    assert error_of(response.content.decode(), "seat").startswith(
        "Dieser Spieler ist nicht am Zug: Ann beginnt Runde 2: wer beginnt, wechselt jede Runde"
    )


def test_the_api_says_a_tien_zi_que_refusal_in_german(users, tzq):
    """The API's `message` with Accept-Language: de is the engine's German sentence (a seat by its
    player, as the pages name it); code and params stay as in English."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_login(users["scorer"])
    url = f"/api/games/{tzq.pk}/events/"
    payload = {"expected_seq": 0, "events": [{"type": "draw", "seat": 0}]}
    english = client.post(url, payload, format="json", HTTP_ACCEPT_LANGUAGE="en").json()
    german = client.post(url, payload, format="json", HTTP_ACCEPT_LANGUAGE="de").json()
    assert english["error"]["code"] == german["error"]["code"] == "wrong_phase"
    assert german["error"]["params"] == english["error"]["params"]
    assert english["message"] == "draw is not accepted now: no round is in progress (a round_start comes first)"
    assert german["message"] == "„Ziehen“ ist jetzt nicht möglich: keine Runde läuft (zuerst beginnt eine Runde)"
