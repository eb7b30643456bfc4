"""The league's rules and the player page on a small hand-made club history: minimum games and
inactivity per club (and their settings page), the periods, the why lines, evenings, rank
history, partners with expected against actual, partnerships, and a tournament's performance."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from django.test import Client
from django.utils import timezone as dj_timezone

from bench.ratings_lab.fixtures import load_history
from games.clubs.models import AuditEntry
from games.models import Club, Game, Membership, Player
from games.ratings import services
from games.ratings.evening import evening_of
from games.ratings.league_rules import rules_of_club_id
from games.ratings.models import RatingChange
from games.ratings.types import GameResult, HandDetail
from games.tournaments.models import Tournament
from tests.ratings.rules import set_league_rules

NAMES = {k: k.title() for k in ("anna", "ben", "clara", "dirk", "eva", "finn")}


def game(k, when, a, b, score_a, score_b):
    return GameResult(
        k,
        when.timestamp(),
        (a, b),
        (score_a, score_b),
        0 if score_a > score_b else 1,
        4,
        hand_details=(HandDetail((score_a - score_b, 0)),) * 4,
    )


def evening(day: datetime) -> datetime:
    """19:00 UTC of ``day``'s date."""
    return datetime(day.year, day.month, day.day, 19, tzinfo=timezone.utc)


def history(now):
    """Six evenings: anna/ben/clara/dirk play 6 games a night for five weeks, eva joins for two
    games on the last night, finn played twice a year ago and never came back."""
    out, k = [], 0
    # An evening runs from 06:00 to 06:00 in the club's zone (games.ratings.evening; this club's
    # is UTC), so each past evening starts at 19:00 of its day: one relative to the clock would
    # straddle 06:00 when the suite runs in the early morning and count as two evenings.
    old = evening(now - timedelta(days=400))
    for j in range(2):
        out.append(game(k, old + timedelta(minutes=j), ("finn", "anna"), ("ben", "clara"), 520, 480))
        k += 1
    for week in range(5):
        night = evening(now - timedelta(days=7 * (5 - week)))
        pairings = [
            (("anna", "ben"), ("clara", "dirk")),
            (("anna", "clara"), ("ben", "dirk")),
            (("anna", "dirk"), ("ben", "clara")),
        ] * 2
        for j, (a, b) in enumerate(pairings):
            out.append(game(k, night + timedelta(minutes=30 * j), a, b, 600 - 40 * (j % 3) + 20 * week, 400))
            k += 1
    last = now - timedelta(hours=3)
    if evening_of(last + timedelta(minutes=30), "UTC") != evening_of(last, "UTC"):  # its two games on one evening
        last -= timedelta(hours=1)
    for j in range(2):
        out.append(game(k, last + timedelta(minutes=30 * j), ("eva", "anna"), ("ben", "dirk"), 300, 700))
        k += 1
    return out


@pytest.fixture
def tuesday(db):
    club = Club.objects.create(name="Tuesday", slug="tuesday")
    games = history(dj_timezone.now())
    pid = load_history(club, games, names=NAMES)
    services.recompute_club(club.pk)
    return club, {NAMES[k]: v for k, v in pid.items()}, games


def test_new_players_are_listed_with_the_games_they_need_and_a_break_of_the_club_is_no_ones_absence(tuesday):
    """Finn's last games are 400 days old, but the club did not play for the year after them: a
    break of the whole club longer than the 180-day window is no one's absence (standing.ClubCalendar),
    so Finn is short of games, not inactive; a player away while the club played on is inactive
    (tests/ratings/test_imported_history_activity.py)."""
    club, pid, _ = tuesday
    c = Client()
    data = c.get(f"/clubs/{club.slug}/league.json").json()
    for rows in (data["rows"], data["elo"]["rows"]):
        by_name = {r["player"]: r for r in rows}
        assert by_name["Eva"]["games_to_rank"] == 3 and by_name["Eva"]["rank"] is None
        assert not by_name["Finn"]["inactive"] and by_name["Finn"]["games_to_rank"] == 3
        assert by_name["Finn"]["rank"] is None
        ranked = [r["player"] for r in rows if r["rank"]]
        assert sorted(ranked) == ["Anna", "Ben", "Clara", "Dirk"]  # ranked after one evening of 6 games
        assert sorted(r["player"] for r in rows[4:]) == ["Eva", "Finn"]  # short of games, after the ranked
    html = c.get(f"/clubs/{club.slug}/league/").content.decode()
    assert "3 more games until ranked" in html
    # the rule is the club's: 2 games and no inactivity rule rank everyone
    set_league_rules(club, min_games=2, inactive_days=0)
    data = c.get(f"/clubs/{club.slug}/league.json").json()
    assert all(r["rank"] for r in data["rows"]) and data["rules"]["min_games"] == 2


