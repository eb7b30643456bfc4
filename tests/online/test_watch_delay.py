"""Watching on a delay the club sets (issue 34 item 5; games/online/watch_delay.py): a watcher sees
the table as it stood that many events ago, masked as a watcher saw it then; the seats see the
present; the watcher's poll tells nothing of the events past the delay; only an admin sets it."""

from __future__ import annotations

import itertools
import random
import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Club, Game, Membership
from games.online import selectors, services, watch_delay
from games.online.models import OnlineSettings, OnlineTable
from games.services import InvalidInput, WriteForbidden
from tests.online.play import join_all, open_four, step
from tests.online.test_services import record_of
from tests.visibility.cards import secret_cards, shown_codes, universe

EXAMPLES = itertools.count()
PLAYERS = {"nanking": 4, "threechu": 3, "tientsin": 6, "tien-zi-que": 2}
PRESENT_ONLY = ("clock", "grand_tichu_wait")  # what a delayed view leaves out: it tells the present


@pytest.fixture
def member(make_user, club):
    user = make_user("member")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    return user


def game_of(table: OnlineTable) -> Game:
    return Game.objects.get(pk=table.game_id)


def set_delay(club, events: int) -> None:
    OnlineSettings.objects.update_or_create(club=club, defaults={"watch_delay_events": events})


def _comparable(view: dict) -> dict:
    """A watcher's view without what belongs to the moment it was asked (the seats' names and the
    present's clock), to compare a delayed view with the live one at the same position."""
    return {k: v for k, v in view.items() if k not in ("names", "joined", "bots", "delay", *PRESENT_ONLY)}


@pytest.mark.django_db
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    variant=st.sampled_from(sorted(PLAYERS)),
    seed=st.integers(0, 10_000),
    steps=st.integers(5, 70),
    delay=st.integers(1, 25),
)
def test_a_delayed_watcher_never_sees_an_event_newer_than_the_delay(variant, seed, steps, delay):
    """At every step of a bot-played table: the delayed view is the position `delay` events back
    (its seq, and the very view a live watcher was shown when the table stood there), no card
    hidden at that position, nothing of the present; the seats' views are the present."""
    n = next(EXAMPLES)
    user = get_user_model().objects.create_user(f"watch{n}", password="pw")
    club = Club.objects.create(name=f"W{n}", slug=f"w{n}")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    table = services.open_table(
        club=club, variant=variant, options=None, players=[f"P{i}" for i in range(PLAYERS[variant])], user=user
    )
    join_all(table)
    rng = random.Random(seed)
    live_at: dict[int, dict] = {}  # what a live watcher was shown at each seq seen
    for _ in range(steps):
        step(table, rng)
        game = game_of(table)
        set_delay(club, 0)
        live = selectors.watch_view(table)
        assert live["seq"] == game.seq
        live_at[game.seq] = _comparable(live)
        set_delay(club, delay)
        late = selectors.watch_view(table)
        if game.status != Game.Status.ACTIVE:
            assert late["seq"] == game.seq  # the game over: the whole of it (its replay opens)
            break
        shown = max(0, game.seq - delay)
        assert late["seq"] == shown and late["delay"] == delay
        assert late["clock"] is None and late["grand_tichu_wait"] == []
        if shown in live_at:
            assert _comparable(late) == live_at[shown]
        record = record_of(game)
        assert not shown_codes(late, universe(record)) & secret_cards(record, shown, set())
        for seat in table.seats.all():
            assert selectors.seat_view(seat)["seq"] == game.seq  # the seats see the present


def played_table(club, member, events: int) -> OnlineTable:
    """A Tichu table past its deal with at least `events` events stored."""
    table = open_four(club, member)
    join_all(table)
    rng = random.Random(7)
    while game_of(table).seq < events:
        assert step(table, rng)
    return table


def test_the_watch_poll_waits_for_the_event_that_moves_the_delayed_position(club, member):
    table = played_table(club, member, 30)
    set_delay(club, 10)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member)
    url = f"/clubs/{club.slug}/online/{table.pk}/watch/view/"
    first = client.get(url).json()
    now = game_of(table).seq
    assert first["seq"] == now - 10 and first["delay"] == 10
    # a poll from the position shown does not come back at once with the present: it waits
    started = time.monotonic()
    polled = client.get(f"{url}?after={first['seq']}&wait=0.6").json()
    assert time.monotonic() - started >= 0.5
    assert polled["seq"] == first["seq"] and game_of(table).seq == now
    # one more event at the table: the delayed position moves by one, no further
    assert step(table, random.Random(3))
    moved = client.get(f"{url}?after={first['seq']}&wait=5").json()
    assert moved["seq"] == game_of(table).seq - 10 > first["seq"]
    page = client.get(f"/clubs/{club.slug}/online/{table.pk}/watch/").content.decode()
    assert 'id="watch-delay"' in page and "10 events ago" in page


def test_a_delay_longer_than_the_game_so_far_shows_the_table_before_its_deal(club, member):
    table = played_table(club, member, 5)
    set_delay(club, 500)
    view = selectors.watch_view(table)
    assert view["seq"] == 0 and not any(view["state"].get("hands") or [[]])


def test_only_an_admin_sets_the_delay_and_only_to_a_sensible_number(club, member, make_user):
    with pytest.raises(WriteForbidden):
        watch_delay.set_delay_events(club=club, events=5, user=member)
    admin = make_user("boss")
    Membership.objects.create(club=club, user=admin, role=Membership.Role.ADMIN)
    for wrong in (-1, watch_delay.MAX_EVENTS + 1, True, "5", 2.5):
        with pytest.raises(InvalidInput):
            watch_delay.set_delay_events(club=club, events=wrong, user=admin)
    assert watch_delay.delay_events(club.pk) == 0 and not OnlineSettings.objects.exists()
    OnlineSettings.objects.create(club=club, turn_seconds=30)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(admin)
    assert client.post(f"/clubs/{club.slug}/online/watch-delay/", {"watch_delay_events": "8"}).status_code == 302
    row = OnlineSettings.objects.get()
    assert (row.watch_delay_events, row.turn_seconds) == (8, 30)  # the clock untouched
    page = client.get(f"/clubs/{club.slug}/online/").content.decode()
    assert 'id="delay-form"' in page and "8 events ago" in page
    refused = client.post(f"/clubs/{club.slug}/online/watch-delay/", {"watch_delay_events": "soon"}, follow=True)
    assert "a number of events" in refused.content.decode() and watch_delay.delay_events(club.pk) == 8
    viewer = Client(HTTP_ACCEPT_LANGUAGE="en")
    viewer.force_login(member)
    assert 'id="delay-form"' not in viewer.get(f"/clubs/{club.slug}/online/").content.decode()
    viewer.post(f"/clubs/{club.slug}/online/watch-delay/", {"watch_delay_events": "0"})
    assert watch_delay.delay_events(club.pk) == 8
