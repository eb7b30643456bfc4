"""The Tichu family (Nanking, Threechu, Tientsin, Grand Seigneur) as games of the one interface
(game.py): one :class:`FamilyGame` per :class:`~.variants.Variant`, whose facts it declares from the
variant's own (seat counts, teams, the dummy, calls and wish, what a result line holds) and whose
states are :class:`~.state.GameState`. The fold's JSON (``state`` and ``score``), the entry page's
deal and exchange facts and the family's typed card words live here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .bot import random_record
from .cards import TICHU_DECK, card_points, rank_code, sort_cards
from .faces import CARD_WORDS
from .game import GameInfo, SheetFacts
from .hand import DEAL, EXCHANGE
from .legal import family_bombs_out_of_turn, family_legal_actions
from .options import PRESET_INFO, PRESETS
from .schema import FAMILY, Schema
from .state import GameState
from .variants import FAMILY_VARIANTS, Variant, get_variant


def players_text(counts: tuple[int, ...], dummy: bool) -> str:
    text = f"{counts[0]} players" if len(counts) == 1 else f"{min(counts)} to {max(counts)} players"
    return text + (" and a dummy" if dummy else "")


def _info(v: Variant) -> GameInfo:
    n = v.seat_counts[0]
    dummy = v.seat_count(["x"] * n) > n
    per_team = v.teams(n, 0) == v.teams(n, None) and len(v.seat_counts) == 1 and not dummy
    teams = v.teams(n, None) if per_team else None
    points = v.result_has_card_points
    target = next((o.default(PRESETS[0]) for o in v.options if o.name == "target_score"), None)
    names = {o.name for o in v.options}
    return GameInfo(
        name=v.name,
        label=v.label,
        players_text=players_text(v.seat_counts, dummy),
        seat_counts=v.seat_counts,
        teams=teams,
        team_size=len(teams[0]) if teams else 1,
        dummy_seat=n if dummy else None,
        fixed_seating=teams is not None,
        options=v.options,
        presets=PRESET_INFO,
        hand_starts=GameState._starts,
        hand_word="hand",
        has_calls=v.has_calls,
        has_wish=v.has_wish,
        sheet=SheetFacts(
            enabled=True, calls=v.has_calls, points=points, sweep=v.sweep_size if points else 0, dealer=dummy
        ),
        deck=TICHU_DECK,
        target=target,
        online=True,
        rank_scoring=v.rank_scoring,
        hand_spread=v.hand_spread,
        hands_option="hands" if "hands" in names else None,
        target_option="target_score" if "target_score" in names else None,
    )


class FamilyGame:
    """One game of the Tichu family: its variant's facts and the family's fold."""

    schema: Schema = FAMILY
    card_words: Mapping[str, str] = CARD_WORDS

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.info = _info(variant)

    def __repr__(self) -> str:
        return f"<FamilyGame {self.variant.name}>"

    def new_state(self, options: dict[str, Any] | None, players: list[str]) -> GameState:
        return GameState(self.variant, options, players)

    def seat_names(self, players: Sequence[str], lang: str | None = None) -> list[str]:
        return self.variant.seat_names(players, lang)

    def hands_seen(self, seat: int, shuffler: int | None) -> frozenset[int]:
        return self.variant.hands_seen(seat, shuffler)

    def random_record(
        self, seed: int, options: dict[str, Any] | None, players: list[str] | None, **kwargs: Any
    ) -> dict[str, Any]:
        return random_record(seed, self.variant.name, options, players, **kwargs)

    def state_json(self, state: GameState) -> dict[str, Any]:
        return state_json(state)

    def score_json(self, state: GameState) -> dict[str, Any]:
        return score_json(state)

    def legal_actions(self, state: GameState, include_pushes: bool = True) -> list[dict[str, Any]]:
        return family_legal_actions(state, include_pushes)

    def bombs_out_of_turn(self, state: GameState) -> dict[int, list[dict[str, Any]]]:
        return family_bombs_out_of_turn(state)

    def deal_facts(self, state: GameState, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        return deal_facts(state, actions)

    def push_facts(self, state: GameState) -> dict[str, dict[str, int]] | None:
        return push_facts(state)

    def entry_extra(self, state: GameState) -> dict[str, Any]:
        return {}

    def card_code(self, word: str) -> str | None:
        return CARD_WORDS.get(word.strip().lower())

    def own_card_face(self, code: str) -> dict[str, str] | None:
        return None  # the Tichu deck's faces are faces.py's own

    def own_card_term(self, code: str) -> tuple[str, dict[str, Any], str | None] | None:
        return None

    def terms(self) -> dict[str, str]:
        return {f"shuffler_rule:{self.variant.name}": self.variant.shuffler_rule}  # Variant.shuffler_rule

    def refusal_words(self) -> dict[str, str]:
        return {}  # the family's are the engine's first (family_refusals.py, wording.REFUSAL_WORDS)

    def sweep_of(self, out: list[int], team_of: list[int]) -> int | None:
        return self.variant.sweep_of(out, team_of)

    def finishing_order_points(self, out: list[int], seats: int) -> list[int] | None:
        return self.variant.rank_points(out, seats, {"scoring": "ranks"})


#: the family's games, in the order pages list them
FAMILY_GAMES: tuple[FamilyGame, ...] = tuple(FamilyGame(get_variant(name)) for name in FAMILY_VARIANTS)


# --- the fold's JSON ---------------------------------------------------------------------------


def _calls_json(calls: dict[int, str]) -> dict[str, str]:
    return {str(s): c for s, c in sorted(calls.items())}


def state_json(state: GameState) -> dict[str, Any]:
    """The JSON of ``python -m games.engine state``: everything a viewer needs at this moment."""
    h = state.hand
    out: dict[str, Any] = {
        "ok": True,
        "variant": state.variant.name,
        "players": state.players,
        "seat_names": state.variant.seat_names(state.players),
        "options": state.options,
        "events": state.events_applied,
        "phase": state.phase,
        "turn": state.turn,
        "hand_number": len(state.history) + (1 if h else 0),
        "totals": list(state.totals),
        "score_sheet": [dict(line) for line in state.history],
        "complete": state.over,
        "winner": state.winner,
        "next_shuffler": state.next_shuffler if h is None else None,
    }
    if h is None:
        out.update(
            hands=[[] for _ in range(state.n)],
            trick=[],
            trick_log=[],
            wish=None,
            calls={},
            out=[],
            teams=[list(t) for t in state.variant.teams(state.n, state.next_shuffler)],
        )
        return out
    top = h.trick[-1] if h.trick else None
    out.update(
        shuffler=h.shuffler,
        order=list(h.order),
        teams=[list(t) for t in h.teams],
        hands=[sort_cards(c) for c in h.cards],
        received=list(h.received),
        pushes={str(s): {str(t): list(c) for t, c in p.items()} for s, p in sorted(h.pushes.items())},
        trick=[_play_json(s, c) for s, c in h.trick],
        trick_log=h.trick_log(),
        trick_closed=h.closed,
        trick_winner=top[0] if top else None,
        wish=rank_code(h.wish) if h.wish is not None else None,
        calls=_calls_json(h.calls),
        out=list(h.out),
        gift_from=h.gift_from,
        tricks_won=[{"cards": len(c), "points": card_points(c)} for c in h.won],
        played=sorted(h.played),
    )
    return out


def _play_json(seat: int, combo: Any) -> dict[str, Any]:
    entry = {"seat": seat, "cards": list(combo.cards), "combination": combo.kind, "rank": combo.rank}
    if combo.phoenix is not None:
        entry["phoenix"] = rank_code(combo.phoenix)
    return entry


def score_json(state: GameState) -> dict[str, Any]:
    """The JSON of ``python -m games.engine score``: the score sheet of the finished hands."""
    return {
        "ok": True,
        "variant": state.variant.name,
        "hands": [
            {
                "points": list(line["points"]),
                "out": list(line["out"]),
                "calls": dict(line.get("calls", {})),
                "card_points": list(line["card_points"]),
                "kind": line["kind"],
            }
            for line in state.history
        ],
        "totals": list(state.totals),
        "complete": state.over,
        "winner": state.winner,
    }


# --- what the entry page shows in the deal and the exchange -----------------------------------


def deal_facts(state: GameState, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """During the deal: the cards still in the pile, how many each seat still receives, and who
    draws next (the seat of the legal draws)."""
    h = state.hand
    if state.phase != DEAL or h is None:
        return None
    pile = [card for card, count in h.pile.items() for _ in range(max(count, 0))]
    drawers = {a["seat"] for a in actions if a["type"] == "draw"}
    return {
        "pile": sort_cards(pile),
        "remaining": {str(seat): h.sizes[seat] - h.received[seat] for seat in h.order},
        "next_drawer": drawers.pop() if len(drawers) == 1 else None,
    }


def push_facts(state: GameState) -> dict[str, dict[str, int]] | None:
    """During the exchange: for each seat still to push, how many cards go to which seat."""
    h = state.hand
    if state.phase != EXCHANGE or h is None:
        return None
    return {
        str(seat): {str(target): k for target, k in state.variant.push_counts(h, seat).items()}
        for seat in h.order
        if seat not in h.pushes and state.variant.push_counts(h, seat)
    }
