from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from replay.accounts import me as me_views
from tichu_site import health
from tichu_site.jsi18n import javascript_catalogue

urlpatterns = [
    path("admin/", admin.site.urls),
    # Browsers ask /favicon.ico of every site (pages name theirs in templates/base.html).
    path("favicon.ico", RedirectView.as_view(url=static("site/favicon.svg"), permanent=True)),
    # The language switcher posts to i18n/setlang/ (Django's set_language: a cookie, then back to
    # the page it came from); scripts read their strings from the JavaScript catalogue, built once
    # per language and kept by the browser (tichu_site/jsi18n.py).
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", javascript_catalogue, name="javascript-catalog"),
    # Readiness (the database, migrations, Redis, the worker's heartbeat); /api/ping/ is liveness.
    path("api/ready/", health.ready, name="ready"),
    # the league's API before the records' (games.urls ends with a catch-all JSON 404)
    path("api/", include("games.ratings.api.urls")),
    path("api/", include("games.urls")),
    # Session login for browsers using the API (the API itself also takes tokens).
    path("api-auth/", include("rest_framework.urls")),
    # --- accounts and club life (replay/accounts, replay/clubs) ---
    path("accounts/", include("replay.accounts.urls")),
    path("me/", me_views.me, name="me"),  # a player's home (replay/accounts/me.py)
    path("", include("replay.clubs.urls")),
    # --- end of accounts and club life ---
    path("", include("replay.online.urls")),  # the online tables (replay/online)
    path("", include("replay.league.urls")),
    path("", include("replay.entry.urls")),
    path("", include("replay.tournaments.urls")),
    path("", include("replay.urls")),
]

# Under /api/ every error is answered in JSON, also those raised outside the API's views
# (games/api/exceptions.py); elsewhere Django's own pages. CSRF failures: CSRF_FAILURE_VIEW.
handler400 = "games.api.exceptions.api_bad_request"
handler403 = "games.api.exceptions.api_forbidden"
handler404 = "games.api.exceptions.api_page_not_found"
handler500 = "games.api.exceptions.server_error"
