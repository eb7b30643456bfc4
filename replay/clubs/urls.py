"""Club pages: the clubs' list (the site's home), a club's page and its club life (included at ""
by tichu_site/urls.py, before replay), in the `clubs` namespace."""

from django.urls import path

from . import archive_views, views, webhook_views

app_name = "clubs"

urlpatterns = [
    path("new-club/", views.club_create, name="create"),  # not under clubs/: any slug stays free
    path("clubs/<slug:slug>/members/", views.members, name="members"),
    path("clubs/<slug:slug>/leave/", views.leave, name="leave"),
    path("clubs/<slug:slug>/players/", views.roster, name="players"),
    path("clubs/<slug:slug>/history/", views.history, name="history"),
    path("clubs/<slug:slug>/imports/", views.imports, name="imports"),
    path("clubs/<slug:slug>/export/", archive_views.club_export, name="export"),
    path("clubs/<slug:slug>/webhooks/", webhook_views.webhooks, name="webhooks"),
    path("clubs/<slug:slug>/webhooks/<int:webhook_id>/remove/", webhook_views.webhook_remove, name="webhook-remove"),
    path("import-club/", archive_views.club_import, name="import"),  # not under clubs/, as new-club/
    path("invitations/<str:token>/", views.invitation, name="invitation"),
    # last: `clubs/<slug>/` would take the fixed paths above
    path("", views.club_list, name="home"),
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
]
