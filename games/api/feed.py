"""A club's feed (`GET /api/clubs/{club}/feed/?after=N`, long-pollable) and its webhooks (admins).

The feed is what a club's bot posts: games started and finished, rounds closed, tournaments
finished, ratings recomputed (games.clubs.feed). Anyone who may see the club reads it; what it says
follows the one visibility decision (a held duplicate table's game has no entry until its round
closes). Webhooks get the same entries, signed (games.clubs.webhooks; docs/api.md "A club's feed").
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.limits import uint_parameter
from games.api.permissions import require_admin
from games.api.requests import query_uint, validated
from games.api.schema import SIGNED_IN
from games.api.serializers import StrictSerializer
from games.api.views import ERRORS, ApiView, club_visible
from games.clubs import feed, webhook_services
from games.clubs.models import FeedEntry, Webhook

MAX_ENTRIES = 100


class FeedEntryOutput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="the entry's number in the club's feed (1, 2, ...)")
    kind = serializers.ChoiceField(choices=FeedEntry.Kind.choices)
    at = serializers.DateTimeField()
    game = serializers.IntegerField(allow_null=True, help_text="the game's id (game_*)")
    tournament = serializers.IntegerField(
        allow_null=True, help_text="the tournament's id (round_closed, tournament_finished)"
    )
    details = serializers.DictField(help_text="players, totals and winner of a game; a round's number; ...")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "a game finished",
            response_only=True,
            value={
                "club": 3,
                "after": 41,
                "last": 42,
                "more": False,
                "entries": [
                    {
                        "seq": 42,
                        "kind": "game_finished",
                        "at": "2026-12-07T21:14:03Z",
                        "game": 118,
                        "tournament": None,
                        "details": {
                            "variant": "nanking",
                            "players": ["Ada", "Ben", "Cy", "Dot"],
                            "status": "finished",
                            "totals": [1040, 560],
                            "winner": 0,
                            "hands": 9,
                        },
                    }
                ],
            },
        )
    ]
)
class FeedOutput(serializers.Serializer):
    club = serializers.IntegerField()
    after = serializers.IntegerField()
    last = serializers.IntegerField(help_text="the club's last entry now: follow with after=last")
    more = serializers.BooleanField(help_text="more entries follow: ask again with after = the last one given")
    entries = FeedEntryOutput(many=True)


class ClubFeedApi(ApiView):
    @extend_schema(
        parameters=[
            uint_parameter("after", "entries after this number (default 0: from the first)"),
            uint_parameter(
                "wait",
                "long poll: when no entry is after `after` yet, wait up to this many seconds (at most 25) for one",
            ),
        ],
        responses={200: FeedOutput, 400: ERRORS[400], 404: ERRORS[404]},
        summary="The club's feed: games started and finished, rounds closed, tournaments finished, ratings",
    )
    def get(self, request: Request, pk: str) -> Response:
        club = club_visible(request, pk)
        after = query_uint(request, "after", 0)
        wait = query_uint(request, "wait", 0)
        rows = feed.entries_after(club, after, limit=MAX_ENTRIES, wait=float(wait))
        last = feed.last_seq(club)
        return Response(
            {
                "club": club.pk,
                "after": after,
                "last": last,
                "more": bool(rows) and rows[-1].seq < last,
                "entries": feed.entries_json(rows),
            }
        )


class WebhookInput(StrictSerializer):
    url = serializers.URLField(max_length=500, help_text="where the entries are POSTed (https://...)")
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=FeedEntry.Kind.choices),
        required=False,
        default=list,
        help_text="the kinds it receives; empty or absent: every kind",
    )


class WebhookOutput(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    kinds = serializers.ListField(child=serializers.CharField())
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class WebhookCreatedOutput(WebhookOutput):
    secret = serializers.CharField(
        help_text="given once, now: it signs every delivery (X-Tichu-Signature: sha256=HMAC-SHA256 of the body)"
    )


class WebhookDeliveryOutput(serializers.Serializer):
    entry = serializers.IntegerField(source="entry.seq", help_text="the feed entry's number")
    kind = serializers.CharField(source="entry.kind")
    attempt = serializers.IntegerField()
    status_code = serializers.IntegerField(allow_null=True, help_text="the receiver's HTTP status, if it answered")
    error = serializers.CharField(help_text="why it failed, if it did not answer")
    delivered = serializers.BooleanField()
    at = serializers.DateTimeField(source="created_at")


def _webhook_json(hook: Webhook, *, with_secret: bool = False) -> dict:
    return (WebhookCreatedOutput if with_secret else WebhookOutput)(hook).data


class ClubWebhooksApi(ApiView):
    @extend_schema(
        responses={200: WebhookOutput(many=True), **ERRORS}, auth=SIGNED_IN, summary="The club's webhooks (admins)"
    )
    def get(self, request: Request, pk: str) -> Response:
        club = club_visible(request, pk)
        require_admin(request.user, club)
        return Response([_webhook_json(h) for h in Webhook.objects.filter(club=club)])

    @extend_schema(
        request=WebhookInput,
        responses={201: WebhookCreatedOutput, **ERRORS},
        summary="Register a webhook: the club's feed entries POSTed to a URL, signed (admins)",
    )
    def post(self, request: Request, pk: str) -> Response:
        club = club_visible(request, pk)
        require_admin(request.user, club)
        data = validated(WebhookInput, request)
        hook = webhook_services.webhook_create(club=club, actor=request.user, url=data["url"], kinds=data["kinds"])
        return Response(_webhook_json(hook, with_secret=True), status=status.HTTP_201_CREATED)


class ClubWebhookApi(ApiView):
    def _hook(self, request: Request, pk: str, webhook_id: int) -> Webhook:
        club = club_visible(request, pk)
        require_admin(request.user, club)
        return get_object_or_404(Webhook, club=club, pk=webhook_id)

    @extend_schema(
        responses={200: WebhookDeliveryOutput(many=True), **ERRORS},
        auth=SIGNED_IN,
        operation_id="clubs_webhooks_deliveries_list",
        summary="A webhook's delivery log, newest first (admins)",
    )
    def get(self, request: Request, pk: str, webhook_id: int) -> Response:
        hook = self._hook(request, pk, webhook_id)
        rows = hook.deliveries.select_related("entry")[:200]
        return Response(WebhookDeliveryOutput(rows, many=True).data)

    @extend_schema(request=None, responses={204: None, **ERRORS}, summary="Remove a webhook (admins)")
    def delete(self, request: Request, pk: str, webhook_id: int) -> Response:
        webhook_services.webhook_remove(hook=self._hook(request, pk, webhook_id), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
