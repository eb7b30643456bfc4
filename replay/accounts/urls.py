"""/accounts/: the site's own sign-in pages for every user (the admin keeps its own)."""

from django.contrib.auth import views as auth
from django.urls import path, reverse_lazy

from . import views

app_name = "accounts"

urlpatterns = [
    path("", views.home, name="home"),
    path("sign-in/", auth.LoginView.as_view(template_name="accounts/sign_in.html", redirect_authenticated_user=True,
                                            extra_context={"signup_open": views.signup_open}), name="sign-in"),
    path("sign-out/", auth.LogoutView.as_view(), name="sign-out"),
    path("sign-up/", views.sign_up, name="sign-up"),
    path("token/revoke/", views.token_revoke, name="token-revoke"),
    path("password/", auth.PasswordChangeView.as_view(
        template_name="accounts/password_change.html", success_url=reverse_lazy("accounts:password-changed")),
        name="password-change"),
    path("password/changed/", auth.PasswordChangeDoneView.as_view(template_name="accounts/password_changed.html"),
         name="password-changed"),
    path("password/reset/", auth.PasswordResetView.as_view(
        template_name="accounts/password_reset.html",
        email_template_name="accounts/password_reset_email.txt",
        subject_template_name="accounts/password_reset_subject.txt",
        success_url=reverse_lazy("accounts:password-reset-sent")), name="password-reset"),
    path("password/reset/sent/", auth.PasswordResetDoneView.as_view(template_name="accounts/password_reset_sent.html"),
         name="password-reset-sent"),
    path("password/reset/<uidb64>/<token>/", auth.PasswordResetConfirmView.as_view(
        template_name="accounts/password_reset_confirm.html",
        success_url=reverse_lazy("accounts:password-reset-done")), name="password-reset-confirm"),
    path("password/reset/done/", auth.PasswordResetCompleteView.as_view(
        template_name="accounts/password_reset_done.html"), name="password-reset-done"),
]  # fmt: skip
