"""Unknown query parameters are refused (400 `unknown_parameters`, naming them), as unknown body
fields are (games.api.serializers.StrictSerializer): a typo (`?player_nmae=`) must not answer the
unfiltered list as if it had been understood.

What a view accepts is what its OpenAPI operation declares, read from the same places the schema
is built from, so the schema and the check cannot disagree: the `parameters` of its
`@extend_schema` (query ones), its filterset's filters (django-filter), its paginator's (`page`,
`page_size`); plus DRF's `format` override. Worked out once per view class and method."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter

from games.api.exceptions import ApiError

_ALWAYS = frozenset({"format"})  # DRF's URL_FORMAT_OVERRIDE (?format=json)
_known: dict[tuple[type, str], frozenset[str]] = {}


def _declared(view) -> set[str]:
    handler = getattr(view, view.request.method.lower(), None)
    schema_class = getattr(handler, "kwargs", {}).get("schema")
    if schema_class is None:
        return set()
    schema = schema_class()
    schema.view, schema.method = view, view.request.method.upper()
    return {
        p.name
        for p in schema.get_override_parameters()
        if isinstance(p, OpenApiParameter) and p.location == OpenApiParameter.QUERY
    }


def _of_filters_and_pages(view) -> set[str]:
    names: set[str] = set()
    filterset_class = getattr(view, "filterset_class", None)
    if filterset_class is not None and view.request.method == "GET":
        names |= set(filterset_class.base_filters)
    paginator_class = getattr(view, "pagination_class", None)
    if paginator_class is not None and view.request.method == "GET":
        paginator = paginator_class()
        names |= {
            n
            for n in (getattr(paginator, "page_query_param", None), getattr(paginator, "page_size_query_param", None))
            if n
        }
    return names


def known_parameters(view) -> frozenset[str]:
    key = (type(view), view.request.method)
    if key not in _known:
        _known[key] = frozenset(_declared(view) | _of_filters_and_pages(view) | _ALWAYS)
    return _known[key]


def refuse_unknown(view) -> None:
    unknown = sorted(set(view.request.query_params) - known_parameters(view))
    if unknown:
        known = sorted(known_parameters(view) - _ALWAYS)
        raise ApiError(
            _("unknown query parameter(s): %(names)s (this operation takes: %(known)s)")
            % {"names": ", ".join(n[:40] for n in unknown[:10]), "known": ", ".join(known) or _("none")},
            code="unknown_parameters",
        )
