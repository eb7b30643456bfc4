"""GET /api/games/{id}/legal/: what the engine accepts next, for the scorers' entry page.

Thin: the game as the user may see it (games.selectors), its state at the tip (games.store), then
the engine's own answers (`legal_actions`, `bombs_out_of_turn`, `state_json`) plus the few facts
of the deal and the exchange that an entry form needs (the cards left in the pile, how many cards
each seat still receives, who still pushes how many cards to whom), and the `penalty` events the
engine would accept now (`legal_actions` does not list them: a penalty is noticed at the table,
not played). No rule is decided here.

`?check=` takes a JSON event or list of events and answers whether the engine would accept them
now (applied to a copy of the state; nothing is stored): the score-sheet form asks it as it is
typed. Reading this needs the scorer or admin role of the game's club: it shows every hand.
"""
from __future__ import annotations

import json
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response

from games import engine, store
from games.api import serializers as s
from games.api.exceptions import ApiError
from games.api.views import ERRORS, GameView
from games.engine.cards import sort_cards
from games.models import Game, Membership

MAX_CHECK_EVENTS = 100


def _deal_facts(state: engine.GameState, actions: list[dict]) -> dict[str, Any] | None:
    """During the deal: the cards still in the pile, how many each seat still receives, and who
    draws next (the seat of the engine's legal draws)."""
    h = state.hand
    if state.phase != "deal" or h is None:
        return None
    pile = [card for card, count in h.pile.items() for _ in range(max(count, 0))]
    drawers = {a["seat"] for a in actions if a["type"] == "draw"}
    return {
        "pile": sort_cards(pile),
        "remaining": {str(seat): h.sizes[seat] - h.received[seat] for seat in h.order},
        "next_drawer": drawers.pop() if len(drawers) == 1 else None,
    }


def _push_facts(state: engine.GameState) -> dict[str, dict[str, int]] | None:
    """During the exchange: for each seat still to push, how many cards go to which seat."""
    h = state.hand
    if state.phase != "exchange" or h is None:
        return None
    return {
        str(seat): {str(target): k for target, k in state.variant.push_counts(h, seat).items()}
        for seat in h.order
        if seat not in h.pushes and state.variant.push_counts(h, seat)
    }


def check_events(state: Any, events: list[dict]) -> dict[str, Any]:
    """Would the engine accept `events` now? Applied to a copy; `state` is left as it was."""
    trial = state.copy()
    for i, event in enumerate(events):
        try:
            trial.apply(event)
        except engine.EngineError as err:
            return {"ok": False, "index": i, "error": err.as_dict()}
    return {"ok": True}


#: The breaches a `penalty` event may name that the entry page offers (record-format.md, event table).
PENALTY_REASONS = ("missed_wish",)


def penalties(state: Any) -> list[dict]:
    """The `penalty` events the engine would accept now, one per seat and reason: each is tried on
    a copy of the state (`check_events`), so the phase, the variant's wish and the seats are the
    engine's to decide. Empty between hands, in the deal and the exchange, and in variants without
    a wish (Grand Seigneur, Tien Zi Que)."""
    events = [{"type": "penalty", "seat": seat, "reason": reason}
              for seat in range(state.n) for reason in PENALTY_REASONS]
    return [e for e in events if check_events(state, [e])["ok"]]


def legal_view(game: Game, check: list[dict] | None = None) -> dict[str, Any]:
    """The answer of GET /api/games/{id}/legal/ for `game` at its current seq."""
    state = store.state_at(game, game.seq)
    family = isinstance(state, engine.GameState)
    if family:
        actions = engine.legal_actions(state, include_pushes=False)
        bombs = {str(seat): events for seat, events in engine.bombs_out_of_turn(state).items()}
        out_of_turn = [e for events in bombs.values() for e in events]
        in_turn = [a for a in actions if a not in out_of_turn]
    else:  # a game with rules of its own (Tien Zi Que) offers its own list
        in_turn, bombs = list(state.legal_actions()), {}
    state_doc = engine.state_json(state)
    body: dict[str, Any] = {
        "game": game.pk,
        "seq": game.seq,
        "status": game.status,
        "variant": game.variant,
        "phase": state_doc.get("phase"),
        "turn": state_doc.get("turn"),
        "actions": in_turn,
        "bombs_out_of_turn": bombs,
        "penalties": penalties(state),
        "deal": _deal_facts(state, in_turn) if family else None,
        "pushes": _push_facts(state) if family else None,
        "can_undo": game.seq > 0 and check_events(state, [{"type": "undo"}])["ok"],
        "state": state_doc,
    }
    if check is not None:
        body["check"] = check_events(state, check)
    return body


def _parse_check(raw: str | None) -> list[dict] | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        raise ApiError("check must be a JSON event or a JSON list of events", code="invalid") from None
    events = value if isinstance(value, list) else [value]
    if not events or len(events) > MAX_CHECK_EVENTS:
        raise ApiError(f"check holds 1 to {MAX_CHECK_EVENTS} events", code="invalid")
    if not all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in events):
        raise ApiError("each checked event is an object with a string 'type'", code="invalid")
    return events


class GameLegalApi(GameView):
    @extend_schema(
        parameters=[
            OpenApiParameter("check", str, description="a JSON event (or list): would the engine accept it now?"),
        ],
        responses={
            200: OpenApiTypes.OBJECT,
            400: ERRORS[400],
            403: OpenApiResponse(s.ErrorOutput, description="not a scorer or admin of the club"),
            404: ERRORS[404],
        },
        summary="The events the rules accept next, and the state (scorers, admins)",
    )
    def get(self, request: Request, pk: int) -> Response:
        game = self.game(request, pk)  # 404 unless the user may read the game
        if game.viewer_role not in Membership.WRITER_ROLES:
            raise exceptions.PermissionDenied(
                f"the legal actions show every hand: they need the scorer or admin role in club {game.club.slug!r}"
            )
        return Response(legal_view(game, _parse_check(request.query_params.get("check"))))
