"""League table and player page: HTML, JSON and CSV, checked against the history itself."""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from datetime import datetime, time, timedelta, timezone

import pytest
from django.test import Client

from bench.ratings_lab.fixtures import load_history
from bench.ratings_lab.synthetic import synthetic_history
from games.models import Club
from games.ratings import services
from games.ratings.evening import evening_of, evening_start
from games.ratings.league_rules import rules_of
from games.ratings.models import LeagueRules
from tests.ratings.rules import set_league_rules


@pytest.fixture
def league_club(db):
    club = Club.objects.create(name="League", slug="league")
    _, games = synthetic_history(90, 9, seed=4)
    pid = load_history(club, games)
    services.recompute_club(club.pk)
    return club, games, pid


def _expected(games, pid, lo=None, hi=None):
    """Per player: games, wins, tichu made/called, doubles, results in order, from the history."""
    out = defaultdict(lambda: {"games": 0, "wins": 0, "tm": 0, "tc": 0, "gm": 0, "gc": 0, "dv": 0, "seq": []})
    for g in sorted(games, key=lambda g: g.finished_at):
        if lo and g.finished_at < lo.timestamp() or hi and g.finished_at >= hi.timestamp():
            continue
        for side, team in enumerate(g.teams):
            for p in team:
                e = out[pid[p]]
                e["games"] += 1
                won = g.winner == side
                e["wins"] += won
                e["seq"].append("W" if won else "L")
                for h in g.hand_details:
                    e["tc"] += sum(1 for q, _ in h.tichu if q == p)
                    e["tm"] += sum(1 for q, m in h.tichu if q == p and m)
                    e["gc"] += sum(1 for q, _ in h.grand_tichu if q == p)
                    e["gm"] += sum(1 for q, m in h.grand_tichu if q == p and m)
                    e["dv"] += h.double_victory == side
    return out


def test_league_json_matches_the_history(league_club):
    club, games, pid = league_club
    data = Client().get(f"/clubs/{club.pk}/league/?format=json").json()
    exp = _expected(games, pid)
    assert {r["player_id"] for r in data["rows"]} == set(exp)
    assert data["games"] == len(games)
    for r in data["rows"]:
        e = exp[r["player_id"]]
        assert (r["games"], r["wins"]) == (e["games"], e["wins"])
        assert (r["tichu_made"], r["tichu_called"], r["grand_made"], r["grand_called"]) == (
            e["tm"],
            e["tc"],
            e["gm"],
            e["gc"],
        )
        assert r["double_victories"] == e["dv"]
        assert r["form"] == "".join(e["seq"][-5:])
        assert r["win_rate"] == pytest.approx(e["wins"] / e["games"])
        # the club's rule (defaults: 5 games, inactive after 180 days) decides who is ranked
        assert r["games_to_rank"] == max(0, rules_of(club).min_games - r["career_games"])
        assert (r["rank"] is None) == (r["games_to_rank"] > 0 or r["inactive"])
    assert data["rules"] == {
        "min_games": 5,
        "inactive_days": 180,
        "season_start_month": 1,
        "time_zone": "UTC",
        "rates_bot_games": False,
        "follows_tournament_vp": False,
    }
    ranked = [r for r in data["rows"] if r["rank"] is not None]
    assert ranked and [r["rank"] for r in ranked] == list(range(1, len(ranked) + 1))
    # the predictive table ranks by the low end of the 95% range (rating - 2 RD), the Elo table by rating
    low = [r["rating"] - 2 * r["rd"] for r in ranked]
    assert low == sorted(low, reverse=True)
    elo_ranked = [r["rating"] for r in data["elo"]["rows"] if r["rank"] is not None]
    assert elo_ranked == sorted(elo_ranked, reverse=True)
    assert data["rows"][: len(ranked)] == ranked  # the unranked come after the ranked ones


