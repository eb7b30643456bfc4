from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """The ratings, an app of their own that imports the records (games) and is never imported by
    them: the records call the hooks of games/hooks.py, connected here. The models keep
    app_label "games" (their tables and migrations stay the records' app's: no data moved)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.ratings"
    label = "ratings"

    def ready(self) -> None:
        from . import receivers

        receivers.connect()
