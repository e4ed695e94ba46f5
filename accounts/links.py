"""One-time password reset links, issued by the administrator (the site sends no e-mail).

The token is Django's (``default_token_generator``): it is made from the account's password
hash and last login, so it stops working once used (the password changed) and after
``PASSWORD_RESET_TIMEOUT`` (three days). The link is built from ``SITE_URL``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from events.errors import UserError
from events.links import absolute_url


def password_reset_link(*, username: str) -> str:
    """The absolute address at which ``username`` sets a new password. The account's failed
    logins are cleared too: the administrator has decided to let the person in."""
    from axes.utils import reset as axes_reset

    try:
        user = get_user_model().objects.get(username=username)
    except get_user_model().DoesNotExist as exc:
        raise UserError(f"there is no user called {username!r}") from exc
    if not user.is_active:
        raise UserError(f"the account {username!r} is inactive: activate it in the admin first")
    axes_reset(username=username)
    path = reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    return absolute_url(path)
