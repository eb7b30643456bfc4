"""The shipped model (mixture.PoolBayesKalman, config.SYSTEM): what it shows, what it forecasts,
and that its stored state continues exactly (the database's incremental path, model side)."""
from __future__ import annotations

import json

from games.ratings import config
from games.ratings.mixture import PoolBayesKalman
from games.ratings.synthetic import club_history
from games.ratings.types import GameResult, order_games


def _games():
    _, games = club_history(300, 16, seed=2, day_drift_sd=0.03)
    return order_games([g for g in games if g.rated])


def test_the_shown_rating_is_the_one_written_at_the_players_last_game():
    m = config.model_for("nanking")
    assert isinstance(m, PoolBayesKalman)
    last = {}
    for g in _games():
        for c in m.update(g):
            last[c.player] = c
    for p, c in last.items():
        st = m.standing(p)
        assert (st.rating, st.rd, st.games) == (c.after, c.rd_after, c.games)
    # the case this rule exists for: a player last seen while another copy led keeps that
    # copy's rating (the final leader's copy would show another one)
    moved = [p for p, k in m.shown.items() if k != m.chosen()]
    assert moved
    p = moved[0]
    assert m.copies[m.chosen()].standing(p).rating != m.standing(p).rating


def test_the_win_chance_written_is_the_mixture_forecast_read_before_the_game():
    m = config.model_for("nanking")
    for g in _games()[:120]:
        (_, _, p), = m.pair_probabilities(g)
        changes = m.update(g)
        side0 = set(g.teams[0])
        for c in changes:
            assert c.expected == (p if c.player in side0 else 1.0 - p)


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
            rows[p] = [m.player_copies(p), m.copies[0].state[p][2], m.shown[p]]
        log_w = m.log_w
    rebuilt = config.model_for("nanking")
    rebuilt.log_w = json.loads(json.dumps(log_w))
    for p, r in rows.items():
        rebuilt.load_player(p, *r)
    players = sorted(rows)
    t = _games()[-1].finished_at + 40 * 86400
    for k in range(0, len(players) - 3, 3):
        game = GameResult(0, t, ((players[k], players[k + 1]), (players[k + 2], players[k + 3])),
                          None, 0, 1, "nanking")
        assert rebuilt.pair_probabilities(game) == whole.pair_probabilities(game)
    assert all(rebuilt.standing(p) == whole.standing(p) for p in players)
