"""GET /api/games/{id}/legal/: what the engine accepts next, for the scorers' entry page.

Thin: the game as the user may see it (games.selectors), its state at the tip (games.snapshots), then
the engine's own answer (`engine.entry_facts`: the legal events, the bombs out of turn, the
penalties that could be called, the facts of the deal and the exchange, the state). No rule is
decided here.

`?check=` takes a JSON event or list of events and answers whether the engine would accept them
now (applied to a copy of the state; nothing is stored): the score-sheet form asks it as it is
typed. Reading this needs the scorer or admin role of the game's club: it shows every hand, but
to a duplicate table's code (a scorer without a seat), which reads it without the hands.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response

from games import engine, snapshots, visibility
from games.api import serializers as s
from games.api.bodies import LegalOutput
from games.api.exceptions import ApiError
from games.api.schema import SIGNED_IN_OR_TABLE_CODE
from games.api.views import ERRORS, GameView
from games.models import Game, Membership

MAX_CHECK_EVENTS = 100


def _check(state: Any, events: list[dict], variant: str) -> dict[str, Any]:
    """Would an append of `events` be accepted now: the checks of an append (fields and sizes, as
    stored: engine.check_incoming), then the rules on a copy of the state."""
    try:
        engine.check_incoming(variant, events)
    except engine.EngineError as err:
        return {"ok": False, "index": err.index, "error": err.as_dict()}
    return engine.check_events(state, events)


def _seatless(facts: dict[str, Any], sight: engine.Sight, at: int) -> dict[str, Any]:
    """The facts a scorer without a seat may read (a duplicate table's code: games.visibility):
    none that names or betrays a card of a hand in play. The plays and bombs (the hand's cards),
    the penalties (a missed wish tells who held the card), the deal's pile go; the state is masked
    as on every other channel. What remains (the phase, the turn, the calls and passes, the
    exchange's counts, undo) lets the table enter its board, its cards typed from the table."""
    return {
        "actions": [a for a in facts["actions"] if "cards" not in a and "card" not in a],
        "bombs_out_of_turn": {},
        "penalties": [],
        "deal": None,
        "state": engine.redact_state(facts["state"], sight, at),
        "redacted": sight.marker(),
    }


def legal_view(
    game: Game, check: list[dict] | None = None, *, sight: engine.Sight = engine.EVERYTHING
) -> dict[str, Any]:
    """The answer of GET /api/games/{id}/legal/ for `game` at its current seq, as a scorer with
    `sight` (games.visibility.reader_sight) may read it."""
    state = snapshots.state_at(game, game.seq)
    facts = engine.entry_facts(state)
    if not sight.everything:
        facts = {**facts, **_seatless(facts, sight, game.seq)}
    body: dict[str, Any] = {
        "game": game.pk,
        "seq": game.seq,
        "status": game.status,
        "variant": game.variant,
        **facts,
    }
    if check is not None:
        body["check"] = _check(state, [engine.canonical_event(e, game.variant) for e in check], game.variant)
    return body


def _parse_check(raw: str | None) -> list[dict] | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        raise ApiError(_("check must be a JSON event or a JSON list of events"), code="invalid") from None
    events = value if isinstance(value, list) else [value]
    if not events or len(events) > MAX_CHECK_EVENTS:
        raise ApiError(_("check holds 1 to %(n)s events") % {"n": MAX_CHECK_EVENTS}, code="invalid")
    if not all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in events):
        raise ApiError(_("each checked event is an object with a string “type”"), code="invalid")
    return events


class GameLegalApi(GameView):
    @extend_schema(
        parameters=[
            OpenApiParameter("check", str, description="a JSON event (or list): would the engine accept it now?"),
        ],
        responses={
            200: LegalOutput,
            400: ERRORS[400],
            403: OpenApiResponse(s.ErrorOutput, description="not a scorer or admin of the club"),
            404: ERRORS[404],
        },
        summary="The events the rules accept next, and the state (scorers, admins)",
        auth=SIGNED_IN_OR_TABLE_CODE,
    )
    def get(self, request: Request, pk: int) -> Response:
        game = self.game(request, pk)  # 404 unless the user may read the game
        if game.viewer_role not in Membership.WRITER_ROLES:
            raise exceptions.PermissionDenied(
                _("the legal actions show every hand: they need the scorer or admin role in club “%(club)s”")
                % {"club": game.club.slug}
            )
        sight = visibility.reader_sight(game, request.user)  # a duplicate table's code sees no hand
        check = _parse_check(request.query_params.get("check"))
        if check is not None and not sight.everything and any("cards" in e or "card" in e for e in check):
            # whether the engine accepts a card tells who holds it: not asked without a trace
            raise exceptions.PermissionDenied(
                _("a scorer who does not see the hands cannot check events that name cards")
            )
        return Response(legal_view(game, check, sight=sight))
