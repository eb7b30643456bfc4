from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("games.urls")),
    # Session login for browsers using the API (the API itself also takes tokens).
    path("api-auth/", include("rest_framework.urls")),
    # --- accounts and club life (replay/accounts, replay/clubs) ---
    path("accounts/", include("replay.accounts.urls")),
    path("", include("replay.clubs.urls")),
    # --- end of accounts and club life ---
    path("", include("games.ratings.urls")),
    path("", include("replay.urls")),
]

# An unhandled error under /api/ is answered in JSON too (games/api/exceptions.py).
handler500 = "games.api.exceptions.server_error"
