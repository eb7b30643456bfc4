"""What a Tien Zi Que state shows: the events the rules accept now (``legal_actions``) and the
JSON of ``python -m games.engine state`` and ``score`` (record-format.md section 4). Reads the
fold (:class:`~.state.TienZiQueState`), changes nothing."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..errors import EngineError
from .cards import NAME, is_joker, sort_cards
from .combos import combination_kind
from .table import ACTION, BETWEEN_ROUNDS, GAME_OVER, RESHUFFLE, Round

if TYPE_CHECKING:  # pragma: no cover - the state imports this module
    from .state import TienZiQueState


def legal_actions(state: TienZiQueState) -> list[dict[str, Any]]:
    """Every event the rules accept now.

    The choices of the player to act are listed in full. The events of chance (``round_start``,
    ``reshuffle``) accept any order of their cards: one representative each is listed, with the
    cards in the current order (none for the first round_start while the deck is not known).
    """
    phase = state.phase
    if phase == GAME_OVER:
        return []
    if phase == BETWEEN_ROUNDS:
        if state.deck is None:
            return []
        cards = sort_cards(state.deck.elements())
        seats = (
            [state.next_starter] if state.next_starter is not None else [s for s in (0, 1) if state._starts_left(s) > 0]
        )
        return [
            {"type": "round_start", "seat": s, "hands": [cards[:5], cards[5:10]], "stock": cards[10:]} for s in seats
        ]
    r = state.round
    assert r is not None
    seat = r.active
    hand = r.hands[seat]
    out: list[dict[str, Any]] = []
    if phase == RESHUFFLE:
        rest = list(r.discard)
        for c in r.last_discards:
            idx = len(rest) - 1 - rest[::-1].index(c)
            del rest[idx]
        return [{"type": "reshuffle", "seat": seat, "stock": rest}]
    if phase == ACTION:
        if r.stock:
            out.append({"type": "draw", "seat": seat})
        elif not state.options["exhausted_stock_draws"]:
            out.append({"type": "reshuffle", "seat": seat, "stock": list(r.discard)})
        seen: set[tuple] = set()
        for take in dict.fromkeys(r.chowable):
            if is_joker(take):
                continue
            for pair in combinations(hand, 2):
                if combination_kind([take, *pair]) is None:
                    continue
                cards = sort_cards([take, *pair])
                for keep in dict.fromkeys(cards):
                    key = (take, tuple(cards), keep)
                    if key in seen or not _mahjong_ok(state, r, seat, keep, "chow"):
                        continue
                    seen.add(key)
                    out.append({"type": "chow", "seat": seat, "take": take, "cards": cards, "keep": keep})
        return out
    # DRAWN
    for card in sort_cards(dict.fromkeys(hand)):
        out.append({"type": "discard", "seat": seat, "card": card})
    seen_p: set[tuple] = set()
    for triple in combinations(hand, 3):
        if combination_kind(list(triple)) is None:
            continue
        cards = sort_cards(triple)
        for keep in dict.fromkeys(cards):
            pung_key = (tuple(cards), keep)
            if pung_key in seen_p or not _mahjong_ok(state, r, seat, keep, "pung"):
                continue
            seen_p.add(pung_key)
            out.append({"type": "pung", "seat": seat, "cards": cards, "keep": keep})
    return out


def _mahjong_ok(state: TienZiQueState, r: Round, seat: int, keep: str, action: str) -> bool:
    try:
        state._check_mahjong(r, seat, keep, action)
    except EngineError:
        return False
    return True


# --- JSON ------------------------------------------------------------------------------------------


def _sheet(state: TienZiQueState) -> list[dict[str, Any]]:
    return [dict(line, points=list(line["points"])) for line in state.history]


def state_json(state: TienZiQueState) -> dict[str, Any]:
    """The JSON of ``python -m games.engine state`` for a Tien Zi Que record."""
    r = state.round
    out: dict[str, Any] = {
        "ok": True,
        "variant": NAME,
        "players": list(state.players),
        "options": dict(state.options),
        "events": state.events_applied,
        "phase": state.phase,
        "turn": state.turn,
        "round": len(state.history) + (1 if r else 0),
        "hand_number": len(state.history) + (1 if r else 0),  # the generic name (Replay marks)
        "next_starter": state.next_starter,
        "totals": list(state.totals),
        "score_sheet": _sheet(state),
        "complete": state.over,
        "winner": state.winner,
        "deck": sort_cards(state.deck.elements()) if state.deck is not None else None,
        # the Tichu keys of record-format.md section 4, empty in this game
        "trick": [],
        "wish": None,
        "calls": {},
        "out": [],
    }
    if r is None:
        out.update(
            starter=None,
            hands=[[], []],
            stock_size=0,
            discard=[],
            chowable=[],
            drawn=None,
            score_piles=[[], []],
            combinations=[[], []],
            reshuffles=0,
        )
        return out
    out.update(
        starter=r.starter,
        hands=[sort_cards(h) for h in r.hands],
        stock_size=len(r.stock),
        discard=list(r.discard),
        chowable=list(r.chowable),
        drawn=r.drawn_card,
        score_piles=[list(p) for p in r.piles],
        combinations=[[dict(c) for c in cs] for cs in r.combos],
        reshuffles=r.reshuffles,
    )
    return out


def score_json(state: TienZiQueState) -> dict[str, Any]:
    """The JSON of ``python -m games.engine score``: one line per finished round."""
    return {
        "ok": True,
        "variant": NAME,
        "hands": [
            {
                "points": list(line["points"]),
                "round": line["round"],
                "starter": line["starter"],
                "winner": line["winner"],
                "drawn": line["drawn"],
                "by": line["by"],
                "kind": line["kind"],
                "out": list(line["out"]),
                "calls": {},
                "score_pile": list(line["score_pile"]),
                "scoring": [dict(s) for s in line["scoring"]],
            }
            for line in state.history
        ],
        "totals": list(state.totals),
        "complete": state.over,
        "winner": state.winner,
    }
