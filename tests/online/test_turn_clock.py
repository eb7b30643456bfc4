"""The turn clock (games/online/turn_clock.py): a club's seconds per action; when a seat's run
out, the engine's bot plays that one action for it, marked in the record, once, read from the
stored events' times on the next request (no timer in a process)."""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from games import engine, snapshots
from games.models import Event, Game, Membership
from games.online import record_marks, selectors, services, turn_clock
from games.online.models import OnlineSettings, OnlineTable
from games.services import InvalidInput, SeqConflict, WriteForbidden
from tests.online.play import join_all, open_four

SECONDS = 30


@pytest.fixture
def member(make_user, club):
    user = make_user("member")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    return user


def later(seconds: float) -> dt.datetime:
    return timezone.now() + dt.timedelta(seconds=seconds)


def game_of(table: OnlineTable) -> Game:
    return Game.objects.get(pk=table.game_id)


def clocked_table(club, member) -> OnlineTable:
    OnlineSettings.objects.create(club=club, turn_seconds=SECONDS)
    table = open_four(club, member)
    join_all(table)
    return OnlineTable.objects.get(pk=table.pk)


def to_play_phase(table: OnlineTable) -> None:
    """Every seat says no to Grand Tichu and makes its exchange, by the seats' own actions."""
    seats = list(table.seats.order_by("seat"))
    for seat in seats:
        services.act(seat=seat, action={"type": "no_grand_tichu"}, expected_seq=game_of(table).seq)
    for seat in seats:
        view = selectors.seat_view(seat)
        hand = view["state"]["hands"][seat.seat]
        cards = dict(zip(view["push_due"], hand))
        services.act(seat=seat, action={"type": "push", "cards": cards}, expected_seq=view["seq"])


def test_without_a_clock_nothing_runs_out(club, member):
    table = open_four(club, member)
    join_all(table)
    assert turn_clock.read_clock(table.pk) is None
    assert selectors.seat_view(table.seats.first())["clock"] is None
    seq = game_of(table).seq
    assert turn_clock.enforce(table.pk, now=later(10**6)) is False
    assert game_of(table).seq == seq


def test_a_grand_tichu_left_undecided_is_a_no_when_the_clock_runs_out_never_before(club, member):
    table = clocked_table(club, member)
    seq = game_of(table).seq
    clock = turn_clock.read_clock(table.pk)
    assert clock is not None and clock.seats == (0, 1, 2, 3) and clock.seconds == SECONDS
    services.act(seat=table.seats.get(seat=0), action={"type": "grand_tichu"}, expected_seq=seq)
    seq += 1
    assert turn_clock.read_clock(table.pk).seats == (1, 2, 3)
    assert turn_clock.enforce(table.pk, now=later(SECONDS - 1)) is False  # not yet
    table.refresh_from_db()
    assert table.pending_deal and table.declined == [] and game_of(table).seq == seq
    assert turn_clock.enforce(table.pk, now=later(SECONDS + 1)) is True
    table.refresh_from_db()
    assert table.declined == [1, 2, 3] and table.pending_deal == []  # the rest of the deal is out
    kinds = [e.type for e in Event.objects.filter(game_id=table.game_id, seq__gt=seq).order_by("seq")]
    assert kinds == ["deal"] * 4
    assert record_marks.bot_marks(game_of(table).header) == []  # a "no" is no event of the bot's


def test_a_run_out_exchange_is_made_by_the_bot_and_marked(club, member):
    table = clocked_table(club, member)
    seats = list(table.seats.order_by("seat"))
    for seat in seats:
        services.act(seat=seat, action={"type": "no_grand_tichu"}, expected_seq=game_of(table).seq)
    view = selectors.seat_view(seats[0])
    services.act(
        seat=seats[0],
        action={"type": "push", "cards": dict(zip(view["push_due"], view["state"]["hands"][0]))},
        expected_seq=view["seq"],
    )
    assert turn_clock.read_clock(table.pk).seats == (1, 2, 3)
    start = game_of(table).seq
    assert turn_clock.enforce(table.pk, now=later(SECONDS + 1)) is True
    game = game_of(table)
    pushes = list(Event.objects.filter(game=game, seq__gt=start, type="push").order_by("seq"))
    assert [e.payload["seat"] for e in pushes] == [1, 2, 3]
    marks = record_marks.bot_marks(game.header)
    assert marks == [
        {"seat": s, "from": start + i, "to": start + i + 1, "policy": "greedy", "why": "clock"}
        for i, s in enumerate((1, 2, 3))
    ]
    assert engine.state_json(snapshots.state_at(game, game.seq))["phase"] == "play"


