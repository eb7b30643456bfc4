"""Bot seats at an online table (issue 34 item 4, docs/online.md): a seat given to the engine's bot
when the table opens or when its player leaves; the bot acts in the request that makes it its turn,
through the append service, as ordinary events; the record marks the seat (meta.bots); the league
leaves bot games out unless the club says so (LeagueRules.rates_bot_games, games.ratings)."""

from __future__ import annotations

import random

import pytest

from games import engine
from games import services as game_services
from games.models import Event, Game, Membership
from games.online import selectors, services
from games.online.models import OnlineSeat
from games.online.record_marks import bot_marks
from games.ratings.league_rules import league_settings_update
from games.ratings.models import GameOutcome, RatingChange
from games.selectors import game_record
from games.services import InvalidInput, WriteForbidden
from games.services.content import record_content
from tests.online.play import step
from tests.online.test_services import record_of


@pytest.fixture
def member(make_user, club):
    user = make_user("member")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    return user


def open_with_bots(club, user, bots, variant="nanking", players=("Ada", "Ben", "Cyd", "Dot")):
    return services.open_table(club=club, variant=variant, options=None, players=list(players), user=user, bots=bots)


def play_until(table, rng, done, limit=600):
    game = Game.objects.get(pk=table.game_id)
    for _ in range(limit):
        game.refresh_from_db()
        if done(game):
            return game
        assert step(table, rng), "nobody at the table can move"
    raise AssertionError("the table did not get there")


def hands_scored(game: Game) -> int:
    return len(engine.fold(record_of(game)).history)


def test_one_person_and_three_bots_play_a_whole_hand(club, member):
    table = open_with_bots(club, member, bots=[1, 2, 3])
    seats = list(table.seats.order_by("seat"))
    assert [s.bot for s in seats] == ["", "greedy", "greedy", "greedy"]
    assert all(s.joined_at is not None for s in seats[1:])
    assert Game.objects.get(pk=table.game_id).seq == 0  # the person has not joined yet
    services.join(seats[0])
    view = selectors.seat_view(seats[0])
    assert view["grand_tichu_wait"] == [0]  # the bots call no Grand Tichu: only the person decides
    assert view["bots"] == [1, 2, 3]
    game = play_until(table, random.Random(5), lambda g: hands_scored(g) == 1)
    record = record_of(game)
    by_seat = {
        s: [e for e in record["events"] if e.get("seat") == s and e["type"] in ("push", "play", "pass")]
        for s in range(4)
    }
    assert all(by_seat[s] for s in (1, 2, 3))  # the bots pushed and played, as ordinary events
    assert all(e.recorded_by_id is None for e in Event.objects.filter(game=game))
    exported = game_record(game)
    assert exported["meta"]["bots"] == [{"seat": s, "from": 0, "policy": "greedy"} for s in (1, 2, 3)]
    assert engine.fold(exported).history  # an ordinary record: the engine folds it as any other
    # the import recognises the game: its content hash covers the marks
    assert game.content_hash == record_content(game.variant, game.options, game.header, record["events"])


def test_the_bots_wait_for_the_persons_turn_and_only_then_move(club, member):
    table = open_with_bots(club, member, bots=[1, 3])
    seats = list(table.seats.order_by("seat"))
    services.join(seats[0])
    services.join(seats[2])
    rng = random.Random(11)
    for _ in range(300):
        game = Game.objects.get(pk=table.game_id)
        state = engine.fold(record_of(game))
        doc = engine.state_json(state)
        if doc["phase"] == "play":
            # after every request the table waits for a person (or the Dragon's gift of one)
            waiting = doc["turn"] if doc["turn"] is not None else doc.get("gift_from")
            assert waiting in (0, 2)
        if state.history:
            break
        assert step(table, rng)
    assert state.history, "no hand was finished"


@pytest.mark.parametrize(
    "bots,code", [([0, 1, 2, 3], "no_person"), ([4], "malformed"), ([-1], "malformed"), ([True], "malformed")]
)
def test_a_table_of_bots_only_or_a_seat_that_is_not_there_is_refused(club, member, bots, code):
    with pytest.raises(InvalidInput) as refused:
        open_with_bots(club, member, bots=bots)
    assert refused.value.code == code
    assert not Game.objects.exists()


def test_a_seat_whose_player_left_is_handed_to_the_bot(club, member, make_user):
    table = open_with_bots(club, member, bots=[])
    seats = list(table.seats.order_by("seat"))
    for seat in seats:
        services.join(seat)
    game = play_until(
        table, random.Random(2), lambda g: engine.state_json(engine.fold(record_of(g)))["phase"] == "play"
    )
    with pytest.raises(WriteForbidden):
        services.seat_to_bot(seat=seats[2], user=make_user("stranger"))
    since = game.seq
    services.seat_to_bot(seat=seats[2], user=member)
    game.refresh_from_db()
    assert bot_marks(game.header) == [{"seat": 2, "from": since, "policy": "greedy"}]
    view = selectors.seat_view(OnlineSeat.objects.get(pk=seats[2].pk))
    assert view["actions"] == [] and view["bots"] == [2]
    assert set(view["state"]["hands"][2]) <= {"?"}  # the old link sees the bot's hand no more
    with pytest.raises(InvalidInput) as refused:  # the old link acts no more
        services.act(seat=seats[2], action={"type": "pass"}, expected_seq=game.seq)
    assert refused.value.code == "seat_is_bot"
    doc = engine.state_json(engine.fold(record_of(game)))
    assert doc["turn"] != 2  # had it been the seat's turn, the bot has moved already
    events = [e.as_record_event() for e in Event.objects.filter(game=game).order_by("seq")]
    assert game.content_hash == record_content(game.variant, game.options, game.header, events)
    services.seat_to_bot(seat=seats[0], user=member)
    services.seat_to_bot(seat=seats[1], user=member)
    with pytest.raises(InvalidInput) as refused:
        services.seat_to_bot(seat=seats[3], user=member)
    assert refused.value.code == "no_person"


@pytest.mark.django_db
def test_the_league_leaves_bot_games_out_unless_the_club_says_so(club, scorer, django_capture_on_commit_callbacks):
    Membership.objects.filter(club=club, user=scorer).update(role=Membership.Role.ADMIN)
    record = engine.random_game(3, players=["Ada", "Ben", "Cyd", "Dot"])
    plain = engine.random_game(4, players=["Ada", "Ben", "Cyd", "Dot"])
    record["meta"] = {"bots": [{"seat": 1, "from": 0, "policy": "greedy"}]}
    with django_capture_on_commit_callbacks(execute=True):
        bot_game = game_services.game_import(club=club, record=record, user=scorer).body["id"]
        other = game_services.game_import(club=club, record=plain, user=scorer).body["id"]
    assert "bot" in GameOutcome.objects.get(game_id=bot_game).reason
    assert not RatingChange.objects.filter(game_id=bot_game).exists()
    assert RatingChange.objects.filter(game_id=other).count() == 4
    club.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        league_settings_update(club=club, actor=scorer, rates_bot_games=True)
    assert GameOutcome.objects.get(game_id=bot_game).reason == ""
    assert RatingChange.objects.filter(game_id=bot_game).count() == 4
    with django_capture_on_commit_callbacks(execute=True):
        league_settings_update(club=club, actor=scorer, rates_bot_games=False)
    assert not RatingChange.objects.filter(game_id=bot_game).exists()
    assert RatingChange.objects.filter(game_id=other).count() == 4
