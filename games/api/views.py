"""Thin API views: parse and check the shape of the input, call one service or selector, render.
Rules belong to the engine, storage to `games.services` / `games.selectors`."""

from __future__ import annotations

import json
import re

from django.db.models import prefetch_related_objects
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import live, selectors, services, visibility
from games.api import bodies, http_cache, query_params
from games.api import serializers as s
from games.api.exceptions import ApiError
from games.api.filters import GameFilter, PlayerFilter
from games.api.limits import IDEMPOTENCY_HEADER, uint_parameter
from games.api.permissions import ReadAnyoneWriteAuthenticated, require_admin, require_writer
from games.api.requests import idempotency_key, query_uint, validated, write_response
from games.api.schema import SIGNED_IN
from games.api.throttles import WriteThrottle
from games.clubs import services as club_services
from games.models import Club, Game, Membership

ERRORS = {
    400: OpenApiResponse(s.ErrorOutput, description="malformed JSON, unknown fields, wrong types, batch too large"),
    401: OpenApiResponse(s.ErrorOutput, description="no or bad credentials"),
    403: OpenApiResponse(s.ErrorOutput, description="not a scorer or admin of the club"),
    404: OpenApiResponse(s.ErrorOutput, description="no such object, or not visible to you"),
}
_CLUB_REF_RE = re.compile(r"^[-a-zA-Z0-9_]{1,100}$")


def club_visible(request: Request, ref: int | str) -> Club:
    """The club named by id or slug, if the user may see it (404 otherwise)."""
    return get_object_or_404(selectors.clubs_visible(request.user), selectors.club_q(ref))


def _club_for_write(request: Request, club_id: int | str) -> Club:
    club = club_visible(request, club_id)
    require_writer(request.user, club)
    return club


class ApiView(APIView):
    permission_classes = [ReadAnyoneWriteAuthenticated]
    throttle_classes = [WriteThrottle]

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)
        query_params.refuse_unknown(self)  # 400 unknown_parameters, as unknown body fields

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        http_cache.finish(request, response)  # Vary, RateLimit-*
        return response


class GameView(ApiView):
    def game(self, request: Request, pk: int) -> Game:
        """The game if the user may read it (404 otherwise). Appends check the writer's role in
        the service, under the game's row lock."""
        return selectors.game_get(request.user, pk)


def reader_of(sight) -> str:
    """What of the reader a game's body depends on, for its ETag: which cards they may see."""
    return "all" if sight.everything else json.dumps(sight.marker(), sort_keys=True)


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200


# --- trivial endpoint (the benchmark's yardstick) -------------------------------------------------


class PingApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="Liveness check (trivial endpoint)",
        examples=[OpenApiExample("alive", value={"ok": True}, response_only=True)],
    )
    def get(self, request: Request) -> Response:
        return Response({"ok": True})


# --- clubs, memberships, players -----------------------------------------------------------------