def test_league_csv_and_html_show_the_same_table(league_club):
    club, games, pid = league_club
    c = Client()
    data = c.get(f"/clubs/{club.pk}/league.json").json()
    resp = c.get(f"/clubs/{club.pk}/league.csv")
    assert resp["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(resp.content.decode())))
    assert [int(r["player_id"]) for r in rows] == [r["player_id"] for r in data["rows"]]
    assert [r["form"] for r in rows] == [r["form"] for r in data["rows"]]
    html = c.get(f"/clubs/{club.pk}/league/").content.decode()
    for r in data["rows"]:
        assert r["player"] in html
        mark = '<abbr title="provisional: it can still move a lot">?</abbr>' if r["provisional"] else ""
        assert f"{round(r['rating'])}{mark}" in html


def test_season_table_counts_only_the_period(league_club):
    club, games, pid = league_club
    times = sorted(g.finished_at for g in games)
    # from and to are the club's evenings (UTC here): 06:00 on `from` until 06:00 after `to`
    first, last = (evening_of(datetime.fromtimestamp(times[k], tz=timezone.utc), "UTC") for k in (30, 60))
    data = Client().get(f"/clubs/{club.pk}/league/?format=json&from={first}&to={last}").json()
    exp = _expected(
        games,
        pid,
        datetime.combine(first, time(6), tzinfo=timezone.utc),
        datetime.combine(last + timedelta(days=1), time(6), tzinfo=timezone.utc),
    )
    assert {r["player_id"]: r["games"] for r in data["rows"]} == {p: e["games"] for p, e in exp.items() if e["games"]}
    assert {r["player_id"]: r["form"] for r in data["rows"]} == {
        p: "".join(e["seq"][-5:]) for p, e in exp.items() if e["games"]
    }


def test_members_only_league_is_hidden(db):
    club = Club.objects.create(name="Secret", slug="secret", visibility=Club.Visibility.MEMBERS)
    assert Client().get(f"/clubs/{club.pk}/league/").status_code == 404
    assert Client().get(f"/clubs/{club.pk}/league/?format=xml").status_code == 404


def test_player_page_partners_head_to_head_and_chart(league_club):
    club, games, pid = league_club
    c = Client()
    regular = Counter(p for g in games for p in g.players).most_common(1)[0][0]
    p = pid[regular]
    data = c.get(f"/players/{p}/?format=json").json()
    mine = [g for g in games if regular in g.players]
    assert data["games"] == len(mine)
    assert sum(r["games"] for r in data["partners"]) == len(mine)  # one partner per 2v2 game
    assert sum(r["games"] for r in data["head_to_head"]) == 2 * len(mine)
    partner_count = Counter()
    for g in mine:
        team = next(t for t in g.teams if regular in t)
        partner_count[pid[next(q for q in team if q != regular)]] += 1
    assert {r["player_id"]: r["games"] for r in data["partners"]} == dict(partner_count)
    assert all(g["result"] == "W" for g in data["best_wins"])
    assert [g["expected"] for g in data["best_wins"]] == sorted(g["expected"] for g in data["best_wins"])
    assert all(g["result"] == "L" for g in data["worst_losses"])
    assert [g["rating_after"] for g in data["history"]][-1] == pytest.approx(data["rating"])
    html = c.get(f"/players/{p}/").content.decode()
    assert "<svg" in html and "<polyline" in html
    assert html.count('<circle class="game"') == len(mine)  # one point per game
    rows = list(csv.DictReader(io.StringIO(c.get(f"/players/{p}.csv").content.decode())))
    assert len(rows) == len(mine)


def test_the_league_shows_both_tables_and_the_club_chooses_which_leads(league_club):
    from games.ratings.elo import CLUB_ELO

    club, games, pid = league_club
    c = Client()
    data = c.get(f"/clubs/{club.slug}/league.json").json()
    assert data["leads_with"] == "elo"
    assert (data["elo"]["k"], data["elo"]["provisional_k"]) == (CLUB_ELO.k, CLUB_ELO.provisional_k)
    elo_rows = data["elo"]["rows"]
    assert {r["player_id"] for r in elo_rows} == {r["player_id"] for r in data["rows"]}
    assert all(r["rd"] == 0 for r in elo_rows)
    ranked = [r for r in elo_rows if r["rank"] is not None]
    assert [r["rating"] for r in ranked] == sorted((r["rating"] for r in ranked), reverse=True)
    assert all((r["rank"] is None) == (r["career_games"] < rules_of(club).min_games or r["inactive"]) for r in elo_rows)
    # over the whole history the change is the rating less the start
    assert all(r["change"] == pytest.approx(r["rating"] - CLUB_ELO.initial) for r in elo_rows)
    csv_rows = list(csv.DictReader(io.StringIO(c.get(f"/clubs/{club.slug}/league.csv?table=elo").content.decode())))
    assert [int(r["player_id"]) for r in csv_rows] == [r["player_id"] for r in elo_rows]
    html = c.get(f"/clubs/{club.slug}/league/").content.decode()
    assert html.index('id="table-elo"') < html.index('id="table-predictive"')
    assert f"K = {CLUB_ELO.k:.0f}" in html and f"or {CLUB_ELO.provisional_k:.0f} in a player" in html
    top = data["rows"][0]  # the predictive table shows the range of the rating
    assert f"{round(top['rating'] - 2 * top['rd'])}–{round(top['rating'] + 2 * top['rd'])}" in html
    set_league_rules(club, leads_with=LeagueRules.LeadsWith.PREDICTIVE)
    club.save()
    html = c.get(f"/clubs/{club.slug}/league/").content.decode()
    assert html.index('id="table-predictive"') < html.index('id="table-elo"')
    assert c.get(f"/clubs/{club.slug}/league.csv?table=nope").status_code == 404


def test_change_over_a_season_is_the_rating_at_its_end_less_the_rating_before_its_first_game(league_club):
    club, games, pid = league_club
    times = sorted(g.finished_at for g in games)
    lo = evening_of(datetime.fromtimestamp(times[30], tz=timezone.utc), "UTC")
    data = Client().get(f"/clubs/{club.pk}/league/?format=json&from={lo}").json()
    from games.ratings.models import RatingChange

    for table, rows, before, after in (
        ("predictive", data["rows"], "rating_before", "rating_after"),
        ("elo", data["elo"]["rows"], "elo_before", "elo_after"),
    ):
        for r in rows:
            mine = list(
                RatingChange.objects.filter(player_id=r["player_id"], finished_at__gte=evening_start(lo, "UTC"))
                .order_by("ordinal")
                .values(before, after)
            )
            assert r["change"] == pytest.approx(mine[-1][after] - mine[0][before]), table
