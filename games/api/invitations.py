"""Invitations: the only way into a club (games.clubs.services). An admin makes a link with a
role; whoever accepts it, signed in, becomes a member with that role. No endpoint takes a
username, so none tells which usernames exist."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import serializers as s
from games.api.permissions import require_admin
from games.api.requests import validated
from games.api.schema import SIGNED_IN
from games.api.views import ERRORS, ApiView, club_visible
from games.clubs import services
from games.clubs.models import Invitation
from games.models import Player


class InvitationListCreateApi(ApiView):
    @extend_schema(
        responses={200: s.InvitationOutput(many=True), **ERRORS},
        auth=SIGNED_IN,
        summary="A club's invitations (admins)",
    )
    def get(self, request: Request, pk: str) -> Response:
        club = club_visible(request, pk)
        require_admin(request.user, club)
        rows = Invitation.objects.filter(club=club)[:200]
        return Response(s.InvitationOutput(rows, many=True, context={"request": request}).data)

    @extend_schema(
        request=s.InvitationInput,
        responses={201: s.InvitationOutput, **ERRORS},
        summary="Invite someone by a single-use link that expires (admins)",
    )
    def post(self, request: Request, pk: str) -> Response:
        club = club_visible(request, pk)
        require_admin(request.user, club)
        data = validated(s.InvitationInput, request)
        player = None
        if data["player"] is not None:
            player = get_object_or_404(Player, club=club, pk=data["player"])
        invitation = services.invitation_create(
            club=club, actor=request.user, role=data["role"], days=data.get("days"), note=data["note"], player=player
        )
        return Response(
            s.InvitationOutput(invitation, context={"request": request}).data, status=status.HTTP_201_CREATED
        )


class InvitationRevokeApi(ApiView):
    @extend_schema(responses={200: s.InvitationOutput, **ERRORS}, summary="Revoke a pending invitation (admins)")
    def delete(self, request: Request, pk: str, invitation_id: int) -> Response:
        club = club_visible(request, pk)
        require_admin(request.user, club)
        invitation = get_object_or_404(Invitation, club=club, pk=invitation_id)
        invitation = services.invitation_revoke(invitation=invitation, actor=request.user)
        return Response(s.InvitationOutput(invitation, context={"request": request}).data)


class InvitationAcceptApi(ApiView):
    @extend_schema(
        request=None,
        responses={201: s.MembershipOutput, **ERRORS},
        summary="Accept an invitation: you join its club with its role",
    )
    def post(self, request: Request, token: str) -> Response:
        membership = services.invitation_accept(token=token, user=request.user)
        return Response(s.MembershipOutput(membership).data, status=status.HTTP_201_CREATED)