class ClubListCreateApi(ApiView, generics.GenericAPIView):
    pagination_class = Pagination
    serializer_class = s.ClubOutput
    filter_backends: list = []

    def get_queryset(self):
        return selectors.clubs_visible(self.request.user)

    @extend_schema(responses=s.ClubOutput(many=True), summary="Clubs you can see (public ones and yours)")
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(s.ClubOutput(page, many=True).data)

    @extend_schema(
        request=s.ClubCreateInput,
        responses={201: s.ClubOutput, **ERRORS},
        summary="Create a club (you become its admin)",
    )
    def post(self, request: Request) -> Response:
        club = club_services.club_create(**validated(s.ClubCreateInput, request), user=request.user)
        return Response(s.ClubOutput(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(ApiView):
    @extend_schema(responses={200: s.ClubOutput, 404: ERRORS[404]}, summary="A club, by id or slug")
    def get(self, request: Request, pk: str) -> Response:
        return Response(s.ClubOutput(club_visible(request, pk)).data)

    @extend_schema(
        request=s.ClubUpdateInput,
        responses={200: s.ClubOutput, **ERRORS},
        summary="Rename a club or change its visibility (admins)",
    )
    def patch(self, request: Request, pk: str) -> Response:
        club = club_visible(request, pk)
        require_admin(request.user, club)
        club = club_services.club_update(club=club, actor=request.user, **validated(s.ClubUpdateInput, request))
        return Response(s.ClubOutput(club).data)


class ClubMembersApi(ApiView):
    """The member list. Members join only by accepting an invitation (InvitationListCreateApi):
    nobody adds an existing account by its username, so no answer tells which usernames exist."""

    @extend_schema(
        responses={200: s.MembershipOutput(many=True), **ERRORS},
        auth=SIGNED_IN,
        summary="A club's members (members only)",
    )
    def get(self, request: Request, pk: str) -> Response:
        club = club_visible(request, pk)
        if selectors.membership_role(request.user, club) is None:
            raise ApiError(_("only members see a club's member list"), code="permission_denied", status_code=403)
        members = Membership.objects.filter(club=club).select_related("user").order_by("user__username")
        return Response(s.MembershipOutput(members, many=True).data)


class ClubMemberDetailApi(ApiView):
    """Role changes and removals go through games.clubs.services, which keeps an admin in the
    club under concurrency (row locks on the club's memberships) and audits the change."""

    def club(self, request: Request, pk: str) -> Club:
        club = club_visible(request, pk)
        if selectors.membership_role(request.user, club) is None:
            raise ApiError(_("this needs the admin role in the club"), code="permission_denied", status_code=403)
        return club

    @extend_schema(
        request=s.MembershipUpdateInput,
        responses={200: s.MembershipOutput, **ERRORS},
        summary="Change a member's role (admins); the last admin cannot step down",
    )
    def patch(self, request: Request, pk: str, user_id: int) -> Response:
        club = self.club(request, pk)
        data = validated(s.MembershipUpdateInput, request)
        membership = club_services.member_set_role(club=club, actor=request.user, user_id=user_id, role=data["role"])
        return Response(s.MembershipOutput(membership).data)

    @extend_schema(responses={204: None, **ERRORS}, summary="Remove a member (admins), or leave (yourself)")
    def delete(self, request: Request, pk: str, user_id: int) -> Response:
        club_services.member_remove(club=self.club(request, pk), actor=request.user, user_id=user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerListCreateApi(ApiView, generics.GenericAPIView):
    pagination_class = Pagination
    serializer_class = s.PlayerOutput
    filterset_class = PlayerFilter

    def get_queryset(self):
        return selectors.players_visible(self.request.user)

    @extend_schema(responses=s.PlayerOutput(many=True), summary="Players of the clubs you can see")
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(s.PlayerOutput(page, many=True).data)

    @extend_schema(
        request=s.PlayerInput,
        responses={201: s.PlayerOutput, **ERRORS},
        summary="Add a player to a club (scorers, admins)",
    )
    def post(self, request: Request) -> Response:
        data = validated(s.PlayerInput, request)
        player = services.player_create(club=_club_for_write(request, data["club"]), name=data["name"])
        return Response(s.PlayerOutput(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(ApiView):
    @extend_schema(responses={200: s.PlayerOutput, 404: ERRORS[404]})
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.PlayerOutput(get_object_or_404(selectors.players_visible(request.user), pk=pk)).data)

    @extend_schema(
        request=s.PlayerRenameInput,
        responses={200: s.PlayerOutput, **ERRORS},
        summary="Rename a player (club admins); their games follow, the club's history says so",
    )
    def patch(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(selectors.players_visible(request.user), pk=pk)
        data = validated(s.PlayerRenameInput, request)
        return Response(
            s.PlayerOutput(club_services.player_rename(player=player, actor=request.user, name=data["name"])).data
        )


class PlayerMergeApi(ApiView):
    @extend_schema(
        request=s.PlayerMergeInput,
        responses={200: s.PlayerOutput, **ERRORS},
        summary="Merge this player into another of the club (club admins): the games move, this player goes",
    )
    def post(self, request: Request, pk: int) -> Response:
        source = get_object_or_404(selectors.players_visible(request.user), pk=pk)
        data = validated(s.PlayerMergeInput, request)
        target = get_object_or_404(selectors.players_visible(request.user), pk=data["into"], club_id=source.club_id)
        return Response(
            s.PlayerOutput(club_services.player_merge(source=source, target=target, actor=request.user)).data
        )


# --- games ---------------------------------------------------------------------------------------


class GameListCreateApi(ApiView, generics.GenericAPIView):
    pagination_class = Pagination
    serializer_class = s.GameOutput
    filterset_class = GameFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema's generation reads the model only
            return Game.objects.none()
        return selectors.games_visible(self.request.user)

    @extend_schema(responses=s.GameOutput(many=True), summary="Games you can see, filtered and paginated")
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(s.GameOutput(page, many=True).data)

    @extend_schema(
        request=s.GameCreateInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: s.WriteOutput, 422: s.ErrorOutput, **ERRORS},
        summary="Create a game (scorers, admins); new player names join the club",
    )
    def post(self, request: Request) -> Response:
        data = validated(s.GameCreateInput, request)
        club = _club_for_write(request, data.pop("club"))
        return write_response(
            services.game_create(club=club, **data, user=request.user, idempotency_key=idempotency_key(request))
        )


class GameDetailApi(GameView):
    @extend_schema(responses={200: s.GameOutput, 404: ERRORS[404]})
    def get(self, request: Request, pk: int) -> Response:
        game = self.game(request, pk)
        prefetch_related_objects([game], "seats__player")
        return Response(s.GameOutput(game).data)


class GameEventsApi(GameView):
    @extend_schema(
        parameters=[
            uint_parameter("after", "only events with seq > after (default 0)"),
            uint_parameter("limit", "at most this many events (default 5000; a larger limit is taken as 5000)"),
            uint_parameter(
                "wait",
                "long poll: when no event has seq > after yet, wait up to this many seconds "
                "(at most 25) for one; answers as soon as one is stored (docs/api.md, 'Following a game')",
            ),
            http_cache.IF_NONE_MATCH,
        ],
        responses={200: bodies.GameEventsOutput, **http_cache.NOT_MODIFIED, 404: ERRORS[404]},
        summary="The game's events after seq N, in order (cards of a hand in play masked for other readers)",
    )
    def get(self, request: Request, pk: int) -> Response:
        game = self.game(request, pk)
        after = query_uint(request, "after", 0)
        limit = min(query_uint(request, "limit", 5000), 5000)
        wait = query_uint(request, "wait", 0)
        if wait and game.seq <= after and live.wait_for_seq(game.pk, after, wait) > after:
            game = self.game(request, pk)  # read again: its status decides what the reader sees
        events = list(selectors.game_events(game, after=after, limit=limit))
        sight = visibility.reader_sight(game, request.user)
        body = {
            "game": game.pk,
            "seq": game.seq,
            "status": game.status,  # a follower stops once the game is finished (static/shared/live.js)
            "after": after,
            "events": s.EventOutput(events, many=True, context={"sight": sight}).data,
            "more": bool(events) and events[-1].seq < game.seq,
        }
        if not sight.everything:
            body["redacted"] = sight.marker()
        return http_cache.conditional(request, body, reader_of(sight))

    @extend_schema(
        request=s.EventsAppendInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={
            201: s.WriteOutput,
            409: OpenApiResponse(s.ErrorOutput, description="expected_seq is stale; nothing stored"),
            422: OpenApiResponse(s.ErrorOutput, description="the rules refuse events[index]; nothing stored"),
            **ERRORS,
        },
        summary="Append a batch of events atomically (scorers, admins)",
    )
    def post(self, request: Request, pk: int) -> Response:
        # The service checks visibility and role with its read of the game (one query; under the
        # row lock, or again in its one statement: games.services.events).
        data = s.EventsAppendInput.quick(request.data) or validated(s.EventsAppendInput, request)
        result = services.append_events(
            game=pk, events=data["events"], expected_seq=data["expected_seq"],
            idempotency_key=idempotency_key(request), user=request.user,
        )  # fmt: skip
        return write_response(result)


class GameStateApi(GameView):
    @extend_schema(
        parameters=[uint_parameter("at", "state after the first N events (default: all)"), http_cache.IF_NONE_MATCH],
        responses={200: bodies.GameStateOutput, **http_cache.NOT_MODIFIED, 400: ERRORS[400], 404: ERRORS[404]},
        summary="The engine state after N events (a hand in play masked as docs/api.md 'What a reader sees' says)",
    )
    def get(self, request: Request, pk: int) -> Response:
        game = self.game(request, pk)
        at = query_uint(request, "at", game.seq)
        if at > game.seq:
            raise ApiError(
                _("at=%(at)s is past the game's last event (seq %(seq)s)") % {"at": at, "seq": game.seq},
                code="out_of_range",
            )
        sight = visibility.reader_sight(game, request.user)
        return http_cache.conditional(request, selectors.game_state_at(game, at, sight=sight), reader_of(sight))


class GameScoreApi(GameView):
    @extend_schema(
        parameters=[http_cache.IF_NONE_MATCH],
        responses={200: bodies.GameScoreOutput, **http_cache.NOT_MODIFIED, 404: ERRORS[404]},
        summary="The score sheet",
    )
    def get(self, request: Request, pk: int) -> Response:
        return http_cache.conditional(request, selectors.game_score(self.game(request, pk)), "")


class GameRecordApi(GameView):
    @extend_schema(
        parameters=[http_cache.IF_NONE_MATCH],
        responses={200: bodies.GameRecordOutput, **http_cache.NOT_MODIFIED, 404: ERRORS[404]},
        summary="Export the record (section 1; masked, with `redacted`, for readers who may not see a hand in play)",
    )
    def get(self, request: Request, pk: int) -> Response:
        game = self.game(request, pk)
        sight = visibility.reader_sight(game, request.user)
        return http_cache.conditional(request, selectors.game_record_seen(game, sight=sight), reader_of(sight))


def club_to_write_from_query(request: Request) -> Club:
    """The club named by `?club=ID` or `?club=SLUG`, if the user may record games in it (imports)."""
    ref = request.query_params.get("club")
    if ref is None:
        raise ApiError(_("the club query parameter is required (?club=ID or ?club=SLUG)"), code="invalid")
    if not _CLUB_REF_RE.match(ref):
        raise ApiError(_("query parameter “club” must be a club id or slug"), code="invalid")
    return _club_for_write(request, ref)


class GameImportApi(ApiView):
    @extend_schema(
        request=s.RecordImportInput,
        parameters=[
            OpenApiParameter("club", str, required=True, description="the club that gets the game (id or slug)"),
            IDEMPOTENCY_HEADER,
        ],
        responses={
            201: s.WriteOutput,
            200: OpenApiResponse(
                s.WriteOutput,
                description="already imported: the club holds this record "
                "(`already_imported` true, its game's id); nothing stored",
            ),
            422: s.ErrorOutput,
            **ERRORS,
        },
        summary="Import a record as a new game (scorers, admins)",
    )
    def post(self, request: Request) -> Response:
        club = club_to_write_from_query(request)
        return write_response(
            services.game_import(
                club=club, record=request.data, user=request.user, idempotency_key=idempotency_key(request)
            )
        )
