"""A player's own place (issue 39): the home at /me/ (games by evening, partner, opponents,
result, Elo change, a replay link from one's seat; filters; call rates; tournaments), "you" on the
club's list, which is ordered by when games were played and filters by player; the top bar of a
player; the game page's words and links."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from games.models import Game, Membership, Player
from games.ratings import services as rating_services
from tests.api.helpers import grand_double, hand, record

from .conftest import import_game
from .dom import parse

pytestmark = pytest.mark.django_db

LEVEL = [grand_double(0), grand_double(1), grand_double(0), grand_double(1)]
# Ann calls Tichu and Bob goes out first (failed), then Ann calls Tichu and goes out first (made)
CALLS = [hand(out=(1, 0, 2, 3), calls={"0": "tichu"}), hand(out=(0, 1, 2, 3), calls={"0": "tichu"})]


def _game(club, players, when, team0_wins=True, finish=True):
    events = CALLS + LEVEL + ([grand_double(0 if team0_wins else 1)] if finish else [])
    return import_game(club, record(events, players=players, meta={"played_at": when}))


@pytest.fixture
def history(public_club):
    """Three games of Ann's: two finished on 3 March 2025 (a win with Cid, a loss with Bob), one in
    play on 10 March; and an older game without her (2012)."""
    old = import_game(
        public_club,
        record(
            LEVEL + [grand_double(0)], players=["Bob", "Cid", "Dee", "Eve"], meta={"played_at": "2012-05-01T19:00:00Z"}
        ),
    )
    won = _game(public_club, ["Ann", "Bob", "Cid", "Dee"], "2025-03-03T19:00:00Z", team0_wins=True)
    lost = _game(public_club, ["Ann", "Cid", "Bob", "Dee"], "2025-03-03T20:00:00Z", team0_wins=False)
    live = _game(public_club, ["Dee", "Ann", "Bob", "Cid"], "2025-03-10T19:00:00Z", finish=False)
    rating_services.recompute_club(public_club.pk)
    return {"old": old, "won": won, "lost": lost, "live": live}


@pytest.fixture
def ann(public_club, client):
    user = get_user_model().objects.create_user(username="ann", password="pw")
    Membership.objects.create(club=public_club, user=user, role=Membership.Role.VIEWER)
    Player.objects.filter(club=public_club, name="Ann").update(user=user)
    client.force_login(user)
    return user


def _me(client, query=""):
    with translation.override("en"):
        return parse(client.get(reverse("me") + query, HTTP_ACCEPT_LANGUAGE="en").content)


def test_my_games_by_evening_with_partner_opponents_result_elo_and_a_replay_from_my_seat(client, history, ann):
    root = _me(client)
    items = {int(li.attrs["data-game"]): li for li in root.find_all("li") if "data-game" in li.attrs}
    assert set(items) == {history["won"].pk, history["lost"].pk, history["live"].pk}  # not the 2012 game
    won, lost, live = items[history["won"].pk], items[history["lost"].pk], items[history["live"].pk]
    assert won.attrs["data-result"] == "won" and "with Cid" in won.text() and "against Bob & Dee" in won.text()
    assert lost.attrs["data-result"] == "lost" and "with Bob" in lost.text() and "against Cid & Dee" in lost.text()
    assert live.attrs["data-result"] == "in_play" and "with Cid" in live.text()
    assert re.search(r"Elo \+\d+", won.text()) and re.search(r"Elo \u2212\d+", lost.text())
    assert "Elo" not in live.text()  # not rated: no change to show
    replay = live.find("a", cls="button")
    assert replay.attrs["href"] == f"/games/{history['live'].pk}/replay/?view=1&bottom=1"  # Ann's seat
    days = [t.attrs["datetime"] for t in root.by_id("my-evenings").find_all("time")]
    assert days == ["2025-03-10", "2025-03-03"]  # newest evening first, two games on the 3rd
    assert root.by_id("last-replay").attrs["href"].startswith(f"/games/{history['live'].pk}/replay/")


def test_my_call_rates_count_made_and_called(client, history, ann):
    root = _me(client)
    # two rated games, each with two Tichu calls of Ann's (one made) and Grand Tichus on her team
    assert "50%" in root.by_id("tichu-rate").text() and "2 of 4" in root.by_id("tichu-rate").text()
    assert "Grand Tichu" in root.by_id("grand-rate").text()


@pytest.mark.parametrize(
    "query, expected",
    [("partner", {"won", "live"}), ("opponent", {"lost"}), ("from", {"live"}), ("to", {"won", "lost"})],
)
def test_the_filters(client, history, ann, public_club, query, expected):
    cid = Player.objects.get(club=public_club, name="Cid")
    q = {
        "partner": f"?partner={cid.pk}",
        "opponent": f"?opponent={cid.pk}",
        "from": "?from=2025-03-04",
        "to": "?to=2025-03-09",
    }[query]
    root = _me(client, q)
    shown = {int(li.attrs["data-game"]) for li in root.find_all("li") if "data-game" in li.attrs}
    assert shown == {history[k].pk for k in expected}
    assert "open" in root.by_id("my-filters").attrs


def test_a_bad_date_is_said_not_a_crash(client, history, ann):
    root = _me(client, "?from=yesterday")
    assert "from must be a date" in root.by_id("my-filters").text()


def test_an_unlinked_account_is_told_how_to_link(client, history, make_user):
    client.force_login(make_user("nobody"))
    root = _me(client)
    assert "This is me" in root.by_id("no-player").text()


def test_signed_out_readers_are_sent_to_sign_in(client):
    assert client.get(reverse("me"))["Location"].startswith("/accounts/sign-in/")


def test_the_club_list_is_newest_first_filterable_by_player_and_marks_you(client, history, ann, public_club):
    with translation.override("en"):
        root = parse(client.get(f"/clubs/{public_club.slug}/", HTTP_ACCEPT_LANGUAGE="en").content)
    rows = [int(tr.attrs["data-game"]) for tr in root.find_all("tr") if "data-game" in tr.attrs]
    assert rows == [history[k].pk for k in ("live", "lost", "won", "old")]  # by date played, not by number
    mine = [tr for tr in root.find_all("tr") if "data-game" in tr.attrs and tr.find("span", cls="you-badge")]
    assert len(mine) == 3
    eve = Player.objects.get(club=public_club, name="Eve")
    root = parse(client.get(f"/clubs/{public_club.slug}/?player={eve.pk}").content)
    assert [int(tr.attrs["data-game"]) for tr in root.find_all("tr") if "data-game" in tr.attrs] == [history["old"].pk]


def test_a_players_top_bar(client, history, ann, public_club):
    page = client.get("/clubs/").content.decode()
    nav = page.split("</nav>")[0]
    assert 'id="my-games-link"' in nav and 'id="enter-link"' not in nav and ">API<" not in nav
    Membership.objects.filter(user=ann).update(role=Membership.Role.SCORER)
    nav = client.get("/clubs/").content.decode().split("</nav>")[0]
    assert 'id="enter-link"' in nav


def test_the_game_page_names_its_links_for_people(client, history):
    with translation.override("en"):
        live = client.get(f"/games/{history['live'].pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        done = client.get(f"/games/{history['won'].pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Final position" not in live and "Where the game stands now" in live
    assert "Final position" in done
    assert "Download this game" in done and "Download the record (JSON)" not in done


def test_my_game_opens_from_my_seat(client, history, ann):
    page = parse(client.get(f"/games/{history['live'].pk}/replay/").content)
    assert page.by_id("replay").attrs["data-view"] == "1"
    page = parse(client.get(f"/games/{history['live'].pk}/replay/?view=all").content)
    assert page.by_id("replay").attrs["data-view"] == "all"  # the address's view wins
    assert Game.objects.get(pk=history["live"].pk).status == Game.Status.ACTIVE
