"""The entry pages with Django's test client: the new-game form (variant, preset and options,
members and new names by seat) and the entry page's panels (score sheet, history with undos)."""

from __future__ import annotations

import re

import pytest

from games.models import Game, Player
from games.services import append_events
from tests.entry.conftest import browser_client

pytestmark = pytest.mark.django_db

HAND = {"type": "hand_result", "calls": {}, "out": [1, 0, 2, 3], "points": [30, 70]}


def test_new_game_from_members_and_new_names(users, home):
    ann = Player.objects.create(club=home, name="Ann")
    bob = Player.objects.create(club=home, name="Bob")
    client = browser_client(users["scorer"])
    page = client.get(f"/clubs/{home.slug}/new-game/")
    assert page.status_code == 200 and "Ann" in page.content.decode()
    form = {
        "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        "token": "a" * 32,
        "variant": "nanking",
        "preset": "tiki",
        "opt-nanking-target_score": "500",
        "opt-nanking-pass_is_final": "true",
        "opt-nanking-direction": "",
        "opt-threechu-hands": "3",  # another variant's field: ignored
        "seat-0": str(ann.pk),
        "seat-1": str(bob.pk),
        "seat-2-new": "Cid",
        "seat-3": str(ann.pk),
        "seat-3-new": "Dee",  # a typed name wins over the member picked in the same seat
    }
    response = client.post(f"/clubs/{home.slug}/new-game/", form)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/enter/"
    assert [s.player.name for s in game.seats.select_related("player")] == ["Ann", "Bob", "Cid", "Dee"]
    assert game.options == {"preset": "tiki", "target_score": 500, "pass_is_final": True}
    assert game.created_by == users["scorer"]
    assert set(Player.objects.filter(club=home).values_list("name", flat=True)) == {"Ann", "Bob", "Cid", "Dee"}
    # the same form sent twice (a double tap) makes one game
    assert client.post(f"/clubs/{home.slug}/new-game/", form)["Location"] == f"/games/{game.pk}/enter/"
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    "change, message",
    [
        ({"seat-3-new": ""}, "Tichu is played by 4 players"),
        ({"seat-1-new": "Ann"}, "one seat only"),
        ({"variant": "poker"}, "Choose a game"),
        ({"opt-nanking-target_score": "lots"}, "whole number"),
    ],
)
def test_new_game_errors_are_shown_and_nothing_is_stored(users, home, change, message):
    client = browser_client(users["scorer"])
    client.get(f"/clubs/{home.slug}/new-game/")
    form = {
        "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        "variant": "nanking",
        "preset": "rio",
        "seat-0-new": "Ann",
        "seat-1-new": "Bob",
        "seat-2-new": "Cid",
        "seat-3-new": "Dee",
        **change,
    }
    response = client.post(f"/clubs/{home.slug}/new-game/", form)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_panels_show_the_sheet_and_both_sides_of_an_undo(users, game):
    scorer = users["scorer"]
    append_events(game=game, events=[HAND, HAND, {"type": "undo"}], expected_seq=0, user=scorer)
    body = browser_client(scorer).get(f"/games/{game.pk}/enter/panels/").json()
    assert body["seq"] == 3
    assert body["sheet"].count('class="hand-line"') == 1
    assert 'data-seq="2"' in body["history"] and "undone by #3" in body["history"]
    assert "retracts #2" in body["history"]
    assert "<del>" in body["history"]


def test_threechu_panels_total_each_player_under_their_own_name(users, home):
    """Threechu keeps a total per player (the dummy last): the panel labels them so, not by team."""
    import re

    from games.engine import fold, score_json
    from games.selectors import game_record
    from games.services import game_create

    scorer = users["scorer"]
    game_id = game_create(club=home, variant="threechu", options=None, players=["Ann", "Bob", "Cid"], user=scorer).body[
        "id"
    ]
    hand = {"type": "hand_result", "dealer": 0, "calls": {}, "out": [1, 0, 2, 3], "points": [40, 60]}
    append_events(game=game_id, events=[hand], expected_seq=0, user=scorer)
    body = browser_client(scorer).get(f"/games/{game_id}/enter/panels/").json()
    totals = score_json(fold(game_record(Game.objects.get(pk=game_id))))["totals"]
    assert len(totals) == 4
    shown = re.sub(r"<[^>]+>", "", re.search(r'<p class="totals"[^>]*>(.*?)</p>', body["sheet"], re.S).group(1))
    assert shown == "Total: " + " · ".join(f"{n} {t}" for n, t in zip(["Ann", "Bob", "Cid", "Dummy"], totals))


