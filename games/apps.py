from django.apps import AppConfig
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self):
        from games import db_roles

        # `migrate --database owner` re-grants the app role (docs/deploy.md).
        post_migrate.connect(db_roles.grant_after_migrate, sender=self, dispatch_uid="games.grant_app_role")
