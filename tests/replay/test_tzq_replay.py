"""Tien Zi Que in the replay (server-rendered, Django test client): at several positions the table
shows the stock's size, the discard pile, each player's score pile, combinations and total as the
engine's ``state_json`` has them; the cards have Tien Zi Que faces with text alternatives."""

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


def tzq_dom_view(root) -> dict:
    table = root.by_id("table")
    seats = sorted(table.find_all(cls="seat"), key=lambda s: int(s.attrs["data-seat"]))
    players = sorted(root.by_id("tzq").find_all(cls="tzq-player"), key=lambda p: int(p.attrs["data-seat"]))
    discard = root.by_id("tzq-discard")
    stock = root.by_id("tzq-stock")
    return {
        "at": int(table.attrs["data-at"]),
        "hands": [s.find(cls="hand").cards() for s in seats],
        "stock": int(stock.attrs["data-count"]),
        "stock_text": int(stock.find(cls="n").text()),
        "discard": discard.attrs["data-cards"].split(),
        "discard_count": int(discard.attrs["data-count"]),
        "discard_top": discard.find(cls="top").cards(),
        "piles": [p.find(cls="pile").cards() for p in players],
        "combinations": [[c.cards() for c in p.find_all("li", cls="combo")] for p in players],
        "totals": [int(p.find(cls="total").attrs["data-total"]) for p in players],
    }


@pytest.fixture
def tzq_game(public_club):
    return import_game(public_club, tzq_record())


def test_tzq_table_at_several_positions_matches_the_engine(client, tzq_game):
    record = tzq_record()
    n_events = len(record["events"])
    url = reverse("replay:game-replay", args=[tzq_game.pk])
    seen_piles = seen_discard = False
    for n in (0, 1, 2, 3, 8, 20, 31, n_events // 2, n_events - 1, n_events):
        response = client.get(f"{url}?at={n}")
        assert response.status_code == 200
        root = parse(response.content)
        expected = tzq_engine_view(record, n)
        assert tzq_dom_view(root) == expected, n
        seen_piles |= any(expected["piles"])
        seen_discard |= bool(expected["discard"])
    assert seen_piles and seen_discard  # the positions are not all empty tables
    # the game's end: the totals in the panel too
    root = parse(client.get(f"{url}?at={n_events}").content)
    final = engine.state_json(engine.fold(record))
    assert [int(t.text()) for t in root.by_id("totals").find_all(cls="total")] == final["totals"]


def test_tzq_cards_have_faces_and_text_alternatives(client, tzq_game):
    record = tzq_record()
    url = reverse("replay:game-replay", args=[tzq_game.pk])
    root = parse(client.get(f"{url}?at=31").content)
    cards = [
        c for c in root.by_id("table").find_all(cls="card") if "data-card" in c.attrs and c.attrs["data-card"] != "?"
    ]
    assert cards
    for c in cards:
        code = c.attrs["data-card"]
        assert "unknown" not in c.classes and "tz" in c.classes
        assert c.attrs["aria-label"] == engine_card_name(code) and c.attrs["role"] == "img"
        assert c.find(cls="su").text().endswith(code[-1])  # the colour letter, not only the colour
    face = frames.card_face
    assert face("C7r")["rank"] == "7" and face("C7r")["name"] == "7 of coins (red)"
    assert face("Ew")["rank"] == "E" and face("Ew")["name"] == "East (white)"
    assert face("Dr")["name"] == "Red Dragon (red)" and face("Jk")["rank"] == "TZQ"
    # every code the script may meet has a face in the embedded table
    table = {**frames.card_table(), **frames.build(record).payload()["cards"]}
    assert all(
        code in table for code in record["options"].get("deck") or engine.state_json(engine.fold(record))["deck"]
    )


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


def test_tichu_page_has_no_tzq_table(client, bot_game):
    root = parse(client.get(reverse("replay:game-replay", args=[bot_game.pk]) + "?at=10").content)
    assert root.by_id("tzq") is None and root.by_id("trick") is not None


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_tzq_combinations_are_named_in_the_engines_words(client, tzq_game, lang):
    """A combination is named as the engine names it (``event:`` and ``tzq_combination:`` terms),
    the words the replay's script takes too: the server's markup once had words of its own for a
    triplet (French "brelan", where the engine and the script say "triplon")."""
    record = tzq_record()
    words = engine.words(lang)
    url = reverse("replay:game-replay", args=[tzq_game.pk])
    kinds = set()
    for n in (4, 20, len(record["events"])):
        root = parse(client.get(f"{url}?at={n}", HTTP_ACCEPT_LANGUAGE=lang).content)
        for combo in root.by_id("tzq").find_all("li", cls="combo"):
            action, kind = combo.attrs["data-action"], combo.attrs["data-kind"]
            said = f"{words.term(f'event:{action}')} · {words.term(f'tzq_combination:{kind}')}"
            assert combo.find(cls="kind").text() == said != f"{action} · {kind}"
            kinds.add(kind)
    assert kinds == {"triplet", "sequence"}
