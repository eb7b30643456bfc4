"""The pure modules behind the league and player pages: who is ranked (standing.py), the periods,
the performance rating (performance.py), partnerships and relations (partnerships.py), the why
line and the groups of a player's history (player_history.py), rank history (rank_history.py)
and the time axis of the charts (charts.py)."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ratings import charts
from games.ratings.partnerships import Played, partnerships, relations
from games.ratings.performance import Encounter, clamped, encounter, expected, expected_score, performance
from games.ratings.player_history import Entry, evenings, period_change, tournaments, why
from games.ratings.rank_history import Row, rank_history
from games.ratings.standing import RankRule, order_key, period_bounds, status

# no timing in the tests: a loaded CI machine must not fail them (README, "no timed tests")
UNTIMED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- standing ------------------------------------------------------------------------------------


@UNTIMED
@given(st.integers(0, 50), st.integers(1, 30), st.integers(0, 400), st.integers(0, 400))
def test_status_counts_missing_games_and_inactivity(games, min_games, idle, inactive_days):
    ref = date(2026, 6, 1)
    s = status(games, ref - timedelta(days=idle), ref, RankRule(min_games, inactive_days))
    assert s.games_to_rank == max(0, min_games - games)
    assert s.inactive == (inactive_days > 0 and idle > inactive_days)
    assert s.ranked == (s.games_to_rank == 0 and not s.inactive)
    if s.games_to_rank:
        assert f"{s.games_to_rank} more game" in s.note and s.note.endswith("until ranked")
    assert s.note.startswith("inactive") == s.inactive


def test_one_more_game_is_singular_and_no_rule_means_never_inactive():
    assert status(4, date(2020, 1, 1), date(2026, 1, 1), RankRule(5, 0)).note == "1 more game until ranked"
    assert status(9, date(2020, 1, 1), date(2026, 1, 1), RankRule(5, 0)).ranked


def test_order_ranked_then_fewest_missing_then_inactive():
    rule = RankRule(5, 30)
    ref = date(2026, 6, 1)
    rows = {
        "ranked-low": (1400, 9, ref),
        "ranked-high": (1600, 9, ref),
        "needs-1": (1700, 4, ref),
        "needs-3": (1800, 2, ref),
        "inactive": (1900, 50, ref - timedelta(days=90)),
        "inactive-new": (2000, 1, ref - timedelta(days=90)),
    }
    keys = sorted(rows, key=lambda n: order_key(rows[n][0], n, 0, status(rows[n][1], rows[n][2], ref, rule)))
    assert keys == ["ranked-high", "ranked-low", "needs-1", "needs-3", "inactive", "inactive-new"]


def test_periods():
    today = date(2026, 11, 26)
    assert period_bounds("all", today) == (None, None)
    assert period_bounds("30d", today) == (date(2026, 10, 28), today)
    assert period_bounds("season", today) == (date(2026, 1, 1), today)
    assert period_bounds("season", today, 9) == (date(2026, 9, 1), today)
    assert period_bounds("season", date(2026, 3, 2), 9) == (date(2025, 9, 1), date(2026, 3, 2))
    with pytest.raises(ValueError):
        period_bounds("decade", today)


# -- performance ---------------------------------------------------------------------------------

encounters = st.lists(
    st.builds(
        Encounter,
        st.one_of(st.just(()), st.tuples(st.floats(1000, 2000))),
        st.floats(1000, 2000),
        st.sampled_from([0.0, 0.5, 1.0]),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(encounters)
def test_performance_makes_the_results_expected(encs):
    """The defining equation: at the performance rating the expected score is the actual one; a
    perfect or zero score gets the end of the core's range (opponents' mean +- 800, +- 1600 with
    partners), and says so."""
    r = performance(encs)
    total = sum(e.score for e in encs)
    opp = sum(e.opponents for e in encs) / len(encs)
    spread = 1600 if any(e.partners for e in encs) else 800
    if total == len(encs):
        assert r == pytest.approx(opp + spread) and clamped(encs) == "max"
    elif total == 0:
        assert r == pytest.approx(opp - spread) and clamped(encs) == "min"
    else:
        assert clamped(encs) == ""
        lo, hi = expected_score(encs, opp - spread), expected_score(encs, opp + spread)
        if lo < total < hi:  # inside the core's range the root is exact
            assert expected_score(encs, r) == pytest.approx(total, abs=1e-3)


@UNTIMED
@given(encounters)
def test_a_better_result_never_lowers_the_performance(encs):
    worse = performance(encs)
    k = next((i for i, e in enumerate(encs) if e.score < 1), None)
    if k is None:
        return
    better = list(encs)
    better[k] = Encounter(encs[k].partners, encs[k].opponents, encs[k].score + 0.5)
    assert performance(better) >= worse - 0.02


def test_performance_worked_example():
    # alone (no partner) against 1500 twice, one win one loss: exactly 1500
    assert performance([Encounter((), 1500, 1), Encounter((), 1500, 0)]) == pytest.approx(1500, abs=0.01)
    # with a 1600 partner against a 1500 side, a 50% score: the side must be 1500, so R = 1400
    assert performance([Encounter((1600,), 1500, 1), Encounter((1600,), 1500, 0)]) == pytest.approx(1400, abs=0.01)
    # a clean sweep: the opponents + 800 (FIDE's convention, the core's); no games, no number
    assert performance([Encounter((), 1500, 1)] * 3) == pytest.approx(2300)
    assert performance([]) is None
    # a pair as one unit: its side's strength is R itself
    assert performance(
        [Encounter((1700,), 1500, 1, as_pair=True), Encounter((1700,), 1500, 0, as_pair=True)]
    ) == pytest.approx(1500, abs=0.01)


def test_encounter_of_a_ranking_game_is_against_the_mean_of_the_others():
    e = encounter([(1500,), (1600,), (1400,), (1800,)], 0, 0, 2 / 3)
    assert e.partners == () and e.opponents == pytest.approx(1600) and e.score == pytest.approx(2 / 3)


# -- partnerships --------------------------------------------------------------------------------

played = st.lists(
    st.tuples(st.permutations(range(6)), st.floats(0.05, 0.95), st.sampled_from([0.0, 1.0])), min_size=1, max_size=20
)


def _games(draws):
    return [
        Played(k, ((p[0], p[1]), (p[2], p[3])), (e, 1 - e), (s, 1 - s), {q: 1500.0 + 10 * q for q in p})
        for k, (p, e, s) in enumerate(draws)
    ]


@UNTIMED
@given(played)
def test_partnerships_add_up(draws):
    games = _games(draws)
    pairs = partnerships(games)
    assert sum(p.games for p in pairs) == 2 * len(games)  # two pairs per 2v2 game
    assert sum(p.wins for p in pairs) == len(games)  # one winning pair per game
    assert sum(p.expected for p in pairs) == pytest.approx(len(games))
    assert all(p.rating is not None for p in pairs)
    for pl in range(6):
        partners, opponents = relations(games, pl)
        mine = [g for g in games if any(pl in s for s in g.sides)]
        assert sum(t.games for t in partners.values()) == len(mine)
        assert sum(t.games for t in opponents.values()) == 2 * len(mine)
        wins = sum(g.scores[next(i for i, s in enumerate(g.sides) if pl in s)] for g in mine)
        assert sum(t.wins for t in partners.values()) == wins
        assert all(t.actual - t.expected == pytest.approx(t.surplus) for t in partners.values())


def test_a_pair_that_beats_its_forecast_shows_a_surplus():
    games = [Played(k, ((1, 2), (3, 4)), (0.3, 0.7), (1.0, 0.0)) for k in range(4)]
    (pair12, pair34) = sorted(partnerships(games), key=lambda p: p.players)
    assert (pair12.games, pair12.wins, pair12.expected, pair12.surplus) == (
        4,
        4,
        pytest.approx(1.2),
        pytest.approx(2.8),
    )
    assert pair34.surplus == pytest.approx(-2.8)
    assert pair12.rating > 1500 > pair34.rating


# -- player history ------------------------------------------------------------------------------


def _entry(
    k=0,
    day=date(2026, 3, 5),
    score=1.0,
    change=9.2,
    elo=(1500.0, 1514.0),
    sides=((1500.0, 1480.0), (1550.0, 1530.0)),
    **kw,
):
    at = datetime(day.year, day.month, day.day, 20, tzinfo=timezone.utc) + timedelta(minutes=k)
    return Entry(
        game_id=k,
        played_at=at,
        day=day,
        side=0,
        player_index=0,
        sides_elo=sides,
        score=score,
        expected=0.41,
        rating_before=1500,
        rating_after=1500 + change,
        rd_after=80,
        elo_before=elo[0],
        elo_after=elo[1],
        **kw,
    )


def test_why_says_what_happened_and_both_changes():
    e = _entry(points_for=620, points_against=380, partners=("Anna",), opponents=("Ben", "Clara"))
    line = why(e)
    chance = round(100 * expected((1500 + 1480) / 2, (1550 + 1530) / 2))
    assert line == f"won 620–380 with Anna against Ben & Clara, expected {chance}%: +14; predictive 41%: +9.2"
    narrow = why(_entry(change=-1.5, partners=("Anna",), opponents=("Ben", "Clara")))
    assert narrow.startswith("won with Anna") and narrow.endswith("-1.5 (won by less than the ratings expected)")
    assert why(_entry(points_for=1015, points_against=-515)).startswith("won 1015 to −515, expected")
    lost = why(_entry(score=0.0, change=2.0, elo=(1500, 1490)))
    assert (
        lost.startswith("lost, expected")
        and "-10" in lost
        and lost.endswith("(lost by less than the ratings expected)")
    )


def test_why_of_a_ranking_game():
    e = _entry(sides=((1500.0,), (1600.0,), (1400.0,)), score=0.5, points_for=3)
    assert why(e).startswith("split evenly with 2 opponents (score 0.50) with 3 points, expected 50%")


def test_period_change_evenings_and_tournaments():
    d1, d2 = date(2026, 3, 5), date(2026, 3, 12)
    es = [
        _entry(0, d1, elo=(1500, 1510)),
        _entry(1, d1, score=0.0, elo=(1510, 1498), tournament=(7, "Cup")),
        _entry(2, d2, elo=(1498, 1520), tournament=(7, "Cup")),
    ]
    assert period_change(es).elo == pytest.approx(20) and period_change(es).games == 3
    assert period_change(es, d2, d2).elo == pytest.approx(22)
    assert period_change(es, date(2027, 1, 1)).games == 0
    ev = evenings(es)
    assert [(g.label, g.games, g.wins, round(g.elo_change)) for g in ev] == [
        ("2026-03-05", 2, 1, -2),
        ("2026-03-12", 1, 1, 22),
    ]
    assert ev[1].performance > ev[0].performance
    (cup,) = tournaments(es)
    assert (cup.label, cup.games, cup.wins) == ("Cup", 2, 1)


# -- rank history ----------------------------------------------------------------------------------


@UNTIMED
@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 6), st.floats(1300, 1700)), min_size=1, max_size=40),
    st.integers(1, 4),
    st.sampled_from([0, 3]),
)
def test_rank_history_ranks_are_one_to_n_each_day(changes, min_games, inactive_days):
    games: dict[int, int] = {}
    rows = []
    for p, day_offset, r in sorted(changes, key=lambda c: c[1]):
        games[p] = games.get(p, 0) + 1
        rows.append(Row(p, date(2026, 1, 1) + timedelta(days=day_offset), r, games[p]))
    hist = rank_history(rows, RankRule(min_games, inactive_days))
    by_day: dict[date, list[int]] = {}
    for p, days in hist.items():
        first = min(r.day for r in rows if r.player == p)
        assert days[0].day == first  # from the player's first day on
        for d in days:
            if d.rank is not None:
                by_day.setdefault(d.day, []).append(d.rank)
    for ranks in by_day.values():
        assert sorted(ranks) == list(range(1, len(ranks) + 1))


def test_rank_history_of_a_small_club():
    d1, d2, d3, d4, d5 = date(2026, 1, 1), date(2026, 1, 8), date(2026, 3, 1), date(2026, 3, 21), date(2026, 4, 10)
    rows = [
        Row("a", d1, 1510, 1),
        Row("b", d1, 1490, 1),
        Row("a", d2, 1480, 2),
        Row("b", d2, 1520, 2),
        Row("c", d3, 1600, 1),
        Row("c", d3, 1610, 2),
        Row("c", d4, 1620, 3),
        Row("c", d5, 1630, 4),
    ]
    hist = rank_history(rows, RankRule(2, 30))
    # d3: the club's 52-day break (longer than the 30-day window) is no one's absence: a still
    # ranked; d5: the club has played 40 days (d3 to d5) without a: inactive
    assert [(d.day, d.rank) for d in hist["a"]] == [(d1, None), (d2, 2), (d3, 3), (d4, 3), (d5, None)]
    assert [(d.rank, d.ranked, d.played) for d in hist["c"]] == [(1, 3, True), (1, 3, True), (1, 1, True)]
    assert hist["b"][1].played and not hist["b"][2].played


# -- charts ----------------------------------------------------------------------------------------


def _xs(svg: str) -> list[float]:
    return [float(x) for x in re.findall(r'<circle class="game" cx="([\d.]+)"', svg)]


def test_the_rating_chart_puts_games_on_a_time_axis_that_spaces_an_evening_apart():
    t0 = datetime(2025, 1, 1, 20, tzinfo=timezone.utc)
    times = [t0, t0 + timedelta(hours=1), t0 + timedelta(days=30), t0 + timedelta(days=90)]
    svg = charts.rating_chart(
        [charts.GamePoint(t, 1500 + k, 1500 - k, 60, f"game {k} <b>") for k, t in enumerate(times)]
    )
    xs = _xs(svg)
    assert len(xs) == 4  # one point per game, two of them on one evening
    width = xs[-1] - xs[0]
    # the evening's two games, an hour apart, are half the mean spacing of the real span apart
    # (15 of the 105 days the stretched axis is long), not one on the other
    assert xs[1] - xs[0] == pytest.approx(width * 15 / 105, abs=0.3)
    assert xs[3] - xs[2] == pytest.approx(2 * (xs[2] - xs[1]), abs=1)  # further apart: time as it is
    assert "Feb 2025" in svg and "&lt;b&gt;" in svg and "<b>" not in svg
    assert 'class="band"' in svg


@given(st.lists(st.integers(0, 10 * 365 * 24), min_size=1, max_size=60))
def test_every_game_has_its_own_place_in_order_and_the_ticks_stay_at_their_dates(hours):
    t0 = datetime(2012, 3, 1, 19, tzinfo=timezone.utc)
    times = sorted(t0 + timedelta(hours=h) for h in hours)
    svg = charts.rating_chart([charts.GamePoint(t, 1500, 1500, 60, "") for t in times])
    xs = _xs(svg)
    assert xs == sorted(xs)  # in the order played
    if len(set(times)) == len(times) > 1:
        assert min(b - a for a, b in zip(xs, xs[1:])) >= 0.5 * (xs[-1] - xs[0]) / (len(xs) - 1) / 5 - 0.2
    # the stretched axis is monotone, so a tick between two games is drawn between their points
    ticks = list(
        float(x)
        for x in re.findall(r'<line x1="([\d.]+)" y1="\d+(?:\.\d+)?" x2="\1" y2="\d+(?:\.\d+)?" stroke="#888"/>', svg)
    )
    assert ticks == sorted(ticks)


def test_a_long_break_is_shortened_and_an_evening_is_not_a_sliver():
    """150 games of 2012-17 and five tonight (issue 39): the nine-year break (three fifths of the
    time shown) is shortened to a fifth of that time, under a third of the axis, and tonight's five
    games are spread, not stacked on one date."""
    old = [datetime(2012, 1, 3, 19, tzinfo=timezone.utc) + timedelta(days=12 * k) for k in range(150)]
    tonight = [datetime(2026, 12, 7, 19, tzinfo=timezone.utc) + timedelta(minutes=40 * k) for k in range(5)]
    xs = _xs(charts.rating_chart([charts.GamePoint(t, 1500, 1500, 60, "") for t in old + tonight]))
    width = xs[-1] - xs[0]
    assert xs[150] - xs[149] <= width / 3
    assert min(b - a for a, b in zip(xs[150:], xs[151:])) >= 0.5 * width / 154 - 0.2


def test_time_ticks_by_span():
    day = 86400
    lo = datetime(2013, 5, 4, tzinfo=timezone.utc).timestamp()
    assert [t for _, t in charts.time_ticks(lo, lo + 12 * 365 * day)][:2] == ["2014", "2016"]
    assert all(" " in t for _, t in charts.time_ticks(lo, lo + 200 * day))
    assert len(charts.time_ticks(lo, lo + 10 * day)) <= 11


def test_time_ticks_fall_on_the_clubs_midnights_across_a_clock_change():
    from zoneinfo import ZoneInfo

    for name in ("Europe/Berlin", "America/New_York", "Asia/Tokyo"):
        tz = ZoneInfo(name)
        lo = datetime(2026, 10, 20, 12, tzinfo=tz).timestamp()  # Berlin's clocks go back on the 25th
        ticks = charts.time_ticks(lo, lo + 10 * 86400, max_ticks=12, tz=tz)
        assert len(ticks) == 10
        for t, text in ticks:
            local = datetime.fromtimestamp(t, tz=tz)
            assert (local.hour, local.minute) == (0, 0) and text == f"{local.day:02d} Oct"
    # a New York game at 20:00 on the 21st (01:00 UTC on the 22nd) comes before the 22nd's tick
    ny = ZoneInfo("America/New_York")
    game = datetime(2026, 10, 21, 20, tzinfo=ny).timestamp()
    ticks = dict((text, t) for t, text in charts.time_ticks(game - 3 * 86400, game + 3 * 86400, 12, tz=ny))
    assert ticks["21 Oct"] < game < ticks["22 Oct"]


def test_the_rank_chart_leaves_gaps_when_unranked():
    days = [(date(2026, 1, k), r, k != 3) for k, r in [(1, None), (2, 3), (3, 2), (4, None), (5, 1)]]
    svg = charts.rank_chart(days)
    assert svg.count("<polyline") == 2  # a gap on the unranked day 4
    assert svg.count("<circle") == 2  # points on the ranked days the player played (2 and 5)
    assert "Not ranked yet" in charts.rank_chart([(date(2026, 1, 1), None, True)])


def test_the_rank_charts_evenings_sit_on_the_clubs_days_ticks():
    """The rank chart's days are the club's evenings: each on its date's tick at local midnight
    in the club's zone, as the rating chart's games; across Berlin's spring-forward night
    (29 March 2026) the 29th is 23 hours wide, as it is in the rating chart."""
    from zoneinfo import ZoneInfo

    berlin = ZoneInfo("Europe/Berlin")
    days = [(date(2026, 3, k), 1, True) for k in (27, 28, 29, 30, 31)]
    svg = charts.rank_chart(days, tz=berlin)
    points = {
        title.split(":")[0]: float(cx) for cx, title in re.findall(r'<circle cx="([\d.]+)"[^>]*><title>([^<]+)', svg)
    }
    ticks = {
        text: float(x) for x, text in re.findall(r'<text x="([\d.]+)" y="\d+" text-anchor="middle"[^>]*>([^<]+)', svg)
    }
    for k in (28, 29, 30):
        assert points[f"2026-03-{k}"] == ticks[f"{k} Mar"]  # each evening on its own date's tick
    day = points["2026-03-29"] - points["2026-03-28"]
    short = points["2026-03-30"] - points["2026-03-29"]  # 23 hours at Berlin's clock, 24 in UTC
    assert abs(short - day * 23 / 24) < 0.3


@UNTIMED
@given(played, st.integers(1, 5))
def test_partnerships_limit_keeps_the_order(draws, limit):
    games = _games(draws)
    every = partnerships(games)
    first = partnerships(games, limit=limit)
    assert [p.players for p in first] == [p.players for p in every[:limit]]
    assert [p.rating for p in first] == [p.rating for p in every[:limit]]
