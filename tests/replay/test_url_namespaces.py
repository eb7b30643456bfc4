"""The site's URL namespaces are named as the packages that hold their pages (issue 32, item 3):
`clubs:` is replay/clubs, `league:` replay/league, `tournaments:` replay/tournaments, ... and
`replay:` the replay's own pages (replay/urls.py), so a name says where its view lives."""

from __future__ import annotations

from django.urls import get_resolver, reverse

OTHERS = {"admin", "rest_framework"}  # Django's and DRF's own


def test_every_namespace_of_the_website_is_its_package():
    resolver = get_resolver()
    found = {}
    for namespace, (_prefix, sub) in resolver.namespace_dict.items():
        if namespace in OTHERS:
            continue
        module = sub.urlconf_name if isinstance(sub.urlconf_name, str) else sub.urlconf_module.__name__
        found[namespace] = module
    assert found, "the website has namespaces"
    for namespace, module in found.items():
        package = module.removesuffix(".urls")
        assert package.rsplit(".", 1)[-1] == namespace, (namespace, module)
    assert {"clubs", "league", "tournaments", "entry", "online", "accounts", "replay"} <= set(found)


def test_the_names_lead_to_their_pages():
    assert reverse("clubs:home") == "/"
    assert reverse("clubs:club-detail", args=["home"]) == "/clubs/home/"
    assert reverse("league:league", kwargs={"club_id": "home"}) == "/clubs/home/league/"
    assert reverse("tournaments:tournament", args=[3]) == "/tournaments/3/"
    assert reverse("entry:enter", args=[5]) == "/games/5/enter/"
    assert reverse("replay:game-replay", args=[5]) == "/games/5/replay/"
