"""The property of issue 34 item 7: at a bot-played online table, no seat's view (the JSON its page
shows and polls) ever contains a card the visibility rule hides from that seat, and a club member
watching the table (item 5) never sees a card of a hand in play; Tien Zi Que's tables too (the
other hand, the card it drew, the order of the stock). The hidden cards
are worked out from the stored record by tests/visibility/cards.py, not by the code under test,
plus the rest of a deal not given out yet (held by the table, in no record)."""

from __future__ import annotations

import itertools
import random

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Club, Game, Membership
from games.online import selectors, services
from games.online.models import OnlineTable
from tests.online.play import join_all, step
from tests.online.test_services import record_of
from tests.visibility.cards import secret_cards, shown_codes, universe

EXAMPLES = itertools.count()
PLAYERS = {"nanking": 4, "threechu": 3, "tientsin": 6, "grand-seigneur": 5, "tien-zi-que": 2}
PROPERTY = settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


@pytest.mark.django_db
@PROPERTY
@given(variant=st.sampled_from(sorted(PLAYERS)), seed=st.integers(0, 10_000), steps=st.integers(1, 80), data=st.data())
def test_no_seat_sees_a_card_hidden_from_it(variant, seed, steps, data):
    # some seats the engine's bot's (item 4): they act in the requests of the others
    bots = data.draw(st.sets(st.integers(0, PLAYERS[variant] - 1), max_size=PLAYERS[variant] - 1))
    assert play_and_look(variant, seed, steps, bots) == []


@pytest.mark.django_db
@settings(PROPERTY, max_examples=6)
@given(seed=st.integers(0, 10_000), steps=st.integers(20, 120), bot=st.sampled_from([None, 0, 1]))
def test_no_tien_zi_que_seat_sees_the_other_hand_its_draw_or_the_stock(seed, steps, bot):
    """Tien Zi Que's two seats, one of them the engine's bot's or not, on longer runs (a round
    takes more actions than a trick): draws, discards, claims and reshuffles."""
    assert play_and_look("tien-zi-que", seed, steps, set() if bot is None else {bot}) == []


def play_and_look(variant: str, seed: int, steps: int, bots: set[int]) -> list[str]:
    """The leaks seen while the table plays `steps` actions: every seat's view and a watcher's,
    each against the cards hidden from it."""
    n = next(EXAMPLES)
    user = get_user_model().objects.create_user(f"opener{n}", password="pw")
    club = Club.objects.create(name=f"C{n}", slug=f"c{n}")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    table = services.open_table(
        club=club,
        variant=variant,
        options=None,
        players=[f"P{i}" for i in range(PLAYERS[variant])],
        user=user,
        bots=bots,
    )
    join_all(table)
    rng = random.Random(seed)
    leaks: list[str] = []

    def check(seat, view):
        game = Game.objects.get(pk=table.game_id)
        record = record_of(game)
        codes = universe(record)
        pending = OnlineTable.objects.get(pk=table.pk).pending_deal
        seats = set() if seat is None else {seat.seat}
        secret = secret_cards(record, game.seq, seats)
        secret |= {c for e in pending if e["seat"] not in seats for c in e["cards"]}
        shown = shown_codes(view, codes)
        if shown & secret:
            leaks.append(f"{variant} seed {seed} seq {game.seq} seat {seats or 'watcher'}: {sorted(shown & secret)}")

    for _ in range(steps):
        step(table, rng, on_view=check)
        check(None, selectors.watch_view(table))
    return leaks
