"""Each hand's deal at a glance (issue 39, replay/frames/deals.py): the cards dealt to each seat, what
each passed and received, read off the frames the reader was given; checked against the record's own
draws and pushes, and against the one visibility decision during a game in play."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import engine
from games.models import Membership, Player
from replay import frames
from replay.frames.deals import deck_order

from .conftest import bot_record, import_game
from .dom import parse

HIDDEN = "?"


def record_hands(record: dict) -> list[list[dict]]:
    """The record's events cut at each hand's (or round's) first event."""
    starts = engine.game_info(record["variant"]).hand_starts
    hands: list[list[dict]] = []
    for event in record["events"]:
        if event["type"] in starts:
            hands.append([])
        if hands:
            hands[-1].append(event)
    return hands


def expected_deal(events: list[dict], seats: int) -> dict:
    """What a hand's record says was dealt (its draws before the first push or play), passed and
    received: straight from the events, no fold."""
    dealt: list[list[str]] = [[] for _ in range(seats)]
    passed: list[dict] = [{} for _ in range(seats)]
    received: list[dict] = [{} for _ in range(seats)]
    dealing = True
    for event in events:
        if event["type"] in ("push", "play", "pass"):
            dealing = False
        if dealing and event["type"] == "draw":
            dealt[event["seat"]].append(event["card"])
        if event["type"] == "push":
            for to, card in event["cards"].items():
                passed[event["seat"]][to] = [card]
                received[int(to)][str(event["seat"])] = [card]
    return {"dealt": dealt, "passed": passed, "received": received}


@pytest.mark.parametrize("seed", [1, 7])
def test_each_deal_lists_the_records_draws_sorted_and_its_exchange(seed):
    record = bot_record(seed)
    deals = frames.build(record).payload()["deals"]
    hands = record_hands(record)
    assert [d["number"] for d in deals] == list(range(1, len(hands) + 1))
    order = deck_order(record["variant"])
    for deal, events in zip(deals, hands, strict=True):
        want = expected_deal(events, len(record["players"]))
        for seat, shown in enumerate(deal["seats"]):
            assert Counter(shown["dealt"]) == Counter(want["dealt"][seat]) and len(shown["dealt"]) == 14
            assert shown["dealt"] == sorted(shown["dealt"], key=order.__getitem__)  # by rank, lowest first
            assert shown["passed"] == want["passed"][seat]
            assert shown["received"] == want["received"][seat]


def test_a_deal_equals_the_folded_hands_when_the_exchange_begins():
    record = bot_record(1)
    deals = frames.build(record).payload()["deals"]
    replay = engine.Replay(record)
    first_push = next(i for i, e in enumerate(record["events"]) if e["type"] == "push")  # hand 1's
    hands = engine.state_json(replay.state_at(first_push))["hands"]
    assert [Counter(s["dealt"]) for s in deals[0]["seats"]] == [Counter(h) for h in hands]


def test_tien_zi_que_rounds_are_dealt_by_their_round_start():
    record = engine.random_game(3, variant="tien-zi-que", players=["Ann", "Bob"])
    deals = frames.build(record).payload()["deals"]
    starts = [e for e in record["events"] if e["type"] == "round_start"]
    assert len(deals) == len(starts)
    order = deck_order("tien-zi-que")
    for deal, start in zip(deals, starts, strict=True):
        assert [s["dealt"] for s in deal["seats"]] == [sorted(h, key=order.__getitem__) for h in start["hands"]]
        assert all(s["passed"] == {} == s["received"] for s in deal["seats"])


def _page_deals(client, game) -> list[dict]:
    root = parse(client.get(reverse("replay:game-replay", args=[game.pk])).content)
    return json.loads(root.by_id("replay-data").text())["deals"]


@pytest.mark.django_db
def test_a_game_in_play_hides_every_hand_in_play_but_the_readers_own(client, public_club):
    record = bot_record(1)
    starts = [i for i, e in enumerate(record["events"]) if e["type"] == "shuffle"]
    cut = starts[1] + 70  # hand 2 in play, past its exchange
    game = import_game(public_club, dict(record, events=record["events"][:cut]))
    want = [expected_deal(events, 4) for events in record_hands(dict(record, events=record["events"][:cut]))]

    deals = _page_deals(client, game)  # a signed-out reader
    assert len(deals) == 2
    assert [s["dealt"] for s in deals[1]["seats"]] == [[HIDDEN] * 14] * 4
    assert all(set(c) == {HIDDEN} for s in deals[1]["seats"] for c in [*s["passed"].values(), *s["received"].values()])
    # hand 1 is over: its deal is open (the club's default, reveal_hands per hand)
    assert [Counter(s["dealt"]) for s in deals[0]["seats"]] == [Counter(h) for h in want[0]["dealt"]]

    # a reader seated at seat 2 sees their own deal and exchange, no one else's hand
    user = get_user_model().objects.create_user("cleo", password="pw")
    Membership.objects.create(user=user, club=public_club, role=Membership.Role.VIEWER)
    Player.objects.filter(club=public_club, name=record["players"][2]).update(user=user)
    client.force_login(user)
    seats = _page_deals(client, game)[1]["seats"]
    assert Counter(seats[2]["dealt"]) == Counter(want[1]["dealt"][2])
    assert seats[2]["passed"] == want[1]["passed"][2] and seats[2]["received"] == want[1]["received"][2]
    for other in (0, 1, 3):
        assert seats[other]["dealt"] == [HIDDEN] * 14
