"""The documented properties of the bench's generated histories (bench/ratings_lab/synthetic.py)."""

import collections
import statistics

import pytest

from bench.ratings_lab.history_io import game_from_json, game_to_json
from bench.ratings_lab.synthetic import club_history, synthetic_history


@pytest.fixture(scope="module")
def club():
    return club_history(1500, seed=4)


def test_the_drifting_history_is_deterministic_for_a_seed(club):
    again = club_history(1500, seed=4)
    assert [g.scores for g in again[1]] == [g.scores for g in club[1]]
    assert [g.scores for g in club_history(1500, seed=5)[1]] != [g.scores for g in club[1]]


def test_about_30_percent_of_games_stop_after_3_to_8_hands(club):
    _, games = club
    stopped = [g for g in games if max(g.scores) < 1000]
    assert 0.25 < len(stopped) / len(games) < 0.35
    assert {g.hands for g in stopped} == set(range(3, 9))
    full = [g for g in games if max(g.scores) >= 1000]
    assert all(g.scores[0] != g.scores[1] for g in full)


def test_evenings_of_4_to_8_players_with_rotating_partners(club):
    _, games = club
    by_day = collections.defaultdict(list)
    for g in games:
        by_day[int(g.finished_at // 86400)].append(g)
    sizes = [len({p for g in gs for p in g.players}) for gs in by_day.values()]
    assert min(sizes) >= 4 and max(sizes) <= 8
    assert set(sizes) >= {4, 8} or max(sizes) >= 7
    # rotating partners: within an evening of several games, a pair rarely sits together twice
    repeats = partnerships = 0
    for gs in by_day.values():
        pairs = [tuple(sorted(t)) for g in gs for t in g.teams]
        partnerships += len(pairs)
        repeats += len(pairs) - len(set(pairs))
    assert repeats / partnerships < 0.2
    assert all(1 <= len(gs) <= 5 for gs in by_day.values())


def test_game_counts_are_uneven_and_nobody_plays_fewer_than_5():
    _, games = club_history(3000, seed=1)
    counts = collections.Counter(p for g in games for p in g.players)
    assert min(counts.values()) >= 5
    assert max(counts.values()) >= 50 * min(counts.values()) / 2  # two orders of magnitude


def test_late_joiners_start_weaker_and_improve():
    # with no drift and no synergy, a late joiner's early games go worse than their later ones
    skills, games = club_history(3000, seed=2, day_drift_sd=0.0, synergy_share=0.0, learn_gap=0.6)
    first_day = {}
    for g in games:
        for p in g.players:
            first_day.setdefault(p, g.finished_at)
    start = games[0].finished_at
    late = [p for p, t in first_day.items() if t > start + 30 * 86400]
    assert late

    def share_won(p, lo, hi):
        mine = [g for g in games if p in g.players][lo:hi]
        won = [g.pair_score(0, 1) if p in g.teams[0] else 1 - g.pair_score(0, 1) for g in mine]
        return (statistics.mean(won) if won else 0.0), len(won)

    early = [share_won(p, 0, 30) for p in late]
    later = [share_won(p, 150, 400) for p in late]
    pairs = [(e, x) for (e, ne), (x, nx) in zip(early, later) if ne >= 20 and nx >= 50]
    assert pairs
    assert statistics.mean(x - e for e, x in pairs) > 0.05


def test_the_stationary_history_keeps_its_skills_and_plays_full_games():
    skills, games = synthetic_history(300, 20, seed=3)
    assert all(max(g.scores) >= 1000 for g in games)
    again, _ = synthetic_history(300, 20, seed=3)
    assert again == skills


def test_a_history_survives_its_file_format(club):
    for g in club[1][:50]:
        back = game_from_json(game_to_json(g))
        assert back == g and back.hand_details == g.hand_details


def test_the_drifting_history_reports_each_games_true_difference_without_changing_the_games(club):
    truth: dict = {}
    skills, games = club_history(1500, seed=4, truth=truth)
    assert [(g.teams, g.scores, g.hands) for g in games] == [(g.teams, g.scores, g.hands) for g in club[1]]
    assert skills == club[0]
    assert set(truth) == {g.game_id for g in games}

    # the side the truth favours wins clearly more often, the more so the larger the difference
    def won_by_favourite(lo, hi):
        sel = [g for g in games if lo <= abs(truth[g.game_id]) < hi]
        return statistics.mean(
            (g.pair_score(0, 1) if truth[g.game_id] > 0 else 1 - g.pair_score(0, 1)) for g in sel
        ), len(sel)

    small, n_small = won_by_favourite(0.0, 0.1)
    large, n_large = won_by_favourite(0.3, 10.0)
    assert n_small > 50 and n_large > 50
    assert large > 0.75 and large > small + 0.15
