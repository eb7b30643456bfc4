"""The league pages' replayed figures (pair ratings, rank history) are kept in the cache under the
pool's version (games/ratings/league_cache.py): what the pages show is what a fresh replay gives,
a new rated game or a recompute gives new figures at once, and a page read twice replays once."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone as dj_timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Game, GameSeat
from games.ratings import league_cache, player_queries, queries, services
from games.ratings.models import GameOutcome, RatingChange
from games.ratings.services import outcome_fields
from games.ratings.types import GameResult, HandDetail
from tests.ratings.test_league_pages import NAMES, history

pytestmark = pytest.mark.django_db


@pytest.fixture
def tuesday(db):
    from bench.ratings_lab.fixtures import load_history
    from games.models import Club

    club = Club.objects.create(name="Tuesday", slug="tuesday")
    pid = load_history(club, history(dj_timezone.now() - timedelta(days=1)), names=NAMES)
    services.recompute_club(club.pk)
    return club, {NAMES[k]: v for k, v in pid.items()}


def fresh_pairs(club, **kw):
    """What the league page showed before the cache: the replay, names looked up."""
    pairs = queries.compute_partnerships(
        club.pk, "nanking", kw.get("start"), kw.get("end"), kw.get("min_games", 2), kw.get("limit")
    )
    names = {p.pk: p.name for p in club.players.all()}
    return [{**p, "names": [names[i] for i in p["players"]]} for p in pairs]


def fresh_ranks(club, player_id: int, table: str = "predictive"):
    """The replay for this one player, as the player page did it before the cache."""
    rule = player_queries.rank_rule(club)
    return player_queries.compute_rank_histories(club.pk, "nanking", table, rule, players=[player_id]).get(
        player_id, []
    )


def play_new_game(club, pid, a, b, score_a, score_b) -> Game:
    """A finished game after every other, rated as the outbox rates it (services.apply_game)."""
    when = dj_timezone.now()
    game = Game.objects.create(
        club=club,
        variant="nanking",
        status=Game.Status.FINISHED,
        finished_at=when,
        played_at=when,
        header={"format": "tichu-record/1"},
    )
    for seat, name in enumerate((a[0], b[0], a[1], b[1])):
        GameSeat.objects.create(game=game, seat=seat, player_id=pid[name])
    result = GameResult(
        game.pk,
        when.timestamp(),
        (tuple(pid[n] for n in a), tuple(pid[n] for n in b)),
        (score_a, score_b),
        0 if score_a > score_b else 1,
        4,
        hand_details=(HandDetail((score_a - score_b, 0)),) * 4,
    )
    GameOutcome.objects.create(
        game=game, club=club, variant="nanking", finished_at=when, seq=game.seq, **outcome_fields(result)
    )
    assert services.apply_game(game.pk) == "rated"
    return game


def test_the_cached_figures_are_a_fresh_replays(tuesday):
    club, pid = tuesday
    cache.clear()
    for _ in range(2):  # computed, then read from the cache
        assert queries.league_partnerships(club.pk, "nanking") == fresh_pairs(club)
        assert queries.league_partnerships(club.pk, "nanking", limit=2) == fresh_pairs(club, limit=2)
        for name, player in pid.items():
            for table in ("predictive", "elo"):
                assert player_queries.club_rank_history(club, "nanking", player, table) == fresh_ranks(
                    club, player, table
                ), (name, table)
    assert fresh_pairs(club) and fresh_ranks(club, pid["Anna"]), "the history has pairs and ranks to compare"


def test_a_page_read_twice_replays_once(tuesday):
    club, pid = tuesday
    cache.clear()
    client = Client()
    with (
        mock.patch.object(queries, "compute_partnerships", wraps=queries.compute_partnerships) as pairs,
        mock.patch.object(
            player_queries, "compute_rank_histories", wraps=player_queries.compute_rank_histories
        ) as ranks,
    ):
        for _ in range(3):
            assert client.get("/clubs/tuesday/league/").status_code == 200
            assert client.get(f"/players/{pid['Anna']}/").status_code == 200
            assert client.get(f"/players/{pid['Ben']}/").status_code == 200
    assert pairs.call_count == 1, "the league page's pairs: one replay for three views"
    assert ranks.call_count == 1, "one replay of the pool gives every player's rank history"


def test_a_new_game_changes_the_figures_at_once(tuesday):
    club, pid = tuesday
    cache.clear()
    client = Client()
    pairs_before = queries.league_partnerships(club.pk, "nanking")
    ranks_before = player_queries.club_rank_history(club, "nanking", pid["Dirk"], "predictive")
    version = league_cache.pool_version(club.pk, "nanking")
    play_new_game(club, pid, ("Clara", "Dirk"), ("Anna", "Ben"), 900, 100)
    assert league_cache.pool_version(club.pk, "nanking") != version
    pairs_after = queries.league_partnerships(club.pk, "nanking")
    assert pairs_after != pairs_before and pairs_after == fresh_pairs(club)
    ranks_after = player_queries.club_rank_history(club, "nanking", pid["Dirk"], "predictive")
    assert ranks_after != ranks_before and ranks_after == fresh_ranks(club, pid["Dirk"])
    page = client.get("/clubs/tuesday/league.json").json()["partnerships"]
    assert page == pairs_after


def test_a_recompute_or_a_rename_shows_at_once(tuesday):
    club, pid = tuesday
    cache.clear()
    queries.league_partnerships(club.pk, "nanking")
    player_queries.club_rank_history(club, "nanking", pid["Anna"], "predictive")
    club.players.filter(pk=pid["Anna"]).update(name="Annabel")
    assert any("Annabel" in p["names"] for p in queries.league_partnerships(club.pk, "nanking")), "names: never cached"
    RatingChange.objects.filter(club=club, game__finished_at__lt=dj_timezone.now() - timedelta(days=300)).delete()
    services.recompute_club(club.pk)  # e.g. after the club's old games were removed
    assert queries.league_partnerships(club.pk, "nanking") == fresh_pairs(club)
    assert player_queries.club_rank_history(club, "nanking", pid["Anna"], "predictive") == fresh_ranks(
        club, pid["Anna"]
    )


def test_the_figures_are_the_same_with_the_cache_down(tuesday):
    club, pid = tuesday
    with (
        mock.patch("games.safe_cache.cache.get", side_effect=ConnectionError),
        mock.patch("games.safe_cache.cache.set", side_effect=ConnectionError),
    ):
        assert queries.league_partnerships(club.pk, "nanking") == fresh_pairs(club)
        assert player_queries.club_rank_history(club, "nanking", pid["Anna"], "elo") == fresh_ranks(
            club, pid["Anna"], "elo"
        )


def _table_rows(club, **kw):
    return [
        [r.as_dict() for r in queries.league_table(club.pk, "nanking", table=t, **kw).rows]
        for t in ("predictive", "elo")
    ]


def test_the_cached_league_table_is_a_fresh_one(tuesday):
    club, pid = tuesday
    rule = player_queries.rank_rule(club)
    cache.clear()
    with (
        mock.patch("games.safe_cache.cache.get", return_value=None),
        mock.patch("games.safe_cache.cache.set"),
    ):
        fresh = _table_rows(club, rule=rule)
    assert fresh[0], "the history has a table to compare"
    for _ in range(2):  # computed, then read from the cache
        assert _table_rows(club, rule=rule) == fresh
    club.players.filter(pk=pid["Anna"]).update(name="Annabel")
    assert any(r["player"] == "Annabel" for r in _table_rows(club, rule=rule)[0]), "names: never cached"


def test_a_warm_league_reads_no_rating_row(tuesday):
    """The league page, its JSON and the API read the pool's RatingChange rows once per version of
    the pool: a second view costs what the club's players cost, not its history (bench/scale.py)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    club, pid = tuesday
    cache.clear()
    client = Client()
    for url in ("/clubs/tuesday/league/", "/clubs/tuesday/league.json", "/api/clubs/tuesday/league/"):
        assert client.get(url).status_code == 200, url
        with CaptureQueriesContext(connection) as queries_run:
            assert client.get(url).status_code == 200, url
        read = [q["sql"] for q in queries_run.captured_queries if "games_ratingchange" in q["sql"]]
        assert read == [], (url, read)


