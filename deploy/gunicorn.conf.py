"""gunicorn's settings for the service (deploy/systemd/tichu-web.service passes --config).

Threads, not sync workers: every open replay or entry page of a game in play holds a request for
up to 25 s (the long poll, docs/api.md "Following a game"); 4 x 16 threads serve 64 such pages
and the ordinary requests beside them. Keep workers x threads under PostgreSQL's
max_connections (100) with room for the Celery worker and the owner."""

# Only the proxy on this machine talks to gunicorn. A second site on this machine: another port.
bind = "127.0.0.1:8000"
worker_class = "gthread"
workers = 4
threads = 16
# Above the 25 s long poll, below the proxy's 60 s read timeout.
timeout = 40
graceful_timeout = 30
keepalive = 5
# gunicorn 27's control socket: under the unit's RuntimeDirectory (/run/tichu-web), not in the
# user's ~/.gunicorn/, where two sites of one user would clash.
control_socket = "/run/tichu-web/gunicorn.ctl"
pidfile = "/run/tichu-web/gunicorn.pid"
# Both logs to stdout/stderr: journald keeps and rotates them (journalctl -u tichu-web).
accesslog = "-"
errorlog = "-"
# X-Forwarded-Proto is believed from the local proxy only (gunicorn's default, stated).
forwarded_allow_ips = "127.0.0.1,::1"
