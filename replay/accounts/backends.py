"""The site's one authentication backend: Django's ModelBackend behind the sign-in throttle
(`replay.accounts.signin_throttle`), so that every sign-in path is throttled alike."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from . import signin_throttle


class ThrottledModelBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        signin_throttle.check(request, username)
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            signin_throttle.failed(request, username)
        else:
            signin_throttle.succeeded(request, username)
        return user
