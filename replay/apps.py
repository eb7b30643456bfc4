from django.apps import AppConfig


class ReplayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "replay"

    def ready(self) -> None:
        # The project's own `check --deploy` checks (mail, trusted proxies, collected static files).
        from tichu_site import checks  # noqa: F401