def test_the_pool_version_reads_one_row(tuesday):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    club, pid = tuesday
    with CaptureQueriesContext(connection) as queries_run:
        league_cache.pool_version(club.pk, "nanking")
    assert len(queries_run.captured_queries) == 1
    assert "games_ratingchange" not in queries_run.captured_queries[0]["sql"]


def test_a_game_or_a_player_deleted_gives_new_figures(tuesday):
    """Rows removed with a game or a player (CASCADE, no rating write) change the pool's version."""
    club, pid = tuesday
    cache.clear()
    rule = player_queries.rank_rule(club)
    before = _table_rows(club, rule=rule)
    version = league_cache.pool_version(club.pk, "nanking")
    oldest = Game.objects.filter(club=club).order_by("finished_at").first()
    oldest.delete()
    assert league_cache.pool_version(club.pk, "nanking") != version
    after = _table_rows(club, rule=rule)
    assert after != before
    cache.clear()
    assert _table_rows(club, rule=rule) == after
    # a merge moves the seats, then deletes the player with its rows (the recompute comes after)
    version = league_cache.pool_version(club.pk, "nanking")
    spare = club.players.create(name="Spare")
    GameSeat.objects.filter(player_id=pid["Anna"]).update(player=spare)
    club.players.get(pk=pid["Anna"]).delete()
    assert league_cache.pool_version(club.pk, "nanking") != version
    assert all(r["player_id"] != pid["Anna"] for rows in _table_rows(club, rule=rule) for r in rows)


