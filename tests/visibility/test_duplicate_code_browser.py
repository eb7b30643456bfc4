"""A duplicate table's phone in headless Chromium (issue 30, finding 3): the table's code sees no
hand of the board in play, yet enters the board card by card: each seat's push and play picked from
the cards not played yet, checked by the engine when sent; the page never enters an event by
itself (its list of events leaves out the plays)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games import engine
from games.models import Club, Event, Game, Membership
from games.tournaments.models import TableGame

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
HEADER = {"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 1}
PAIRS = [["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]]


@pytest.fixture
def duplicate_round(live_server):
    club = Club.objects.create(name="Home", slug="home")
    td = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=club, user=td, role="scorer")
    api = APIClient()
    api.force_authenticate(td)
    tid = api.post("/api/tournaments/", {"club": "home", "name": "Duplicate", "header": HEADER}, format="json").json()[
        "id"
    ]
    events = [{"type": "entry_registered", "entry": f"e{i}", "players": p} for i, p in enumerate(PAIRS)]
    assert (
        api.post(f"/api/tournaments/{tid}/events/", {"expected_seq": 0, "events": events}, format="json").status_code
        == 201
    )
    proposal = api.get(f"/api/tournaments/{tid}/pairing/").json()
    assert (
        api.post(
            f"/api/tournaments/{tid}/events/",
            {"expected_seq": proposal["seq"], "events": [proposal["event"]]},
            format="json",
        ).status_code
        == 201
    )
    assert api.post(f"/api/tournaments/{tid}/rounds/1/games/").status_code == 201
    codes = {r["table"]: r["printed"] for r in api.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()}
    game = TableGame.objects.get(tournament_id=tid, round=1, table=1).game_id
    return game, codes[1]


def test_a_duplicate_tables_phone_enters_the_board_without_seeing_a_hand(
    browser, live_server, duplicate_round, tmp_path
):
    game, code = duplicate_round
    options = Game.objects.get(pk=game).options
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{live_server.url}/t/{code}/")
    phone.wait_for_url(f"**/games/{game}/enter/")
    phone.wait_for_selector("#entry[data-ready='1']")
    phone.screenshot(path=str(tmp_path / "duplicate_code_exchange.png"), full_page=True)
    shown = [
        c
        for c in phone.locator("#seats .hand:not(.picker) [data-card]").evaluate_all(
            "els => els.map(e => e.getAttribute('data-card'))"
        )
        if c != "?"
    ]
    assert shown == [], f"the phone shows cards of the board: {shown}"
    assert phone.locator("#seats .picker .pick").count() == 56, "the pusher picks from every card"

    state = engine.fold(
        {
            "format": engine.FORMAT,
            "variant": "nanking",
            "options": options,
            "players": ["a", "b", "c", "d"],
            "events": [e.as_record_event() for e in Event.objects.filter(game_id=game).order_by("seq")],
        }
    )
    hands = engine.state_json(state)["hands"]
    by_seat = {
        seat: {"cards": {str(t): hands[seat][i] for i, t in enumerate(x for x in range(4) if x != seat)}}
        for seat in range(4)
    }  # each seat gives its lowest three cards (the test knows the board)
    seq = Game.objects.get(pk=game).seq
    for seat in sorted(by_seat):
        phone.click(f"#push-seat-{seat}")
        for target, card in by_seat[seat]["cards"].items():
            phone.click(f"#push-to-{target}")
            phone.click(f"#seats .picker .pick[data-card='{card}']")
    if phone.locator("#push-btn:not([disabled])").count():
        phone.click("#push-btn")
    phone.wait_for_selector(f"#entry[data-seq='{seq + len(by_seat)}'][data-busy='0']", state="attached")
    stored = [e.payload for e in Event.objects.filter(game_id=game, type="push").order_by("seq")]
    assert sorted(p["seat"] for p in stored) == [0, 1, 2, 3]

    phone.wait_for_selector("#play-group")
    phone.screenshot(path=str(tmp_path / "duplicate_code_play.png"), full_page=True)
    shown = [
        c
        for c in phone.locator("#seats .hand:not(.picker) [data-card]").evaluate_all(
            "els => els.map(e => e.getAttribute('data-card'))"
        )
        if c != "?"
    ]
    assert shown == [], f"after the exchange the phone shows cards of the board: {shown}"
    # The Mahjong's holder leads it alone, without a wish: two taps, never one (a tap may start a pair).
    phone.click("#seats .picker .pick[data-card='Mahjong']")
    seq = Game.objects.get(pk=game).seq
    assert Game.objects.get(pk=game).seq == seq, "one tap entered nothing"
    phone.locator("#play-options button", has_text="no wish").click()
    phone.wait_for_selector(f"#entry[data-seq='{seq + 1}'][data-busy='0']", state="attached")
    lead = Event.objects.get(game_id=game, seq=seq + 1)
    assert (lead.type, lead.payload["cards"], "wish" in lead.payload) == ("play", ["Mahjong"], False)
    phone.wait_for_timeout(1500)  # the page enters nothing by itself after the lead
    assert Game.objects.get(pk=game).seq == seq + 1
