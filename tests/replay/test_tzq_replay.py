"""Tien Zi Que in the replay (Django test client): its card faces, its events in words, what a
hidden game's frames hold, the totals in the panel; and the view of its table that the browser
tests (tests/browser/test_replay_tzq.py: the table is drawn by the page's script) compare with the
engine's ``state_json``."""

from __future__ import annotations

import functools

import pytest
from django.urls import reverse

from games import engine
from replay import frames

from .conftest import import_game
from .dom import parse

pytestmark = pytest.mark.django_db

DISCARD_SHOWN = 6

#: Run in the browser: the Tien Zi Que table read off the live DOM (same shape as tzq_engine_view).
TZQ_DOM_JS = """() => {
  const q = (sel, el) => Array.from((el || document).querySelectorAll(sel));
  const codes = (el) => q('.card', el).map(c => c.dataset.card);
  const seats = q('#table .seat').sort((a, b) => +a.dataset.seat - +b.dataset.seat);
  const players = q('#tzq .tzq-player').sort((a, b) => +a.dataset.seat - +b.dataset.seat);
  const d = document.querySelector('#tzq-discard');
  const dc = d.dataset.cards;
  return {
    at: +document.querySelector('#table').dataset.at,
    hands: seats.map(s => codes(s.querySelector('.hand'))),
    stock: +document.querySelector('#tzq-stock').dataset.count,
    stock_text: +document.querySelector('#tzq-stock .n').textContent,
    discard: dc ? dc.split(' ') : [],
    discard_count: +d.dataset.count,
    discard_top: codes(d.querySelector('.top')),
    piles: players.map(p => codes(p.querySelector('.pile'))),
    combinations: players.map(p => q('.combo', p).map(c => codes(c))),
    totals: players.map(p => +p.querySelector('.total').dataset.total),
  };
}"""


@functools.lru_cache(maxsize=None)
def tzq_record(seed: int = 3) -> dict:
    record = engine.random_game(seed, variant="tien-zi-que", players=["Ann", "Bob"])
    assert engine.fold(record).over
    return record


def tzq_engine_view(record: dict, n: int) -> dict:
    state = engine.state_json(engine.Replay(record).state_at(n))
    return {
        "at": n,
        "hands": [list(h) for h in state["hands"]],
        "stock": state["stock_size"],
        "stock_text": state["stock_size"],
        "discard": list(state["discard"]),
        "discard_count": len(state["discard"]),
        "discard_top": list(state["discard"][-DISCARD_SHOWN:]),
        "piles": [list(p) for p in state["score_piles"]],
        "combinations": [[list(c["cards"]) for c in cs] for cs in state["combinations"]],
        "totals": list(state["totals"]),
    }


@pytest.fixture
def tzq_game(public_club):
    return import_game(public_club, tzq_record())


def test_tzq_card_faces_name_the_card_and_the_payload_carries_every_face():
    record = tzq_record()
    face = frames.card_face
    assert face("C7r")["rank"] == "7" and face("C7r")["name"] == "7 of coins (red)"
    assert face("Ew")["rank"] == "E" and face("Ew")["name"] == "East (white)"
    assert face("Dr")["name"] == "Red Dragon (red)" and face("Jk")["rank"] == "TZQ"
    # every code the script may meet has a face in the embedded table
    table = {**frames.card_table(), **frames.build(record).payload()["cards"]}
    assert all(
        code in table for code in record["options"].get("deck") or engine.state_json(engine.fold(record))["deck"]
    )


def test_tzq_page_holds_the_scripts_mounts(client, tzq_game):
    """Tien Zi Que's table and the panel's totals are the script's (the browser test checks them
    against the engine): the server's page holds the table's mount and no total of its own."""
    record = tzq_record()
    url = reverse("replay:game-replay", args=[tzq_game.pk])
    root = parse(client.get(f"{url}?at={len(record['events'])}").content)
    assert "tzq-table" in root.by_id("table").classes  # the script draws Tien Zi Que's table there
    assert root.by_id("totals") is None and root.by_id("panel").find_all(cls="total") == []


def engine_card_name(code: str) -> str:
    from games.engine import card_name

    return card_name(code)


def test_tzq_events_in_words(client, tzq_game):
    record = tzq_record()
    data = frames.build(record)
    kinds = {e["type"] for e in record["events"]}
    assert {"round_start", "draw", "discard", "pung"} <= kinds
    for i, event in enumerate(record["events"], start=1):
        assert not data.texts[i].startswith(f"{event['type']} by"), data.texts[i]


def test_tzq_hidden_game_shows_the_table_but_no_hands(tzq_game):
    # a reader who holds no seat, everything secret (as under reveal_hands=after_game)
    table = engine.Sight(seats=frozenset(), secret_from=0, variant="tien-zi-que")
    data = frames.build(tzq_record(), table)
    for n in (1, 2, 20, data.length // 2):
        frame = data.frame_at(n)
        assert all(set(h) <= {frames.HIDDEN} for h in frame["hands"])
        assert frame.get("drawn") in (None, frames.HIDDEN)
        event = frame["e"] or {}
        # face-down cards (a deal, the stock): counted, not named
        dealt = [c for h in event.get("hands", []) for c in h] + list(event.get("stock", []))
        assert set(dealt) <= {frames.HIDDEN} and (event.get("type") != "round_start" or len(dealt) == 54)
        if event.get("type") == "draw":
            assert event.get("card", frames.HIDDEN) == frames.HIDDEN
        assert "stock_size" in frame and "discard" in frame  # the table stays open
