"""Turns a throttled sign-in on a page (the site's, the admin's, DRF's browsable login) into a
429 page with Retry-After; the API's views answer it in JSON themselves (games.api.exceptions)."""

from __future__ import annotations

import math

from django.shortcuts import render

from .signin_throttle import SignInThrottled


class SignInThrottledMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, SignInThrottled):
            return None
        response = render(request, "accounts/throttled.html", {"message": str(exception.detail)}, status=429)
        if exception.wait is not None:
            response["Retry-After"] = str(math.ceil(exception.wait))
        return response