def test_the_entry_page_embeds_its_configuration(users, game):
    page = browser_client(users["admin"]).get(f"/games/{game.pk}/enter/").content.decode()
    assert 'id="entry-config"' in page and f"/api/games/{game.pk}/legal/" in page
    assert f"/api/games/{game.pk}/events/" in page


def test_the_undo_button_names_the_event_it_retracts(users, game):
    scorer = users["scorer"]
    client = browser_client(scorer)
    assert client.get(f"/games/{game.pk}/enter/panels/").json()["undo_target"] is None
    append_events(game=game, events=[HAND, {"type": "shuffle", "seat": 1}], expected_seq=0, user=scorer)
    assert client.get(f"/games/{game.pk}/enter/panels/").json()["undo_target"] == {
        "seq": 2,
        "text": "Bob shuffles: hand 2 begins",
    }
    append_events(game=game, events=[{"type": "undo"}], expected_seq=2, user=scorer)
    assert client.get(f"/games/{game.pk}/enter/panels/").json()["undo_target"]["seq"] == 1


@pytest.mark.parametrize(
    "variant, facts",
    [
        ("nanking", {"enabled": True, "calls": True, "points": True, "sweep": 2, "dealer": False}),
        ("tientsin", {"enabled": True, "calls": True, "points": True, "sweep": 3, "dealer": False}),
        ("threechu", {"enabled": True, "calls": True, "points": True, "sweep": 2, "dealer": True}),
        ("grand-seigneur", {"enabled": True, "calls": False, "points": False, "sweep": 0, "dealer": False}),
        ("tien-zi-que", {"enabled": True, "calls": False, "points": False, "sweep": 0, "dealer": False}),
    ],
)
def test_the_score_sheet_form_asks_what_the_variant_records(variant, facts):
    from replay.entry.views import sheet_facts

    assert sheet_facts(variant) == facts


@pytest.mark.parametrize("lang, dummy", [("fr", "Mort"), ("de", "Strohmann"), ("uk", "уявний гравець")])
def test_threechus_dummy_is_named_in_the_pages_language(users, home, lang, dummy):
    """The entry page's seats, its score sheet's totals and the replay name the dummy in the
    reader's language (engine.seat_names(..., lang): the engine catalogue's seat_name:dummy)."""
    import json
    import re

    from games.services import game_create

    scorer = users["scorer"]
    game_id = game_create(club=home, variant="threechu", options=None, players=["Ann", "Bob", "Cid"], user=scorer).body[
        "id"
    ]
    hand = {"type": "hand_result", "dealer": 0, "calls": {}, "out": [1, 0, 2, 3], "points": [40, 60]}
    append_events(game=game_id, events=[hand], expected_seq=0, user=scorer)
    client = browser_client(scorer)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = lang
    page = client.get(f"/games/{game_id}/enter/").content.decode()
    config = json.loads(
        re.search(r'<script id="entry-config" type="application/json">(.*?)</script>', page, re.S).group(1)
    )
    assert config["seat_names"] == ["Ann", "Bob", "Cid", dummy]
    sheet = client.get(f"/games/{game_id}/enter/panels/").json()["sheet"]
    totals = re.sub(r"<[^>]+>", "", re.search(r'<p class="totals"[^>]*>(.*?)</p>', sheet, re.S).group(1))
    assert dummy in totals and "Dummy" not in totals
    replay = client.get(f"/games/{game_id}/replay/").content.decode()
    assert dummy in replay and "Dummy" not in replay and "Dummy" not in page


@pytest.mark.parametrize(
    ("options", "offered"),
    [(None, True), ({"grand_tichu": False}, False), ({"preset": "tiki", "grand_tichu": True}, True)],
)
def test_the_sheet_form_offers_grand_tichu_only_where_the_options_allow_it(users, home, options, offered):
    from games.services import game_create
    from tests.entry.conftest import PLAYERS

    body = game_create(club=home, variant="nanking", options=options, players=PLAYERS, user=users["scorer"]).body
    html = browser_client(users["scorer"]).get(f"/games/{body['id']}/enter/").content.decode()
    assert html.count('class="call-toggle"') == (8 if offered else 4)  # one tap a call: a toggle each
    assert len(re.findall(r'id="call-\d-tichu"', html)) == 4
    assert len(re.findall(r'id="call-\d-grand_tichu"', html)) == (4 if offered else 0)
