"""Celery tasks of the records. The rating tasks live in games.ratings.tasks (under their old
names games.tasks.*, which queued messages and the beat schedule use).

Every task is idempotent, because delivery is at least once (docs/ratings.md, "Delivery").
"""

from django.db import InterfaceError, OperationalError

#: Database errors a task retries with backoff (the database may be restarting).
DATABASE_DOWN = (OperationalError, InterfaceError)

from games.import_tasks import import_bsw_chunk  # noqa: E402,F401  (registers the task with the worker)
