"""Create the PostgreSQL database named in DATABASE_URL if it does not exist (used by make).

pytest-django creates and drops its own test_<name> database; this makes sure the named one is
there too (for `make run` against PostgreSQL, and for the maintainers' own psql sessions).
"""
import os
import sys
from urllib.parse import unquote, urlsplit

import psycopg
from psycopg import sql

url = os.environ["DATABASE_URL"]
name = unquote(urlsplit(url).path.lstrip("/"))
conninfo = psycopg.conninfo.make_conninfo(url, dbname="postgres")
try:
    with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            print(f"PostgreSQL database {name!r} exists")
        else:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"PostgreSQL database {name!r} created")
except psycopg.OperationalError as exc:
    sys.exit(f"cannot reach PostgreSQL at {url}: {exc}\n(start it; see README.md, 'Configuration: PostgreSQL, Redis')")
