#!/bin/sh
# manage.py with the service's environment: /etc/tichu/tichu.env, and the owner's URL from
# /etc/tichu/owner.env when this user may read it (root: migrate, grant_app_role).
#   sudo /srv/tichu/app/deploy/manage.sh migrate
#   sudo -u tichu /srv/tichu/app/deploy/manage.sh sweep_rating_outbox
# TICHU_ENV_DIR, TICHU_APP and TICHU_VENV override the three places (docs/deploy.md).
set -eu
env_dir=${TICHU_ENV_DIR:-/etc/tichu}
app=${TICHU_APP:-/srv/tichu/app}
venv=${TICHU_VENV:-/srv/tichu/venv}
# Read as systemd's EnvironmentFile= reads them: NAME=value lines, the value taken literally (no
# shell: a '<' or a space in a value is kept), '#' lines and blank lines skipped.
load() {
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in '' | '#'*) continue ;; esac
    export "$line"
  done < "$1"
}
load "$env_dir/tichu.env"
if [ -r "$env_dir/owner.env" ]; then load "$env_dir/owner.env"; fi
cd "$app"
exec "$venv/bin/python" manage.py "$@"
