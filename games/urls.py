"""Routes under /api/ (see docs/api.md). The last route answers unknown paths with a JSON 404."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from games.api import bsw, claims, club_archive, feed, invitations, legal, redoc, tokens, views
from games.api.exceptions import api_not_found

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI and ReDoc from drf-spectacular-sidecar's static files (no CDN); the split view
    # serves Swagger UI's start-up script as a file, as the Content-Security-Policy wants.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path(
        "redoc/", SpectacularRedocView.as_view(url_name="api-schema", template_name="api/redoc.html"), name="api-redoc"
    ),
    path("redoc/redoc.standalone.js", redoc.redoc_bundle, name="api-redoc-bundle"),
    path("auth/token/", tokens.auth_token, name="api-token"),  # POST: a token; DELETE: revoke yours
    path("ping/", views.PingApi.as_view(), name="api-ping"),
    path("clubs/", views.ClubListCreateApi.as_view(), name="club-list"),
    # before clubs/<slug:pk>/: "import" names this endpoint, never a club (games/clubs/archive.py)
    path("clubs/import/", club_archive.ClubImportApi.as_view(), {"pk": "import"}, name="club-import"),
    # A club is named by its id or its slug (<slug:pk> matches both; selectors.club_q tells them apart).
    path("clubs/<slug:pk>/", views.ClubDetailApi.as_view(), name="club-detail"),
    path("clubs/<slug:pk>/export/", club_archive.ClubExportApi.as_view(), name="club-export"),
    path("clubs/<slug:pk>/members/", views.ClubMembersApi.as_view(), name="club-members"),
    path("clubs/<slug:pk>/members/<int:user_id>/", views.ClubMemberDetailApi.as_view(), name="club-member-detail"),
    path("clubs/<slug:pk>/invitations/", invitations.InvitationListCreateApi.as_view(), name="club-invitations"),
    path(
        "clubs/<slug:pk>/invitations/<int:invitation_id>/",
        invitations.InvitationRevokeApi.as_view(),
        name="club-invitation-detail",
    ),
    path("clubs/<slug:pk>/feed/", feed.ClubFeedApi.as_view(), name="club-feed"),
    path("clubs/<slug:pk>/webhooks/", feed.ClubWebhooksApi.as_view(), name="club-webhooks"),
    path("clubs/<slug:pk>/webhooks/<int:webhook_id>/", feed.ClubWebhookApi.as_view(), name="club-webhook"),
    path("clubs/<slug:pk>/claims/", claims.ClaimListCreateApi.as_view(), name="club-claims"),
    path("clubs/<slug:pk>/claims/<int:claim_id>/", claims.ClaimDetailApi.as_view(), name="club-claim-detail"),
    path("invitations/<str:token>/accept/", invitations.InvitationAcceptApi.as_view(), name="invitation-accept"),
    path("players/", views.PlayerListCreateApi.as_view(), name="player-list"),
    path("players/<int:pk>/", views.PlayerDetailApi.as_view(), name="player-detail"),
    path("players/<int:pk>/merge/", views.PlayerMergeApi.as_view(), name="player-merge"),
    path("games/", views.GameListCreateApi.as_view(), name="game-list"),
    path("games/import/", views.GameImportApi.as_view(), name="game-import"),
    path("games/import-bsw/", bsw.GameImportBswApi.as_view(), name="game-import-bsw"),
    path("games/<int:pk>/", views.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:pk>/events/", views.GameEventsApi.as_view(), name="game-events"),
    path("games/<int:pk>/state/", views.GameStateApi.as_view(), name="game-state"),
    path("games/<int:pk>/score/", views.GameScoreApi.as_view(), name="game-score"),
    path("games/<int:pk>/record/", views.GameRecordApi.as_view(), name="game-record"),
    path("games/<int:pk>/legal/", legal.GameLegalApi.as_view(), name="game-legal"),
    path("", include("games.tournaments.api.urls")),
    re_path(r"^(?P<unmatched>[\s\S]*)\Z", api_not_found),  # [\s\S]: newlines (%0A) too
]
