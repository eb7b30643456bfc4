"""The property of issue 14: no channel ever shows a reader a card the rule hides.

A bot-played game of any variant, cut anywhere, imported in a public club; read by an anonymous
reader and by the player seated at one seat through every channel (the API's state at positions
of the hand in play, events, record; the replay page's table, its frames and their words). The
cards the rule hides are worked out from the full fold (tests/visibility/cards.py), not by the
code under test."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine, services
from games.models import Club, GameSeat
from replay.frames import card_name
from tests.visibility.cards import (
    AT_REST,
    PLAYERS,
    VARIANTS,
    bot_record,
    hand_start,
    secret_cards,
    shown_codes,
    universe,
)
from tests.visibility.channels import Reader

EXAMPLES = itertools.count()
PROPERTY = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


@pytest.mark.django_db
@PROPERTY
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 5_000),
    where=st.floats(0.02, 1),
    seated=st.booleans(),
    seat=st.integers(0, 11),
    probes=st.lists(st.floats(0, 1), max_size=4),
)
def test_no_channel_shows_a_card_the_rule_hides(variant, seed, where, seated, seat, probes):
    record = bot_record(seed, variant)
    cut = max(1, int(where * len(record["events"])))
    prefix = {**record, "events": record["events"][:cut]}
    club, _ = Club.objects.get_or_create(slug="open", defaults={"name": "Open", "visibility": Club.Visibility.PUBLIC})
    # a new game each example: the same content imported twice into a club is one game (issue 14, 15)
    game_id = services.game_import(club=club, record={**prefix, "meta": {"example": next(EXAMPLES)}}, user=None).body[
        "id"
    ]
    seat = seat % PLAYERS[variant]
    seats: set[int] = set()
    reader = Reader()
    if seated:
        user = get_user_model().objects.create_user(f"u{game_id}", password="pw")
        player = GameSeat.objects.get(game_id=game_id, seat=seat).player
        player.user = user
        player.save()
        seats, reader = {seat}, Reader(user)
    codes = universe(record)
    secret = secret_cards(record, cut, seats)
    in_play = engine.state_json(engine.fold(prefix))["phase"] not in AT_REST
    start = hand_start(prefix["events"]) if in_play else cut
    shown = shown_codes(reader.state(game_id), codes)
    for p in probes:  # positions of the hand in play
        shown |= (
            shown_codes(reader.state(game_id, start + 1 + int(p * (cut - start - 1))), codes) if cut > start else set()
        )
    shown |= shown_codes(reader.events(game_id, after=start)["events"], codes)
    shown |= shown_codes(reader.record(game_id)["events"][start:], codes)
    table, frames, texts = reader.replay(game_id)
    shown |= set(table) & codes
    shown |= shown_codes(frames[start + 1 :], codes)
    assert not shown & secret, f"{variant} seed {seed} cut {cut} seats {seats}: {sorted(shown & secret)}"
    words = " | ".join(texts[start + 1 :])
    assert not [c for c in secret if f" {card_name(c)}" in words], words
    # the reader's own hand is all there, and a scorer would see the hidden cards
    full = engine.state_json(engine.fold(prefix))
    mine = reader.state(game_id)
    for s in seats:
        assert mine["hands"][s] == full["hands"][s]
    assert secret <= {c for h in full["hands"] for c in h} | {
        c for e in prefix["events"][start:] for c in e.get("stock", [])
    } | shown_codes(full.get("pushes") or {}, codes)
