"""The shipped model (mixture.PoolBayesKalman, config.SYSTEM): the numbers of the plain
reference (bench.ratings_lab.candidates.PlainPoolBayesKalman), what it shows, what it forecasts, that a game's numbers do
not depend on the block it was computed in, and that its stored state continues exactly (the
database's incremental path, model side)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.ratings_lab.candidates import PlainPoolBayesKalman as Reference
from bench.ratings_lab.synthetic import club_history
from games.ratings import config
from games.ratings.mixture import PoolBayesKalman
from games.ratings.types import GameResult, HandDetail, order_games


def _games(n: int = 300, seed: int = 2):
    _, games = club_history(n, 16, seed=seed, day_drift_sd=0.03)
    return order_games([g for g in games if g.rated])


def _mixed_games():
    """Every shape of game the pools rate: 1 v 1, 2 v 2 with and without hand lines, 3 v 3, and
    rankings of 3 to 6 sides with scores or without (Threechu, Grand Seigneur), some draws, some
    stopped short of the target, some on the same second as the game before."""
    out = []
    t = 1.7e9
    for k in range(240):
        t += (k % 5) * 3600.0 * (k % 7)  # gaps of 0 s to 1 day
        shape = k % 6
        base = (k * 7) % 13
        if shape == 0:
            teams, scores = ((base,), (base + 1,)), (300.0 + k, 250.0)
        elif shape == 1:
            teams, scores = ((base, base + 1), (base + 2, base + 3)), (1000.0, 420.0 + k)
        elif shape == 2:
            hands = tuple(HandDetail(((k * h) % 300 - 100.0, 100.0 - (k * h) % 300)) for h in range(1, 9))
            teams, scores = (
                ((base + 3, base), (base + 1, base + 4)),
                (sum(x.points[0] for x in hands), sum(x.points[1] for x in hands)),
            )
            out.append(GameResult(k, t, teams, scores, None, len(hands), hand_details=hands))
            continue
        elif shape == 3:
            teams, scores = ((base, base + 1, base + 2), (base + 3, base + 4, base + 5)), (500.0, 500.0)
        elif shape == 4:
            n = 3 + k % 4
            teams, scores = tuple((base + i,) for i in range(n)), tuple(float((i * k) % 5) * 100 for i in range(n))
        else:
            teams, scores = ((base,), (base + 2,), (base + 5,)), None
        out.append(GameResult(k, t, teams, scores, 0 if scores is None else None, 1 + k % 12))
    return out


@pytest.mark.parametrize("games", [_games(400), _mixed_games()], ids=["club evenings", "every shape"])
def test_the_shipped_model_computes_the_reference_numbers(games):
    """Forecasts, ratings and deviations of every change equal the plain reference's (the copy
    shown is the reference's chosen copy) to within rounding."""
    fast, ref = config.model_for("nanking"), Reference(config.params_for("nanking"))
    for g in games:
        want = ref.pair_probabilities(g)
        got = fast.pair_probabilities(g)
        assert [(i, j) for i, j, _ in got] == [(i, j) for i, j, _ in want]
        assert all(abs(a[2] - b[2]) < 1e-12 for a, b in zip(got, want))
        changes, ref_changes = fast.update(g), ref.update(g)
        assert fast.chosen() == ref.chosen()
        for c, r in zip(changes, ref_changes):
            assert (c.game_id, c.player, c.games, c.score) == (r.game_id, r.player, r.games, r.score)
            for a, b in (
                (c.before, r.before),
                (c.after, r.after),
                (c.rd_before, r.rd_before),
                (c.rd_after, r.rd_after),
            ):
                assert abs(a - b) < 1e-9
    weights = [x for row in fast.log_w for x in row]
    assert all(abs(a - b) < 1e-9 for a, b in zip(weights, [x for row in ref.log_w for x in row]))


