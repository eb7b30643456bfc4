"""The property of issue 34 item 7: at a bot-played online table, no seat's view (the JSON its page
shows and polls) ever contains a card the visibility rule hides from that seat. The hidden cards
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
from games.online import services
from games.online.models import OnlineTable
from tests.online.play import join_all, step
from tests.online.test_services import record_of
from tests.visibility.cards import secret_cards, shown_codes, universe

EXAMPLES = itertools.count()
PLAYERS = {"nanking": 4, "threechu": 3, "tientsin": 6, "grand-seigneur": 5}
PROPERTY = settings(max_examples=8, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.mark.django_db
@PROPERTY
@given(variant=st.sampled_from(sorted(PLAYERS)), seed=st.integers(0, 10_000), steps=st.integers(1, 80))
def test_no_seat_sees_a_card_hidden_from_it(variant, seed, steps):
    n = next(EXAMPLES)
    user = get_user_model().objects.create_user(f"opener{n}", password="pw")
    club = Club.objects.create(name=f"C{n}", slug=f"c{n}")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    table = services.open_table(club=club, variant=variant, options=None,
                                players=[f"P{i}" for i in range(PLAYERS[variant])], user=user)
    join_all(table)
    rng = random.Random(seed)
    leaks: list[str] = []

    def check(seat, view):
        game = Game.objects.get(pk=table.game_id)
        record = record_of(game)
        codes = universe(record)
        secret = secret_cards(record, game.seq, {seat.seat})
        pending = OnlineTable.objects.get(pk=table.pk).pending_deal
        secret |= {c for e in pending if e["seat"] != seat.seat for c in e["cards"]}
        shown = shown_codes(view, codes)
        if shown & secret:
            leaks.append(f"{variant} seed {seed} seq {game.seq} seat {seat.seat}: {sorted(shown & secret)}")

    for _ in range(steps):
        step(table, rng, on_view=check)
    assert leaks == []