@settings(max_examples=200, deadline=None)
@given(
    st.sets(st.integers(0, 400), max_size=60),
    st.integers(0, 40),
    st.lists(st.tuples(st.integers(-10, 420), st.integers(-10, 420)), min_size=1, max_size=10),
)
def test_a_calendar_kept_as_its_breaks_counts_every_absence_alike(days, window, asks):
    """The league keeps the club's calendar as its breaks (ClubCalendar.breaks): the absence it
    gives is the full calendar's, for any evenings, window and days asked."""
    from datetime import date as day_type

    from games.ratings.standing import ClubCalendar, RankRule

    origin = day_type(2024, 1, 1)
    rule = RankRule(inactive_days=window)
    full = ClubCalendar(rule, (origin + timedelta(days=d) for d in days))
    kept = ClubCalendar.from_breaks(rule, full.breaks())
    assert len(kept.days) <= len(full.days)
    for a, b in asks:
        last, ref = origin + timedelta(days=min(a, b)), origin + timedelta(days=max(a, b))
        assert kept.absence(last, ref) == full.absence(last, ref)


def test_a_player_page_reads_its_own_rank_history(tuesday):
    """One replay keeps every player's rank history under a key of its own: a page reads one."""
    club, pid = tuesday
    cache.clear()
    fresh = {name: fresh_ranks(club, player) for name, player in pid.items()}
    with mock.patch.object(
        player_queries, "compute_rank_histories", wraps=player_queries.compute_rank_histories
    ) as ranks:
        for name, player in pid.items():
            assert player_queries.club_rank_history(club, "nanking", player, "predictive") == fresh[name], name
        assert player_queries.club_rank_history(club, "nanking", 10**9, "predictive") == []
    assert ranks.call_count == 1
    with mock.patch("games.safe_cache.cache.get_many", wraps=cache.get_many) as reads:
        player_queries.club_rank_history(club, "nanking", pid["Anna"], "predictive")
    (keys,) = reads.call_args.args
    assert len(keys) == 2 and keys[0].endswith(f":{pid['Anna']}")