@settings(max_examples=25, deadline=None)
@given(block=st.integers(1, 64), cut=st.integers(0, 239))
def test_a_games_numbers_do_not_depend_on_the_block_it_was_computed_in(block, cut):
    """One game at a time (the incremental path), blocks of any size (the recompute), or a stop
    and restart anywhere: the same changes and the same weights, bit for bit."""
    games = _mixed_games()
    one = config.model_for("nanking")
    singles = [one.update(g) for g in games]
    many = config.model_for("nanking")
    blocks = list(many.update_many(games[:cut], block_size=block))
    blocks += list(many.update_many(iter(games[cut:]), block_size=block + 3))
    assert [g for g, _ in blocks] == games
    assert [c for _, c in blocks] == singles
    assert many.log_w == one.log_w
    assert many.shown == one.shown


def test_the_shown_rating_is_the_one_written_at_the_players_last_game():
    m = config.model_for("nanking")
    assert isinstance(m, PoolBayesKalman)
    last = {}
    for g in _games():
        for c in m.update(g):
            last[c.player] = c
    for p, c in last.items():
        st_ = m.standing(p)
        assert (st_.rating, st_.rd, st_.games) == (c.after, c.rd_after, c.games)
    # the case this rule exists for: a player last seen while another copy led keeps that
    # copy's rating (the final leader's copy would show another one)
    moved = [p for p, k in m.shown.items() if k != m.chosen()]
    assert moved
    p = moved[0]
    mu_now = m.state[p][2][m.chosen()]
    assert m.params.initial + m.params.display_scale * mu_now != m.standing(p).rating


def test_the_win_chance_written_is_the_mixture_forecast_read_before_the_game():
    m = config.model_for("nanking")
    for g in _games()[:120]:
        ((_, _, p),) = m.pair_probabilities(g)
        changes = m.update(g)
        side0 = set(g.teams[0])
        for c in changes:
            assert c.expected == (p if c.player in side0 else 1.0 - p)


def test_a_pool_whose_results_ignore_the_ratings_learns_to_forecast_nearer_even():
    """The weights follow the outcomes: the same games with every result flipped at random
    (a pool where skill says nothing) end with their mass on smaller scales."""
    import random

    rng = random.Random(5)
    games = _games(600)
    noise = [replace(g, winner=rng.randrange(2), scores=None, hand_details=()) for g in games]
    a, b = config.model_for("nanking"), config.model_for("nanking")
    for _ in a.update_many(games):
        pass
    for _ in b.update_many(noise):
        pass

    def mean_scale(m):
        import math

        w = [math.exp(x) for row in m.log_w for x in row]
        scales = list(m.scales) * len(m.drifts)
        return sum(x * s for x, s in zip(w, scales)) / sum(w)

    assert mean_scale(b) < mean_scale(a) - 0.5


def test_the_stored_state_continues_exactly_like_one_uninterrupted_run():
    """Each game applied to a model rebuilt from stored rows (every copy's state of the game's
    players, the pool's log weights, through JSON as the database keeps them) writes the same
    changes as the uninterrupted run, and the rebuilt pool forecasts the same."""
    whole = config.model_for("nanking")
    rows: dict = {}
    log_w: list = []
    for g in _games():
        m = config.model_for("nanking")
        if log_w:
            m.log_w = json.loads(json.dumps(log_w))
        for p in g.players:
            if p in rows:
                m.load_player(p, *json.loads(json.dumps(rows[p])))
        got = m.update(g)
        assert got == whole.update(g)
        for p in g.players:
            rows[p] = [m.player_copies(p), m.shown_state(p)[2], m.shown[p]]
        log_w = m.log_w
    rebuilt = config.model_for("nanking")
    rebuilt.log_w = json.loads(json.dumps(log_w))
    for p, r in rows.items():
        rebuilt.load_player(p, *r)
    players = sorted(rows)
    t = _games()[-1].finished_at + 40 * 86400
    for k in range(0, len(players) - 3, 3):
        game = GameResult(0, t, ((players[k], players[k + 1]), (players[k + 2], players[k + 3])), None, 0, 1, "nanking")
        assert rebuilt.pair_probabilities(game) == whole.pair_probabilities(game)
    assert all(rebuilt.standing(p) == whole.standing(p) for p in players)