def test_the_club_admin_edits_the_rules_on_the_site(tuesday, make_user):
    club, pid, _ = tuesday
    ada, bea = make_user("ada"), make_user("bea")
    Membership.objects.create(club=club, user=ada, role="admin")
    Membership.objects.create(club=club, user=bea, role="scorer")
    url = f"/clubs/{club.slug}/league/settings/"
    c = Client()
    assert c.get(url).status_code == 404
    c.force_login(bea)
    assert c.get(url).status_code == 404 and c.post(url, {"min_games": 1}).status_code == 404
    assert "league-settings-link" not in c.get(f"/clubs/{club.slug}/league/").content.decode()
    c.force_login(ada)
    assert "league-settings-link" in c.get(f"/clubs/{club.slug}/league/").content.decode()
    bad = c.post(
        url,
        {
            "leads_with": "elo",
            "min_games": 0,
            "inactive_days": 30,
            "season_start_month": 9,
            "time_zone": "UTC",
        },
    )
    assert bad.status_code == 200 and "field-errors" in bad.content.decode()
    assert rules_of_club_id(club.pk).min_games == 5
    ok = c.post(
        url,
        {
            "leads_with": "predictive",
            "min_games": 8,
            "inactive_days": 30,
            "season_start_month": 9,
            "follows_tournament_vp": "on",
            "time_zone": "UTC",
        },
    )
    assert ok.status_code == 302
    rules = rules_of_club_id(club.pk)
    assert (
        rules.leads_with,
        rules.min_games,
        rules.inactive_days,
        rules.season_start_month,
        rules.rates_bot_games,
        rules.follows_tournament_vp,
    ) == ("predictive", 8, 30, 9, False, True)
    entry = AuditEntry.objects.filter(club=club, action="club_updated").get()
    assert "league_min_games from 5 to 8" in entry.summary
    # API too (admins only)
    from tests.conftest import client_for

    league = f"/api/clubs/{club.pk}/league/"
    assert client_for(bea).patch(league, {"min_games": 3}, format="json").status_code == 403
    r = client_for(ada).patch(league, {"inactive_days": -1}, format="json")
    assert r.status_code == 400
    r = client_for(ada).patch(league, {"min_games": "3"}, format="json")
    assert r.status_code == 400  # a JSON integer, not a string
    r = client_for(ada).patch(league, {"league_min_games": 3}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "unknown_fields"  # the rules are no longer Club's columns
    r = client_for(ada).patch(league, {"min_games": 3}, format="json")
    assert r.status_code == 200 and r.json()["min_games"] == 3 and r.json()["follows_tournament_vp"] is True
    assert client_for(ada).get(league).json()["rules"]["min_games"] == 3
    # the club's own API no longer takes them
    r = client_for(ada).patch(f"/api/clubs/{club.pk}/", {"league_min_games": 3}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "unknown_fields"


def test_the_club_admin_sets_the_time_zone_and_an_unknown_one_is_refused(tuesday, make_user):
    club, _, _ = tuesday
    ada = make_user("ada")
    Membership.objects.create(club=club, user=ada, role="admin")
    assert club.time_zone == "UTC"  # the site's zone (settings.TIME_ZONE) until the club says its own
    url = f"/clubs/{club.slug}/league/settings/"
    c = Client()
    c.force_login(ada)
    form = {
        "leads_with": "elo",
        "min_games": 5,
        "inactive_days": 180,
        "season_start_month": 1,
    }
    page = c.get(url).content.decode()
    assert 'list="time-zones"' in page and '<option value="Europe/Berlin">' in page
    bad = c.post(url, {**form, "time_zone": "Europe/Berln"}).content.decode()
    assert "“Europe/Berln” is not a time zone this site knows" in bad
    club.refresh_from_db()
    assert club.time_zone == "UTC" and not AuditEntry.objects.filter(club=club, action="club_updated").exists()
    assert c.post(url, {**form, "time_zone": "Europe/Berlin"}).status_code == 302
    club.refresh_from_db()
    assert club.time_zone == "Europe/Berlin"
    assert "time_zone from 'UTC' to 'Europe/Berlin'" in AuditEntry.objects.get(club=club, action="club_updated").summary
    # the API, with the club's other settings
    from tests.conftest import client_for

    api = client_for(ada)
    assert api.get(f"/api/clubs/{club.pk}/").json()["time_zone"] == "Europe/Berlin"
    r = api.patch(f"/api/clubs/{club.pk}/", {"time_zone": "Mars/Olympus_Mons"}, format="json")
    assert r.status_code == 400 and "Mars/Olympus_Mons" in str(r.json())
    club.refresh_from_db()
    assert club.time_zone == "Europe/Berlin"
    r = api.patch(f"/api/clubs/{club.pk}/", {"time_zone": "America/New_York"}, format="json")
    assert r.status_code == 200 and r.json()["time_zone"] == "America/New_York"
    # and when an account creates a club through the API
    r = api.post("/api/clubs/", {"name": "Tokyo", "slug": "tokyo", "time_zone": "Asia/Tokio"}, format="json")
    assert r.status_code == 400 and "Asia/Tokio" in str(r.json()) and not Club.objects.filter(slug="tokyo").exists()
    r = api.post("/api/clubs/", {"name": "Tokyo", "slug": "tokyo", "time_zone": "Asia/Tokyo"}, format="json")
    assert r.status_code == 201 and Club.objects.get(slug="tokyo").time_zone == "Asia/Tokyo"
    schema = c.get("/api/schema/").content.decode()
    assert "time_zone" in schema and "IANA name" in schema


def test_periods_count_their_games_and_their_change(tuesday):
    club, pid, games = tuesday
    c = Client()
    month = c.get(f"/clubs/{club.slug}/league.json?period=30d").json()
    assert month["period"] == "30d"
    cutoff = (dj_timezone.now() - timedelta(days=29)).date()
    recent = [g for g in games if datetime.fromtimestamp(g.finished_at, tz=timezone.utc).date() >= cutoff]
    assert month["games"] == len(recent) < len(games)
    every = c.get(f"/clubs/{club.slug}/league.json?period=all").json()
    assert every["games"] == len(games)
    anna_all = next(r for r in every["elo"]["rows"] if r["player"] == "Anna")
    anna_month = next(r for r in month["elo"]["rows"] if r["player"] == "Anna")
    assert anna_all["rating"] == anna_month["rating"]  # the same rating, a different change
    assert anna_all["change"] == pytest.approx(anna_all["rating"] - 1500)
    page = c.get(f"/players/{pid['Anna']}.json?period=30d").json()
    assert page["period"]["elo_change"] == pytest.approx(anna_month["change"])
    assert page["period"]["games"] == anna_month["games"]
    assert c.get(f"/clubs/{club.slug}/league.json?period=decade").status_code == 404


def test_the_player_page_explains_every_change(tuesday):
    club, pid, games = tuesday
    c = Client()
    page = c.get(f"/players/{pid['Anna']}.json").json()
    mine = [g for g in games if "anna" in g.players]
    assert len(page["history"]) == page["games"] == len(mine)
    first = page["history"][0]  # 520-480 with Finn against Ben & Clara
    assert first["why"].startswith("won 520–480 with Finn against Ben & Clara, expected 50%: +20")
    for g in page["history"]:
        verb = {"W": "won", "L": "lost", "D": "drew"}[g["result"]]
        assert g["why"].startswith(verb) and f"{g['elo_change']:+.0f}" in g["why"]
        assert f"predictive {round(100 * g['expected'])}%: {g['change']:+.1f}" in g["why"]
    # evenings: one per day played, their games add up; the last is a 0-2 with a low performance
    assert [e["games"] for e in page["evenings"]] == [2, 6, 6, 6, 6, 6, 2]
    assert (
        page["evenings"][-1]["wins"] == 0 and page["evenings"][-1]["performance"] < page["evenings"][-2]["performance"]
    )
    # partners and head to head: expected is the sum of the pre-game chances of those games
    eva = next(r for r in page["partners"] if r["player"] == "Eva")
    assert eva["games"] == 2 and eva["wins"] == 0
    assert eva["expected"] == pytest.approx(sum(g["expected"] for g in page["history"][-2:]))
    assert eva["surplus"] == pytest.approx(-eva["expected"])
    assert sum(r["games"] for r in page["head_to_head"]) == 2 * len(mine)
    # rank history: after each club day; today Anna's rank is the league's
    league = c.get(f"/clubs/{club.slug}/league.json").json()
    anna_rank = next(r["rank"] for r in league["elo"]["rows"] if r["player"] == "Anna")
    assert page["rank_table"] == "elo" and page["rank_history"][-1]["rank"] == anna_rank
    assert page["rank_history"][0]["rank"] is None  # two games a year ago: not ranked yet
    html = c.get(f"/players/{pid['Anna']}/").content.decode()
    assert first["why"].replace("&", "&amp;") in html or first["why"] in html
    assert 'class="rank-chart"' in html and 'id="evenings-table"' in html
    eva_page = c.get(f"/players/{pid['Eva']}.json").json()
    assert eva_page["standing_note"] == "3 more games until ranked" and not eva_page["ranked"]


def test_partnerships_on_the_league_page(tuesday):
    club, pid, games = tuesday
    data = Client().get(f"/clubs/{club.slug}/league.json").json()
    pairs = {tuple(p["names"]): p for p in data["partnerships"]}
    together = [g for g in games if any(set(t) == {"anna", "ben"} for t in g.teams)]
    ab = pairs[("Anna", "Ben")] if ("Anna", "Ben") in pairs else pairs[("Ben", "Anna")]
    assert ab["games"] == len(together) and ab["wins"] == sum(
        1 for g in together if set(g.teams[g.winner]) == {"anna", "ben"}
    )
    assert ab["actual"] - ab["expected"] == pytest.approx(ab["surplus"])
    assert all(p["games"] >= 2 for p in data["partnerships"])
    assert ("Eva", "Anna") in pairs or ("Anna", "Eva") in pairs


def test_a_tournaments_performance_is_the_one_its_standings_show(club_with_scorer):
    """The player page's tournament row shows the entry's performance from the tournament's own
    figures (ratings before the event), the same number as the standings and the results export."""
    from games.tournaments import services as t_services
    from tests.tournament_api.test_api import append, create, pair_next_round, register_pairs

    club, scorer, scorer_client = club_with_scorer
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)
    paired = pair_next_round(scorer_client, tid)
    made = t_services.make_round_games(tournament_id=tid, round_number=1, user=scorer)
    start = Tournament.objects.get(pk=tid).created_at
    elo = {"Anna": 1600, "Ben": 1600, "Cleo": 1700, "Dan": 1500, "Eva": 1400, "Finn": 1400, "Gus": 1500, "Hanna": 1500}
    ordinal = 0
    for four in (["Anna", "Cleo", "Ben", "Dan"], ["Eva", "Gus", "Finn", "Hanna"]):  # rated games before the event
        before = Game.objects.create(club=club, variant="nanking")
        for seat, name in enumerate(four):
            rate(club, name, elo[name], start - timedelta(days=3), ordinal, before, side=seat % 2)
        ordinal += 1
    for tg in made:  # the table games, rated (won by N/S)
        for seat in tg.game.seats.select_related("player"):
            side = seat.seat % 2
            rate(
                club,
                seat.player.name,
                elo[seat.player.name],
                start + timedelta(hours=1),
                ordinal,
                tg.game,
                side=side,
                score=1.0 - side,
                after=elo[seat.player.name] + (10 if side == 0 else -10),
            )
            ordinal += 1
    seq = scorer_client.get(f"/api/tournaments/{tid}/").json()["seq"]
    results = [
        {"type": "result_recorded", "round": 1, "table": t["table"], "score": [60, 40]} for t in paired["tables"]
    ]
    assert append(scorer_client, tid, results, seq).status_code == 201
    body = Client().get(f"/api/tournaments/{tid}/results/").json()
    perf = {e["entry"]: e["performance"]["performance"] for e in body["entrants"]}
    anna = Player.objects.get(club=club, name="Anna")
    page = Client().get(f"/players/{anna.pk}.json").json()
    (row,) = page["tournaments"]
    assert row["games"] == 1 and row["entry"] == "e0" and row["performance"] == perf["e0"]
    assert perf["e0"] is None, "one table played: the standings show no performance, nor does the player page"
    assert row["games_performance"] is not None  # the figure from Anna's own games, kept beside it
    html = Client().get(f"/players/{anna.pk}/").content.decode()
    assert 'id="tournaments-table"' in html and "Thursday" in html


def rate(club, name, elo, when, ordinal, game, side=0, score=1.0, after=None):
    player = Player.objects.get(club=club, name=name)
    RatingChange.objects.create(
        game=game,
        player=player,
        club=club,
        variant="nanking",
        finished_at=when,
        ordinal=ordinal,
        side=side,
        rating_before=elo,
        rating_after=after or elo,
        rd_before=50,
        rd_after=50,
        expected=0.5,
        score=score,
        games=1,
        elo_before=elo,
        elo_after=after or elo,
    )


@pytest.fixture
def club_with_scorer(club, scorer, scorer_client):
    return club, scorer, scorer_client


def test_an_evening_without_a_win_shows_its_performance_as_a_bound(tuesday):
    """The core formula's convention (games.tournament.performance): a zero score gets the bottom
    of the search range, the opponents' mean - 1600 with partners; the page says "at most"."""
    club, pid, games = tuesday
    c = Client()
    last = c.get(f"/players/{pid['Anna']}.json").json()["evenings"][-1]  # 0-2 with Eva against Ben & Dirk
    assert (last["wins"], last["bound"]) == (0, "min")
    assert last["performance"] == pytest.approx(last["opponents"] - 1600, abs=0.01)
    assert "≤ " in c.get(f"/players/{pid['Anna']}/").content.decode()


@pytest.mark.parametrize(
    "lang, not_ranked", [("fr", "Pas encore classé"), ("de", "Noch nicht platziert"), ("uk", "Ще без місця в таблиці")]
)
def test_an_empty_rank_chart_speaks_the_readers_language(tuesday, lang, not_ranked):
    """Eva has two games, so no rank yet: the rank chart says so in the page's language (the pure
    chart code draws the words it is given; it drew its English default before)."""
    club, pid, games = tuesday
    html = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/players/{pid['Eva']}/").content.decode()
    chart = html[html.index('class="rank-chart"') :]
    chart = chart[: chart.index("</svg>")]
    assert not_ranked in chart and "Not ranked yet" not in chart


def test_the_rules_service_refuses_a_rule_it_does_not_know_and_a_value_out_of_range(tuesday, make_user):
    from django.utils import translation

    from games.ratings.league_rules import league_settings_update
    from games.services import InvalidInput, WriteForbidden

    club, _, _ = tuesday
    ada, bea = make_user("ada"), make_user("bea")
    Membership.objects.create(club=club, user=ada, role="admin")
    with translation.override("en"), pytest.raises(InvalidInput, match="no such league rule: league_min_games"):
        league_settings_update(club=club, actor=ada, league_min_games=3)
    with pytest.raises(InvalidInput):
        league_settings_update(club=club, actor=ada, min_games=0)
    with pytest.raises(WriteForbidden):
        league_settings_update(club=club, actor=bea, min_games=3)
    assert rules_of_club_id(club.pk).min_games == 5 and not AuditEntry.objects.filter(club=club).exists()