def test_a_run_out_turn_is_played_once_by_the_bot_and_the_page_says_so_first(club, member):
    table = clocked_table(club, member)
    to_play_phase(table)
    game = game_of(table)
    turn = engine.state_json(snapshots.state_at(game, game.seq))["turn"]
    seat_view = selectors.seat_view(table.seats.get(seat=turn))
    assert seat_view["clock"]["seats"] == [turn] and 0 < seat_view["clock"]["left"] <= SECONDS
    other = selectors.seat_view(table.seats.get(seat=(turn + 1) % 4))
    assert other["clock"]["seats"] == [turn]  # the others see whom the table waits for, and how long
    seq = game.seq
    deadline = turn_clock.read_clock(table.pk).deadline
    assert turn_clock.enforce(table.pk, now=deadline - dt.timedelta(seconds=1)) is False
    time.sleep(0.3)  # the bot's event is stored later than the moment the clock is read at below
    expired = deadline + dt.timedelta(seconds=0.2)
    assert turn_clock.enforce(table.pk, now=expired) is True
    # the same moment seen by a second request: the turn is played, the next one's clock is fresh
    assert turn_clock.enforce(table.pk, now=expired) is False
    game.refresh_from_db()
    assert game.seq == seq + 1
    played = Event.objects.get(game=game, seq=seq + 1)
    assert played.payload["seat"] == turn and played.type in ("play", "pass")
    assert record_marks.bot_marks(game.header) == [
        {"seat": turn, "from": seq, "to": seq + 1, "policy": "greedy", "why": "clock"}
    ]
    assert table.seats.get(seat=turn).bot == ""  # the seat stays its player's
    assert engine.fold(
        {
            "format": engine.FORMAT,
            "variant": game.variant,
            "options": game.options or {},
            "players": ["Ada", "Ben", "Cyd", "Dot"],
            "events": [e.as_record_event() for e in Event.objects.filter(game=game).order_by("seq")],
        }
    )


def test_a_seats_late_action_after_the_clock_ran_out_is_told_the_table_moved_on(club, member):
    table = clocked_table(club, member)
    to_play_phase(table)
    game = game_of(table)
    state = snapshots.state_at(game, game.seq)
    turn = engine.state_json(state)["turn"]
    seat = table.seats.get(seat=turn)
    view = selectors.seat_view(seat)
    move = next(a for a in view["actions"] if a["type"] in ("play", "pass"))
    assert turn_clock.enforce(table.pk, now=later(SECONDS + 1))
    with pytest.raises(SeqConflict):
        services.act(seat=seat, action=move, expected_seq=view["seq"])
    assert game_of(table).seq == view["seq"] + 1


def test_polls_wait_no_longer_than_the_clock_has_left(club, member):
    table = clocked_table(club, member)
    OnlineSettings.objects.filter(club=club).update(turn_seconds=10)
    seat = table.seats.get(seat=0)
    seq = game_of(table).seq
    deadline = turn_clock.read_clock(table.pk).deadline
    view = Client().get(f"/online/seat/{seat.secret}/view/?after={seq}&wait=25").json()
    answered = timezone.now()
    # the poll came back once the clock had run out, not before it, and not after its 25 s
    assert deadline <= answered < deadline + dt.timedelta(seconds=5), (deadline, answered)
    assert view["grand_tichu_wait"] == [] and view["seq"] == seq + 4  # the "no"s said, the rest dealt


def test_only_an_admin_sets_the_clock_and_only_to_a_sensible_number(club, member, make_user):
    with pytest.raises(WriteForbidden):
        turn_clock.set_turn_seconds(club=club, seconds=30, user=member)
    admin = make_user("boss")
    Membership.objects.create(club=club, user=admin, role=Membership.Role.ADMIN)
    for wrong in (5, 3601, -1, True, "30"):
        with pytest.raises(InvalidInput):
            turn_clock.set_turn_seconds(club=club, seconds=wrong, user=admin)
    assert turn_clock.turn_seconds(club.pk) == 0
    turn_clock.set_turn_seconds(club=club, seconds=45, user=admin)
    turn_clock.set_turn_seconds(club=club, seconds=60, user=admin)
    assert turn_clock.turn_seconds(club.pk) == 60 and OnlineSettings.objects.count() == 1
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(admin)
    assert client.post(f"/clubs/{club.slug}/online/clock/", {"turn_seconds": "0"}).status_code == 302
    assert turn_clock.turn_seconds(club.pk) == 0
    page = client.get(f"/clubs/{club.slug}/online/").content.decode()
    assert 'id="clock-form"' in page
    viewer = Client(HTTP_ACCEPT_LANGUAGE="en")
    viewer.force_login(member)
    assert 'id="clock-form"' not in viewer.get(f"/clubs/{club.slug}/online/").content.decode()
    viewer.post(f"/clubs/{club.slug}/online/clock/", {"turn_seconds": "40"})
    assert turn_clock.turn_seconds(club.pk) == 0


@pytest.mark.postgres
def test_two_seats_polling_at_once_after_the_clock_ran_out_play_it_once(transactional_db, club, member):
    table = clocked_table(club, member)
    to_play_phase(table)
    seq = game_of(table).seq
    time.sleep(0.3)  # the bot's event is stored later than the moment the requests read the clock at
    expired = turn_clock.read_clock(table.pk).deadline + dt.timedelta(seconds=0.2)
    start = threading.Barrier(4)
    answers: list[bool] = []

    def poll() -> None:
        try:
            start.wait()
            answers.append(turn_clock.enforce(table.pk, now=expired))
        finally:
            connection.close()

    threads = [threading.Thread(target=poll) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [False, False, False, True]
    game = game_of(table)
    assert game.seq == seq + 1 and len(record_marks.bot_marks(game.header)) == 1
