"""Tien Zi Que at an online table (issue 34 items 1 and 2, docs/online.md): two players join from
their links, the server deals each round (a `round_start` shuffled with `secrets`, a deck chosen
when the table's options name none), each seat sees its own hand and what the rules make public,
and is offered only the engine's legal actions at its moment: draw, claim (Chow, Pung), discard,
the reshuffle. A stale or retried action is explained, and nothing is stored twice."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.models import Event, Game, Membership
from games.online import selectors, services
from games.online.models import OnlineSeat, OnlineTable
from games.services import InvalidInput, SeqConflict, append_events
from tests.online.play import step
from tests.online.test_services import record_of

TZQ = "tien-zi-que"


@pytest.fixture
def member(make_user, club):
    user = make_user("member")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    return user


def open_tzq(club, user, options=None, bots=()):
    return services.open_table(club=club, variant=TZQ, options=options, players=["Ann", "Bob"], user=user, bots=bots)


def joined(table) -> list[OnlineSeat]:
    for seat in table.seats.order_by("seat"):
        services.join(seat)
    return list(table.seats.order_by("seat"))


def events_of(game: Game) -> list[dict]:
    return record_of(game)["events"]


def test_two_players_join_and_the_table_deals_the_round(club, member):
    table = open_tzq(club, member, options={"preset": "rio"})
    game = Game.objects.get(pk=table.game_id)
    deck = game.options["deck"]  # no edition named: the table chose the colours, the record keeps them
    assert len(deck) == 54 and engine.fold(record_of(game)).deck is not None
    seats = list(table.seats.order_by("seat"))
    services.join(seats[0])
    assert Game.objects.get(pk=table.game_id).seq == 0  # the table waits for the second player
    joined(table)
    game.refresh_from_db()
    [deal] = events_of(game)
    assert deal["type"] == "round_start" and deal["seat"] in (0, 1)
    assert sorted([*deal["hands"][0], *deal["hands"][1], *deal["stock"]]) == sorted(deck)
    assert [len(h) for h in deal["hands"]] == [5, 5] and len(deal["stock"]) == 44
    assert all(e.recorded_by_id is None for e in Event.objects.filter(game=game))
    for seat in seats:
        view = selectors.seat_view(seat)
        own, other = view["state"]["hands"][seat.seat], view["state"]["hands"][1 - seat.seat]
        assert sorted(own) == sorted(deal["hands"][seat.seat]) and other == ["?"] * 5
        assert view["state"]["stock_size"] == 44 and "stock" not in view["state"]
        assert view["state"]["counts"] == [5, 5]
        if seat.seat == deal["seat"]:  # the starter draws (or claims: nothing is discarded yet)
            assert [a["type"] for a in view["actions"]] == ["draw"]
        else:
            assert view["actions"] == []


def test_an_edition_given_in_the_options_is_the_deck_dealt(club, member):
    deck = engine.random_tzq_deck(random.Random(3))
    table = open_tzq(club, member, options={"deck": deck, "rounds": 2})
    joined(table)
    game = Game.objects.get(pk=table.game_id)
    assert game.options["deck"] == deck and game.options["rounds"] == 2
    deal = events_of(game)[0]
    assert sorted([*deal["hands"][0], *deal["hands"][1], *deal["stock"]]) == sorted(deck)


def test_draw_then_discard_only_at_its_moment(club, member):
    seats = joined(open_tzq(club, member))
    game = Game.objects.get(pk=seats[0].table.game_id)
    starter = events_of(game)[0]["seat"]
    me, other = seats[starter], seats[1 - starter]
    with pytest.raises(InvalidInput) as refused:
        services.act(seat=other, action={"type": "draw"}, expected_seq=game.seq)
    assert refused.value.code == "not_your_action"
    with pytest.raises(InvalidInput) as refused:  # a discard before the draw: not offered now
        hand = selectors.seat_view(me)["state"]["hands"][starter]
        services.act(seat=me, action={"type": "discard", "card": hand[0]}, expected_seq=game.seq)
    assert refused.value.code == "not_your_action"
    services.act(seat=me, action={"type": "draw"}, expected_seq=game.seq)
    game.refresh_from_db()
    view = selectors.seat_view(me)
    assert len(view["state"]["hands"][starter]) == 6 and view["state"]["drawn"] not in (None, "?")
    assert {a["type"] for a in view["actions"]} <= {"discard", "pung"} and any(
        a["type"] == "discard" for a in view["actions"]
    )
    watcher = selectors.seat_view(other)
    assert watcher["state"]["drawn"] == "?" and watcher["state"]["hands"][starter] == ["?"] * 6
    card = view["state"]["drawn"]
    services.act(seat=me, action={"type": "discard", "card": card}, expected_seq=game.seq)
    after = selectors.seat_view(other)
    assert after["state"]["discard"] == [card] and after["state"]["turn"] == 1 - starter
    assert {a["type"] for a in after["actions"]} <= {"draw", "chow"} and after["actions"]


def test_a_stale_or_retried_action_is_explained_and_stored_once(club, member):
    seats = joined(open_tzq(club, member))
    game = Game.objects.get(pk=seats[0].table.game_id)
    me = seats[events_of(game)[0]["seat"]]
    seq = game.seq
    first = services.act(seat=me, action={"type": "draw"}, expected_seq=seq, idempotency_key="k1")
    again = services.act(seat=me, action={"type": "draw"}, expected_seq=seq, idempotency_key="k1")
    assert first == again and Game.objects.get(pk=game.pk).seq == seq + 1
    with pytest.raises(SeqConflict):  # the same draw from a page that did not see the first
        services.act(seat=me, action={"type": "draw"}, expected_seq=seq)
    assert Game.objects.get(pk=game.pk).seq == seq + 1


def play_to(table, rng, done, limit=3000) -> Game:
    game = Game.objects.get(pk=table.game_id)
    for _ in range(limit):
        game.refresh_from_db()
        if done(game):
            return game
        assert step(table, rng), "nobody at the table can move"
    raise AssertionError("the table did not get there")


def rounds_done(game: Game) -> int:
    return len(engine.fold(record_of(game)).history)


@pytest.mark.parametrize("seed", [1, 2])
def test_two_seats_play_a_whole_game_and_the_record_is_ordinary(club, member, seed):
    table = open_tzq(club, member, options={"rounds": 2})
    joined(table)
    game = play_to(table, random.Random(seed), lambda g: g.status != Game.Status.ACTIVE)
    record = record_of(game)
    state = engine.fold(record)
    assert state.over and len(state.history) == 2
    kinds = {e["type"] for e in record["events"]}
    assert {"round_start", "draw", "discard"} <= kinds and kinds & {"pung", "chow"}
    assert [e["type"] for e in record["events"]].count("round_start") == 2
    assert engine.score_json(state)["totals"] == list(state.totals)


def a_reshuffle_to_choose() -> tuple[dict, int]:
    """A bot-played record (engine.random_tzq_record) and how many of its events lead to a turn
    whose player may choose between a Chow and the reshuffle of an empty stock (seed 5: the 67th)."""
    record = engine.random_tzq_record(5)
    state = engine.fold({**record, "events": []})
    for n, event in enumerate(record["events"]):
        kinds = {a["type"] for a in state.legal_actions()} if state.phase == "action" else set()
        if {"reshuffle", "chow"} <= kinds:
            return record, n
        state.apply(event)
    raise AssertionError("the record has no such turn")


def test_a_reshuffle_a_seat_chooses_is_ordered_by_the_table_and_a_retry_keeps_its_order(club, member):
    """The discards go back into the stock in an order nobody at the table chose or can foresee
    (the seat names only the cards); a retried reshuffle is the same request, stored once."""
    record, n = a_reshuffle_to_choose()
    table = open_tzq(club, member, options=record["options"])
    append_events(  # the game so far, as the table would have stored it
        game=table.game_id, events=record["events"][:n], expected_seq=0, user=services.TableDealer(table)
    )
    seats = joined(table)
    game = Game.objects.get(pk=table.game_id)
    assert game.seq == n  # the table had nothing to deal: the seat chooses
    state = engine.fold(record_of(game))
    chooser = seats[state.turn]
    view = selectors.seat_view(chooser)
    offered = next(a for a in view["actions"] if a["type"] == "reshuffle")
    assert any(a["type"] == "chow" for a in view["actions"])
    assert selectors.seat_view(seats[1 - state.turn])["actions"] == []
    first = services.act(seat=chooser, action=offered, expected_seq=n, idempotency_key="mix")
    again = services.act(seat=chooser, action=offered, expected_seq=n, idempotency_key="mix")
    game.refresh_from_db()
    assert first == again and game.seq == n + 1  # the seat draws next: nothing else was stored
    stored = events_of(game)[n]
    assert stored["type"] == "reshuffle" and sorted(stored["stock"]) == sorted(offered["stock"])
    assert stored["stock"] != offered["stock"]  # not the discards' order (1 chance in len! to fail)
    assert len(offered["stock"]) > 8
    after = selectors.seat_view(chooser)
    assert [a["type"] for a in after["actions"]] == ["draw"] and "stock" not in after["state"]


def test_the_bot_plays_a_tien_zi_que_seat(club, member):
    table = open_tzq(club, member, options={"rounds": 2}, bots=[1])
    services.join(table.seats.get(seat=0))
    game = play_to(table, random.Random(9), lambda g: rounds_done(g) >= 1)
    record = record_of(game)
    bot_events = [
        e for e in record["events"] if e.get("seat") == 1 and e["type"] in ("draw", "discard", "pung", "chow")
    ]
    assert bot_events  # the bot drew, claimed and discarded as ordinary events
    assert game.header["meta"]["bots"] == [{"seat": 1, "from": 0, "policy": "greedy"}]
    state = engine.fold(record)
    assert state.turn in (0, None)  # after every request the table waits for the person


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_tables_deal_and_reshuffle_are_legal_and_keep_every_card(seed):
    """engine.table_events and engine.shuffle_chance, the table's chance: whatever the order `rng`
    gives, the deal is the whole deck in the shape the rules want (5, 5, 44) and the engine takes
    it; a reshuffle keeps exactly the discards."""
    rng = random.Random(seed)
    options = engine.table_options(TZQ, {"preset": "rio"}, rng)
    state = engine.new_game(TZQ, options, ["Ann", "Bob"])
    [deal] = engine.table_events(state, rng)
    assert [len(h) for h in deal["hands"]] == [5, 5] and len(deal["stock"]) == 44
    assert sorted([*deal["hands"][0], *deal["hands"][1], *deal["stock"]]) == sorted(options["deck"])
    state.apply(deal)
    assert engine.table_events(state, rng) == []  # now a seat acts
    assert engine.seat_actions(state, deal["seat"]) == [{"type": "draw", "seat": deal["seat"]}]
    offered = {"type": "reshuffle", "seat": 0, "stock": sorted(options["deck"])[:20]}
    mixed = engine.shuffle_chance(state, offered, rng)
    assert sorted(mixed["stock"]) == offered["stock"] and mixed["seat"] == 0
    draw = {"type": "draw", "seat": 0}
    assert engine.shuffle_chance(state, draw, rng) == draw  # no chance in a draw
    broken = {"type": "reshuffle", "seat": 0, "stock": "Ew"}
    assert engine.shuffle_chance(state, broken, rng) == broken  # left for the fold to refuse


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 150), bot=st.sampled_from([0, 1]))
def test_the_bots_moves_are_legal_and_stop_where_the_bot_has_nothing_to_do(seed, cut, bot):
    """engine.bot_moves for Tien Zi Que: from any moment of a game, the bot's events are ones the
    engine accepts, and they end where the other seat acts or the table deals (a round_start, a
    reshuffle a refill waits for), never where the bot could still move."""
    record = engine.random_tzq_record(seed)
    state = engine.fold({**record, "events": record["events"][:cut]})
    moves = engine.bot_moves(state, {bot}, random.Random(seed))
    for move in moves:
        assert move["seat"] == bot
        state.apply(move)  # an EngineError would fail the test
    assert state.over or state.turn != bot or state.phase not in ("action", "drawn")


def test_the_form_opens_a_tien_zi_que_table_and_its_seat_page_draws_the_rounds_board(club, member):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member)
    form = client.get(f"/clubs/{club.slug}/online/").content.decode()
    assert 'value="tien-zi-que"' in form  # offered with the other four games
    response = client.post(f"/clubs/{club.slug}/online/", {"variant": TZQ, "preset": "rio", "players": "Ann\nBob"})
    assert response.status_code == 302
    table = OnlineTable.objects.get()
    seats = list(table.seats.order_by("seat"))
    pages = []
    for s in seats:  # a seat link's GET only offers the seat; its POST takes it
        player = Client(HTTP_ACCEPT_LANGUAGE="en")
        assert player.post(f"/online/seat/{s.secret}/").status_code == 302
        pages.append(player.get(f"/online/seat/{s.secret}/"))
    config = json.loads(pages[1].content.decode().split('id="online-config" type="application/json">')[1].split("<")[0])
    assert config["board"] == "rounds" and config["seat_names"] == ["Ann", "Bob"]
    game = Game.objects.get(pk=table.game_id)
    starter = seats[events_of(game)[0]["seat"]]
    url = f"/online/seat/{starter.secret}/act/"
    body = json.dumps({"action": {"type": "draw"}, "expected_seq": game.seq})
    with translation.override("en"):
        done = Client().post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="d1")
        again = Client().post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="d1")
        stale = Client().post(url, body, content_type="application/json")
    assert done.status_code == 200 and again.status_code == 200
    assert done.json()["view"]["state"]["drawn"] not in (None, "?")
    assert stale.status_code == 409 and "moved on" in stale.json()["detail"]
    assert Game.objects.get(pk=game.pk).seq == game.seq + 1
