"""The league can follow a tournament's VP (issue 31 item 3; LeagueRules.follows_tournament_vp,
games.ratings.tournament_vp): a DTM table's game lost on points but won on VP counts as a win for
the VP winners with the rule on, for the points winners with it off; equal VP are a draw; a game
that is no tournament table's counts by its points either way. Changing the rule recomputes the
league; a result recorded after the game finished re-rates it."""

from __future__ import annotations

import pytest
from django.test import Client

from games import engine
from games import services as game_services
from games.models import Game, GameSeat, Membership
from games.ratings.league_rules import league_settings_update
from games.ratings.models import GameOutcome, RatingChange
from tests.ratings.rules import set_league_rules
from tests.tournament_api.test_api import create, pair_next_round, register_pairs
from tests.tournament_api.test_result_sides import url

pytestmark = pytest.mark.django_db

DTM = {"entrants": "pairs", "system": "swiss", "scoring": "dtm", "rounds": 1, "hands_per_round": 3}
# North/South take two close hands (2 + 2 VP), East/West one big one with a Tichu (2 VP): 155:245
# on points to East/West, 4:2 on VP to North/South
LOST_ON_POINTS_WON_ON_VP = [
    {"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": [55, 45]},
    {"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": [55, 45]},
    {"type": "hand_result", "calls": {"1": "tichu"}, "out": [1, 0, 2, 3], "points": [45, 55]},
]


def scores(game_id: int) -> tuple[float, float]:
    """(North/South's score, East/West's) in the league: 1 a win, ½ a draw, 0 a loss."""
    by_side = dict(RatingChange.objects.filter(game_id=game_id).values_list("side", "score"))
    return by_side[0], by_side[1]


def seats(game_id: int) -> list[int]:
    return list(GameSeat.objects.filter(game_id=game_id).order_by("seat").values_list("player_id", flat=True))


def table_game(client, capture, header: dict = DTM) -> int:
    """Table 1's game of a one-round tournament of the club, its hands not yet played."""
    tid = create(client, header=header)["id"]
    register_pairs(client, tid)
    pair_next_round(client, tid)
    with capture(execute=True):
        games = {g["table"]: g["game"] for g in client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()}
    return games[1]


def play(client, capture, game: int, hands: list[dict], record: bool = True) -> None:
    """The hands, then the table's result sent to the tournament (each write's rating task run)."""
    with capture(execute=True):
        seq = Game.objects.get(pk=game).seq
        response = client.post(f"/api/games/{game}/events/", {"expected_seq": seq, "events": hands}, format="json")
        assert response.status_code == 201, response.json()
    assert Game.objects.get(pk=game).status == Game.Status.FINISHED
    if record:
        with capture(execute=True):
            assert client.post(url(game), {"action": "record"}, format="json").status_code == 201


@pytest.fixture
def admin(club, scorer):
    Membership.objects.filter(club=club, user=scorer).update(role=Membership.Role.ADMIN)
    return scorer


def test_a_dtm_game_lost_on_points_won_on_vp_counts_as_the_rule_says(
    club, admin, scorer_client, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    set_league_rules(club, follows_tournament_vp=True)
    game = table_game(scorer_client, capture)
    play(scorer_client, capture, game, LOST_ON_POINTS_WON_ON_VP)
    assert scorer_client.get(f"/api/games/{game}/score/").json()["totals"] == [155, 245]
    page = Client()
    page.force_login(admin)
    assert "4 : 2 VP" in page.get(f"/games/{game}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # rule on: North/South won (their VP), though the game's points say East/West
    assert scores(game) == (1.0, 0.0)
    assert GameOutcome.objects.get(game_id=game).vp == [4, 2]
    north = seats(game)[0]
    assert RatingChange.objects.get(game_id=game, player_id=north).elo_after > 1500
    # the league's tables say it too: a win for North
    league = page.get(f"/clubs/{club.slug}/league.json").json()
    assert next(r for r in league["rows"] if r["player_id"] == north)["wins"] == 1
    assert league["rules"]["follows_tournament_vp"] is True
    # rule off (the admin's change recomputes the league): East/West won, on points
    with capture(execute=True):
        league_settings_update(club=club, actor=admin, follows_tournament_vp=False)
    assert scores(game) == (0.0, 1.0)
    assert GameOutcome.objects.get(game_id=game).vp is None
    assert RatingChange.objects.get(game_id=game, player_id=north).elo_after < 1500
    # and on again
    with capture(execute=True):
        league_settings_update(club=club, actor=admin, follows_tournament_vp=True)
    assert scores(game) == (1.0, 0.0)


def test_with_the_rule_off_the_points_winners_win(club, admin, scorer_client, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    game = table_game(scorer_client, capture)
    play(scorer_client, capture, game, LOST_ON_POINTS_WON_ON_VP)
    assert scores(game) == (0.0, 1.0)
    assert GameOutcome.objects.get(game_id=game).vp is None


def test_equal_vp_are_a_draw(club, admin, scorer_client, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    set_league_rules(club, follows_tournament_vp=True)
    game = table_game(scorer_client, capture, header={**DTM, "hands_per_round": 2})
    # one hand each (2 : 2 VP), 100:200 on points to East/West
    hands = [
        {"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": [55, 45]},
        {"type": "hand_result", "calls": {"1": "tichu"}, "out": [1, 0, 2, 3], "points": [45, 55]},
    ]
    play(scorer_client, capture, game, hands)
    assert scorer_client.get(f"/api/games/{game}/score/").json()["totals"] == [100, 200]
    assert scores(game) == (0.5, 0.5)
    north, east = seats(game)[:2]
    assert RatingChange.objects.get(game_id=game, player_id=north).elo_after == 1500.0  # even sides, a draw
    assert RatingChange.objects.get(game_id=game, player_id=east).elo_after == 1500.0


def test_the_result_recorded_after_the_finish_rates_the_game_again(
    club, admin, scorer_client, django_capture_on_commit_callbacks
):
    """The game is rated when it finishes, by its points (no VP yet); the table's result, sent
    then, gives its VP, and the league counts them."""
    capture = django_capture_on_commit_callbacks
    set_league_rules(club, follows_tournament_vp=True)
    game = table_game(scorer_client, capture)
    play(scorer_client, capture, game, LOST_ON_POINTS_WON_ON_VP, record=False)
    assert scores(game) == (0.0, 1.0)  # no table result yet: by its points
    with capture(execute=True):
        assert scorer_client.post(url(game), {"action": "record"}, format="json").status_code == 201
    assert scores(game) == (1.0, 0.0)


def test_a_game_at_no_tournament_table_counts_by_its_points(
    club, admin, scorer, scorer_client, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    set_league_rules(club, follows_tournament_vp=True)
    with capture(execute=True):
        game = game_services.game_import(
            club=club, record=engine.random_game(7, players=["Ada", "Ben", "Cyd", "Dot"]), user=scorer
        ).body["id"]
    totals = scorer_client.get(f"/api/games/{game}/score/").json()["totals"]
    assert totals[0] != totals[1]
    by_points = (1.0, 0.0) if totals[0] > totals[1] else (0.0, 1.0)
    assert scores(game) == by_points and GameOutcome.objects.get(game_id=game).vp is None
    with capture(execute=True):
        league_settings_update(club=club, actor=admin, follows_tournament_vp=False)
    assert scores(game) == by_points
