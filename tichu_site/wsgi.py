import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tichu_site.settings")
django_application = get_wsgi_application()

from tichu_site.chunked import ChunkedBodies  # noqa: E402 (after Django is set up)

# A chunked request body is read whole under gunicorn, refused elsewhere, never read as empty.
application = ChunkedBodies(django_application)
