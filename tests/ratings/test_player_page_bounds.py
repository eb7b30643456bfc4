"""A regular's player page shows a bounded amount whatever their history (issue #35 item 4;
games/ratings/player_view.py): the latest games with keyset paging to the older ones (every game
reachable exactly once), a chart of at most its budget that keeps the latest, highest and lowest
rating, a summary kept under the pool's version and rebuilt when the ratings change. The JSON
download stays whole and is the reference here."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.core.cache import cache
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.ratings_lab.fixtures import load_history
from bench.ratings_lab.synthetic import synthetic_history
from games.models import Club, Player
from games.ratings import player_view, services
from games.ratings.models import GameOutcome, RatingChange

pytestmark = pytest.mark.django_db

GAME_LINK = re.compile(r'<a href="/games/(\d+)/')
RECENT = re.compile(r'<table class="list" id="recent">(.*?)</table>', re.S)
OLDER = re.compile(r'id="older-games" href="([^"]+)"')
NEWER = re.compile(r'id="newer-games" href="([^"]+)"')


@pytest.fixture
def regular(db):
    """A club of six players and 150 games: each player in about a hundred."""
    club = Club.objects.create(name="Tuesday", slug="tuesday")
    _, games = synthetic_history(150, 6, seed=3)
    load_history(club, games)
    services.recompute_club(club.pk)
    cache.clear()
    player = Player.objects.filter(club=club).order_by("id").first()
    return club, player


def whole_history(player) -> list[dict]:
    return Client().get(f"/players/{player.pk}.json").json()["history"]


def listed(html: str) -> list[int]:
    return [int(g) for g in GAME_LINK.findall(RECENT.search(html).group(1))]


def test_the_page_lists_the_latest_games_and_pages_to_every_older_one_once(regular, monkeypatch):
    club, player = regular
    monkeypatch.setattr(player_view, "LIST_GAMES", 7)
    newest_first = [g["game_id"] for g in reversed(whole_history(player))]
    assert len(newest_first) > 7 * 3, "more games than a few pages"
    client = Client()
    url, pages = f"/players/{player.pk}/?variant=nanking&period=all", []
    while url:
        html = client.get(url).content.decode()
        pages.append((url, listed(html)))
        assert len(pages[-1][1]) <= 7
        older = OLDER.search(html)
        url = older.group(1).replace("&amp;", "&").split("#")[0] if older else None
        if url:
            assert url.startswith("?") and "period=all" in url  # the reader's period is kept
            url = f"/players/{player.pk}/{url}"
    assert [g for _url, ids in pages for g in ids] == newest_first, "every game once, newest first"
    assert len(pages) == -(-len(newest_first) // 7)
    # and back: the newer links give the same pages, newest last
    html = client.get(pages[-1][0]).content.decode()
    back = [listed(html)]
    while newer := NEWER.search(html):
        html = client.get(f"/players/{player.pk}/" + newer.group(1).replace("&amp;", "&").split("#")[0]).content
        html = html.decode()
        back.append(listed(html))
    assert [g for ids in reversed(back) for g in ids] == newest_first
    assert 'id="newer-games"' not in client.get(f"/players/{player.pk}/").content.decode()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=st.integers(1, 40), backwards=st.booleans())
def test_the_api_pages_reach_every_game_exactly_once(regular, limit, backwards):
    club, player = regular
    oldest_first = [g["game_id"] for g in whole_history(player)]
    client, seen = Client(), []
    body = client.get(f"/api/players/{player.pk}/ratings/", {"limit": limit}).json()
    assert body["history_total"] == len(oldest_first) and body["newer"] is None
    while True:
        ids = [g["game_id"] for g in body["history"]]
        assert 0 < len(ids) <= limit
        seen = ids + seen
        if body["older"] is None:
            break
        body = client.get(f"/api/players/{player.pk}/ratings/", {"limit": limit, "before": body["older"]}).json()
    assert seen == oldest_first
    if backwards:  # from the oldest page back up with the newer cursors
        again = [g["game_id"] for g in body["history"]]
        while body["newer"] is not None:
            body = client.get(f"/api/players/{player.pk}/ratings/", {"limit": limit, "after": body["newer"]}).json()
            again += [g["game_id"] for g in body["history"]]
        assert again == oldest_first


def test_the_api_answers_the_whole_history_unless_a_page_is_asked_for(regular):
    club, player = regular
    body = Client().get(f"/api/players/{player.pk}/ratings/", {"history": "all"}).json()
    assert body["history"] == whole_history(player)
    assert (body["older"], body["newer"], body["history_total"]) == (None, None, len(body["history"]))
    # the answer clients read before paging came (docs/api.md: every rated game) stays the default
    assert Client().get(f"/api/players/{player.pk}/ratings/").json() == body
    bounded = Client().get(f"/api/players/{player.pk}/ratings/", {"history": "page"}).json()
    assert bounded["history"] == body["history"][-player_view.LIST_GAMES :]
    assert bounded["rank_history"] == body["rank_history"][-player_view.RANK_DAYS_API :]
    for key in ("rating", "rd", "elo", "games", "wins", "provisional", "ranked", "period", "games_to_rank"):
        assert bounded[key] == body[key], key


@pytest.mark.parametrize(
    "query", [{"before": "x"}, {"after": "-1"}, {"limit": "0"}, {"limit": "501"}, {"history": "no"}]
)
def test_a_bad_cursor_is_a_coded_400(regular, query):
    club, player = regular
    answer = Client().get(f"/api/players/{player.pk}/ratings/", query)
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    if "before" in query or "after" in query:
        assert Client().get(f"/players/{player.pk}/", query).status_code == 400


def test_the_chart_draws_at_most_its_budget_with_the_latest_highest_and_lowest(regular, monkeypatch):
    club, player = regular
    monkeypatch.setattr(player_view, "CHART_POINTS", 12)
    history = whole_history(player)
    assert len(history) > 12
    html = Client().get(f"/players/{player.pk}/").content.decode()
    titles = re.findall(r'<circle class="game"[^>]*><title>[^<]*#(\d+):', html)
    assert 0 < len(titles) <= 12
    drawn = [int(g) for g in titles]
    assert drawn == sorted(drawn, key=[g["game_id"] for g in history].index), "in the order played"
    ratings = {g["game_id"]: g["rating_after"] for g in history}
    assert history[-1]["game_id"] in drawn, "the latest rating"
    assert max(ratings.values()) in {ratings[g] for g in drawn}, "the highest"
    assert min(ratings.values()) in {ratings[g] for g in drawn}, "the lowest"
    assert 'id="chart-thinned"' in html


def test_a_short_history_is_the_whole_page_as_before(regular):
    """Below every bound the bounded page shows what the whole one did (the JSON's figures)."""
    club, player = regular
    whole = Client().get(f"/players/{player.pk}.json").json()
    page = player_view.player_view(player)
    assert [g["game_id"] for g in page["chart_history"]] == [g["game_id"] for g in whole["history"]]
    for key in ("rating", "rd", "elo", "games", "wins", "peak", "period", "best_wins", "worst_losses"):
        if key in ("best_wins", "worst_losses"):
            assert [g["game_id"] for g in page[key]] == [g["game_id"] for g in whole[key]], key
            assert [g["partners"] for g in page[key]] == [g["partners"] for g in whole[key]], key
        else:
            assert page[key] == whole[key], key
    assert page["partners"] == whole["partners"]
    assert page["head_to_head"] == whole["head_to_head"]
    assert page["evenings"] == whole["evenings"][-player_view.EVENINGS_SHOWN :]
    for start, end in (("2000-01-01", None), (None, "2000-01-01"), (whole["history"][3]["evening"], None)):
        s, e = (date.fromisoformat(start) if start else None), (date.fromisoformat(end) if end else None)
        query = {k: v for k, v in (("from", start), ("to", end)) if v}
        assert (
            player_view.player_view(player, "nanking", s, e)["period"]
            == Client().get(f"/players/{player.pk}.json", query).json()["period"]
        )


def test_the_kept_summary_is_rebuilt_after_a_correction(regular):
    club, player = regular
    before = player_view.summary(player, "nanking")
    assert before == player_view.compute_summary(player, "nanking")
    first = RatingChange.objects.filter(player=player).order_by("ordinal").first()
    outcome = GameOutcome.objects.get(game_id=first.game_id)
    outcome.winner = 1 - outcome.winner  # the score sheet corrected: the other side won
    outcome.totals = list(reversed(outcome.totals)) if outcome.totals else outcome.totals
    outcome.hand_points = [list(reversed(h)) for h in outcome.hand_points]
    outcome.save()
    services.recompute_club(club.pk)
    after = player_view.summary(player, "nanking")
    assert after != before and after == player_view.compute_summary(player, "nanking")
    assert after["wins"] != before["wins"]


def test_a_renamed_partner_shows_at_once(regular):
    club, player = regular
    partner = player_view.player_view(player)["partners"][0]
    Player.objects.filter(pk=partner["player_id"]).update(name="Renamed")
    assert player_view.player_view(player)["partners"][0]["player"] == "Renamed"
