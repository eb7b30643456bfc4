"""A replay of every game of the books in headless Chromium: the table has the variant's seats
(3 players and a dummy, 6, up to 12), and at several positions the hands, trick, totals and score
sheet shown equal the engine's state."""

from __future__ import annotations

import random

import pytest

from games import engine
from tests.replay.conftest import import_game
from tests.replay.expect import DOM_VIEW_JS, engine_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# short finished games: a finished game shows every hand to everyone
TABLES = [
    ("threechu", ["Ann", "Bob", "Cid"], {"hands": 3}, 4),
    ("tientsin", ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"], {"target_score": 300}, 6),
    ("grand-seigneur", [f"P{i}" for i in range(12)], {"scoring": "ranks", "hands": 2}, 12),
    ("grand-seigneur", [f"P{i}" for i in range(5)], {"preset": "abacus", "hands": 2}, 5),
]


@pytest.mark.parametrize("variant, players, options, seats", TABLES, ids=[f"{t[0]}-{t[3]}" for t in TABLES])
def test_replay_of_each_variant_matches_the_engine(page, live_server, variant, players, options, seats):
    from games.models import Club

    club = Club.objects.create(name="Variants", slug="variants", visibility="public")
    record = engine.random_game(3, variant=variant, players=players, options=options)
    assert engine.fold(record).over
    game = import_game(club, record)
    n_events = len(record["events"])
    rng = random.Random(variant)
    positions = sorted(rng.sample(range(1, n_events + 1), 4))
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at={positions[0]}")
    page.wait_for_selector("#replay[data-ready='1']")
    assert page.locator("#table .seat").count() == seats
    assert page.evaluate(DOM_VIEW_JS) == engine_view(record, positions[0])
    for n in positions[1:]:  # deep links
        page.goto(f"{live_server.url}/games/{game.pk}/replay/?at={n}")
        page.wait_for_selector("#replay[data-ready='1']")
        assert page.evaluate(DOM_VIEW_JS) == engine_view(record, n)
    page.keyboard.press("ArrowLeft")  # and a step with the keyboard
    assert page.evaluate(DOM_VIEW_JS) == engine_view(record, positions[-1] - 1)
    page.keyboard.press("End")
    assert page.evaluate(DOM_VIEW_JS) == engine_view(record, n_events)
    page.screenshot(path=f".ci/out/replay-{variant}-{seats}.png")
