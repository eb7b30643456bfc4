"""Claims: a member asks to be a roster player ("This is me"); the club's admins approve or
refuse; the member may withdraw while it waits (games.clubs.services, issue 30, finding 1).
The same calls as the club's Players page, audited alike."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors
from games.api.exceptions import ApiError
from games.api.requests import validated
from games.api.schema import SIGNED_IN
from games.api.serializers import StrictCharField, StrictIntegerField, StrictSerializer
from games.api.views import ERRORS, ApiView, club_visible
from games.clubs import services
from games.clubs.models import ClaimRequest
from games.models import Membership, Player

LIST_LIMIT = 200


class ClaimInput(StrictSerializer):
    player = StrictIntegerField(min_value=1, help_text="the roster player you are")


class ClaimDecisionInput(StrictSerializer):
    decision = StrictCharField(help_text="approve or refuse")

    def validate_decision(self, value: str) -> str:
        if value not in ("approve", "refuse"):
            raise serializers.ValidationError(_("decision is approve or refuse"))
        return value


class ClaimOutput(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    user = serializers.IntegerField(source="user_id")
    username = serializers.CharField(source="user.username")
    state = serializers.CharField(help_text="pending, approved, refused or withdrawn")
    source = serializers.CharField(help_text="member (asked) or invitation (made for the player)")
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


def _member_club(request: Request, pk: str):
    club = club_visible(request, pk)
    role = selectors.membership_role(request.user, club)
    if role is None:
        raise ApiError(_("this needs a role in the club"), code="permission_denied", status_code=403)
    return club, role


class ClaimListCreateApi(ApiView):
    @extend_schema(
        responses={200: ClaimOutput(many=True), **ERRORS},
        auth=SIGNED_IN,
        summary="Requests to be a roster player: every one (admins), your own (members)",
    )
    def get(self, request: Request, pk: str) -> Response:
        club, role = _member_club(request, pk)
        rows = ClaimRequest.objects.filter(club=club).select_related("player", "user")
        if role != Membership.Role.ADMIN:
            rows = rows.filter(user=request.user)
        return Response(ClaimOutput(rows[:LIST_LIMIT], many=True).data)

    @extend_schema(
        request=ClaimInput,
        responses={201: ClaimOutput, **ERRORS},
        summary='Ask to be a roster player of the club ("This is me"); an admin approves',
    )
    def post(self, request: Request, pk: str) -> Response:
        club, _role = _member_club(request, pk)
        data = validated(ClaimInput, request)
        player = get_object_or_404(Player, club=club, pk=data["player"])
        claim = services.claim_request(player=player, actor=request.user)
        return Response(ClaimOutput(claim).data, status=status.HTTP_201_CREATED)


class ClaimDetailApi(ApiView):
    def claim(self, request: Request, pk: str, claim_id: int) -> ClaimRequest:
        club, _role = _member_club(request, pk)
        return get_object_or_404(ClaimRequest.objects.select_related("player", "user"), club=club, pk=claim_id)

    @extend_schema(
        request=ClaimDecisionInput,
        responses={200: ClaimOutput, **ERRORS},
        operation_id="clubs_claims_decide",
        summary="Approve (the player is linked to the member) or refuse a request (admins); refused "
        "with player_in_open_game while the player sits in an open game",
    )
    def post(self, request: Request, pk: str, claim_id: int) -> Response:
        claim = self.claim(request, pk, claim_id)
        data = validated(ClaimDecisionInput, request)
        claim = services.claim_decide(claim=claim, actor=request.user, approve=data["decision"] == "approve")
        return Response(ClaimOutput(claim).data)

    @extend_schema(responses={200: ClaimOutput, **ERRORS}, summary="Withdraw your own waiting request")
    def delete(self, request: Request, pk: str, claim_id: int) -> Response:
        claim = services.claim_withdraw(claim=self.claim(request, pk, claim_id), actor=request.user)
        return Response(ClaimOutput(claim).data)
