"""The page scripts' catalogue (/jsi18n/, tichu_site/jsi18n.py): what it costs a page to load it.

    .venv/bin/python bench/jsi18n.py [--rounds 200] [--json]

Through Django's test client (the whole middleware stack, no network), per language (fr, de, uk),
the best and median of --rounds requests of each kind:

- ``django``: Django's own JavaScriptCatalog view, as /jsi18n/ was before (built on every
  request): the baseline, measured in the same run;
- ``first``: this site's view on a cold process (its built catalogues forgotten before each);
- ``repeat``: the view once built (a browser without the catalogue, another page's visitor);
- ``revalidate``: a browser asking with the ETag it has (max-age over): a 304 without a body.

Figures are printed as microseconds and as ratios to ``django`` (the baseline), which is what
compares across machines. Within max-age the browser does not ask at all (nothing to measure).
Targets (``TARGETS``): a built catalogue (``repeat``) and a revalidation at most 0.5x Django's view
(every page after the first pays that, not Django's build), a cold ``first`` at most 1.5x (built
once a process); ``--check`` exits 1 when one is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from functools import partial
from pathlib import Path

#: each kind's ratio to Django's own view (best of the rounds) at most
TARGETS = {"first": 1.5, "repeat": 0.5, "revalidate": 0.5}
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def timed(fn, rounds: int, before=None) -> list[float]:
    out = []
    for _ in range(rounds):
        if before:
            before()
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1e6)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tichu_site.settings")
    import django

    django.setup()
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import path
    from django.views.i18n import JavaScriptCatalog

    from tichu_site import jsi18n, urls

    setup_test_environment()
    urls.urlpatterns.append(path("bench-plain-jsi18n/", JavaScriptCatalog.as_view()))
    client = Client()
    figures: dict[str, dict[str, dict[str, float]]] = {}
    for lang in ("fr", "de", "uk"):
        headers = {"HTTP_ACCEPT_LANGUAGE": lang}
        etag = client.get("/jsi18n/", **headers)["ETag"]
        assert client.get("/bench-plain-jsi18n/", **headers).status_code == 200
        plain = partial(client.get, "/bench-plain-jsi18n/", **headers)
        ours = partial(client.get, "/jsi18n/", **headers)
        runs = {
            "django": timed(plain, args.rounds),
            "first": timed(ours, args.rounds, before=jsi18n.forget),
            "repeat": timed(ours, args.rounds),
            "revalidate": timed(partial(ours, HTTP_IF_NONE_MATCH=etag), args.rounds),
        }
        base = min(runs["django"])
        figures[lang] = {k: {"best_us": round(min(v), 1), "median_us": round(statistics.median(v), 1),
                             "x_django": round(min(v) / base, 3)} for k, v in runs.items()}  # fmt: skip
    misses = [
        f"{lang} {kind} x{kinds[kind]['x_django']:.2f} > x{limit}"
        for lang, kinds in figures.items()
        for kind, limit in TARGETS.items()
        if kinds[kind]["x_django"] > limit
    ]
    if args.json:
        print(json.dumps({**figures, "targets": TARGETS, "misses": misses}, indent=2))
    else:
        print(f"/jsi18n/ per request, best (median) of {args.rounds}; ratio to Django's own view in this run")
        for lang, kinds in figures.items():
            print(
                f"  {lang}: "
                + "  ".join(
                    f"{k} {f['best_us']:.0f} µs ({f['median_us']:.0f}) x{f['x_django']:.2f}" for k, f in kinds.items()
                )
            )
        print(
            "targets: "
            + ", ".join(f"{k} <= x{v}" for k, v in TARGETS.items())
            + ("; MISSED: " + "; ".join(misses) if misses else "; all met")
        )
    return 1 if args.check and misses else 0


if __name__ == "__main__":
    sys.exit(main())
