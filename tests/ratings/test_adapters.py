"""From the engine's score sheet to a GameResult, per variant; and the tracker parser."""

import pytest

from bench.ratings_lab.tracker import load_tracker
from games.engine import fold, random_game, score_json
from games.ratings.adapters import result_from_score
from games.ratings.elo import TeamElo
from games.ratings.model import MarginKalman
from games.ratings.types import NotRated
from tests.corpus import CORPUS, needs_corpus

TRACKER = CORPUS / "tichu-tracker" / "allgames.converted.json"


def _hand(points, out, calls=None):
    return {"points": points, "out": out, "calls": calls or {}}


def test_nanking_score_sheet_keeps_sides_hands_calls_and_double_victories():
    score = score_json(fold(random_game(11)))
    r = result_from_score(7, 0.0, "nanking", [10, 11, 12, 13], score)
    assert r.teams == ((10, 12), (11, 13))
    assert r.scores == tuple(float(t) for t in score["totals"])
    assert r.winner == score["winner"] and r.hands == len(score["hands"])
    assert sum(h.points[0] for h in r.hand_details) == score["totals"][0]
    for h, raw in zip(r.hand_details, score["hands"]):
        first = raw["out"][0]
        called = {int(s) for s in raw["calls"]}
        assert {p for p, _ in h.tichu + h.grand_tichu} == {[10, 11, 12, 13][s] for s in called}
        assert all(made == ([10, 11, 12, 13][first] == p) for p, made in h.tichu + h.grand_tichu)
        assert (h.double_victory is not None) == (raw["out"][0] % 2 == raw["out"][1] % 2)


def test_threechu_dummy_is_not_rated():
    score = {
        "ok": True,
        "complete": True,
        "totals": [300, 500, 100, 700],
        "hands": [_hand([0, 0, 0, 0], [0, 1, 2, 3])] * 9,
    }
    r = result_from_score(1, 0.0, "threechu", ["a", "b", "c"], score)
    assert r.teams == (("a",), ("b",), ("c",))  # the dummy (700, the best total) is not a side
    assert r.ranks == (1, 0, 2)
    changes = MarginKalman().update(r)
    assert {c.player for c in changes} == {"a", "b", "c"}
    assert max(changes, key=lambda c: c.delta).player == "b"


def test_tientsin_is_two_teams_of_three():
    score = {
        "ok": True,
        "complete": True,
        "totals": [1020, 380],
        "winner": 0,
        "hands": [_hand([300, 0], [0, 2, 4]), _hand([60, 40], [1, 0, 2, 3, 4, 5])],
    }
    r = result_from_score(1, 0.0, "tientsin", list("abcdef"), score)
    assert r.teams == (("a", "c", "e"), ("b", "d", "f"))
    ch = TeamElo().update(r)
    assert sum(c.delta for c in ch) == pytest.approx(0.0)


def test_grand_seigneur_is_a_ranking_of_many():
    names = [f"p{i}" for i in range(7)]
    score = {
        "ok": True,
        "complete": True,
        "totals": [3, 12, 7, 0, 9, 1, 5],
        "hands": [_hand([0] * 7, list(range(7)))] * 3,
    }
    r = result_from_score(1, 0.0, "grand-seigneur", names, score)
    assert len(r.teams) == 7 and r.ranks[1] == 0 and r.ranks[3] == 6
    ch = {c.player: c.delta for c in MarginKalman().update(r)}
    assert ch["p1"] > 0 > ch["p3"]


def test_refusals_state_their_reason():
    done = {"ok": True, "complete": True, "totals": [0, 0], "hands": [_hand([0, 0], [0, 1])]}
    with pytest.raises(NotRated, match="not over"):
        result_from_score(1, 0.0, "nanking", [1, 2, 3, 4], {**done, "complete": False})
    with pytest.raises(NotRated, match="needs 4 seats"):
        result_from_score(1, 0.0, "nanking", [1, 2, 3], done)
    with pytest.raises(NotRated, match="not rated"):
        result_from_score(1, 0.0, "bridge", [1, 2, 3, 4], done)
    with pytest.raises(NotRated, match="twice"):
        result_from_score(1, 0.0, "nanking", [1, 2, 1, 4], done)


@needs_corpus
def test_tracker_history_parses_with_consistent_totals():
    names, games = load_tracker(TRACKER)
    assert len(names) == 7 and len(games) == 150
    for g in games:
        assert len(g.hand_details) == g.hands
        assert sum(h.points[0] for h in g.hand_details) == g.scores[0]
        assert sum(h.points[1] for h in g.hand_details) == g.scores[1]
    rated = [g for g in games if g.rated]
    assert all(g.hands > 0 for g in rated) and len(rated) < len(games)
    assert [g.finished_at for g in games] == sorted(g.finished_at for g in games)


@pytest.mark.parametrize("variant,seats", [("threechu", 3), ("tientsin", 6), ("tien-zi-que", 2)])
def test_engine_games_of_the_other_variants_are_rated(variant, seats):
    names = [f"p{i}" for i in range(seats)]
    rated = 0
    model, elo = MarginKalman(), TeamElo()
    for seed in range(6):
        score = score_json(fold(random_game(seed, variant=variant, players=names)))
        try:
            r = result_from_score(seed, float(seed), variant, names, score)
        except NotRated as exc:
            assert not score["complete"] and "not over" in exc.reason
            continue
        rated += 1
        assert set(r.players) <= set(names)
        ch = model.update(r)
        elo.update(r)
        if variant != "threechu" and score["winner"] is not None:
            winners = set(r.teams[score["winner"]])
            assert all(c.score == 1.0 for c in ch if c.player in winners)
    assert rated >= 3


def test_grand_seigneur_without_the_score_option_is_ranked_by_finishing_order():
    names = [f"p{i}" for i in range(5)]
    hands = [_hand([0] * 5, [2, 0, 1, 4, 3]), _hand([0] * 5, [2, 1, 0, 3, 4])]
    r = result_from_score(
        1, 0.0, "grand-seigneur", names, {"ok": True, "complete": True, "totals": [0] * 5, "hands": hands}
    )
    # first out scores n-1 = 4 ... last 0, summed over the hands
    assert r.scores == (3.0 + 2.0, 2.0 + 3.0, 4.0 + 4.0, 0.0 + 1.0, 1.0 + 0.0)
    assert r.ranks == (1, 1, 0, 3, 3)
