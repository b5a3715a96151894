"""Drives Gatehouse's admin API (`SupabaseAdmin`) with Supabase's own Python client's admin API
(`supabase_auth`'s `SyncGoTrueAdminAPI`, as `supabase.auth.admin` builds it with a secret key),
and prints what it saw as one JSON object.

Usage: supabase_admin.py BASE_URL PUBLISHABLE_KEY GATEHOUSE_BINARY SERVER_KEY REVOKED_KEY REMOVED_APP_KEY

SERVER_KEY is a live server key of the demo app, REVOKED_KEY one revoked since, REMOVED_APP_KEY a
key of an app removed since. SupabaseClientTests checks the printed values.
"""

import json
import sys

import httpx
from supabase_auth import SyncGoTrueAdminAPI

import supabase_support
from supabase_support import refusal

base, publishable, gatehouse, server_key, revoked_key, removed_app_key = sys.argv[1:7]
seen = {}


def admin(key, extra=None):
    """The admin API as supabase-py's `create_client(url, secret_key).auth.admin` sends it."""
    headers = {"apikey": key, "Authorization": f"Bearer {key}", **(extra or {})}
    return SyncGoTrueAdminAPI(url=f"{base}/auth/v1", headers=headers)


api = admin(server_key)
app = supabase_support.client(base, publishable)

# Created with a password and a confirmed address: it signs in at once.
made = api.create_user({
    "email": "made@example.com", "password": "correct horse battery", "email_confirm": True,
    "user_metadata": {"plan": "free"}, "app_metadata": {"role": "support"},
}).user
seen["created"] = {
    "email": made.email, "confirmed": made.email_confirmed_at is not None, "metadata": made.user_metadata,
    "role": made.app_metadata.get("role"), "provider": made.app_metadata.get("provider"),
}
session = app.sign_in_with_password({"email": "made@example.com", "password": "correct horse battery"}).session
seen["signsIn"] = session is not None
seen["duplicate"] = refusal(lambda: api.create_user({"email": "made@example.com", "password": "correct horse battery"}))
api.create_user({"email": "second@example.com", "email_confirm": True})

# Listed, newest first, in pages; read by id; changed.
listed = api.list_users(page=1, per_page=1)
seen["listed"] = [user.email for user in listed]
with httpx.Client() as web:
    page = web.get(f"{base}/auth/v1/admin/users?page=1&per_page=1",
                   headers={"apikey": server_key, "Authorization": f"Bearer {server_key}"})
    seen["total"] = page.headers.get("x-total-count")
    seen["link"] = page.headers.get("link")
seen["byId"] = api.get_user_by_id(made.id).user.email
updated = api.update_user_by_id(made.id, {"user_metadata": {"plan": "pro"}}).user
seen["updated"] = updated.user_metadata

# Banned: its live session's refresh and every sign-in are refused; lifted, it signs in again.
banned = api.update_user_by_id(made.id, {"ban_duration": "24h"}).user
seen["bannedUntil"] = banned.banned_until is not None
seen["refreshWhileBanned"] = refusal(lambda: app.refresh_session(session.refresh_token))
seen["signInWhileBanned"] = refusal(
    lambda: app.sign_in_with_password({"email": "made@example.com", "password": "correct horse battery"}))
seen["badDuration"] = refusal(lambda: api.update_user_by_id(made.id, {"ban_duration": "forever"}))
lifted = api.update_user_by_id(made.id, {"ban_duration": "none"}).user
seen["lifted"] = lifted.banned_until is None
seen["signInAfter"] = app.sign_in_with_password(
    {"email": "made@example.com", "password": "correct horse battery"}).session is not None

# Factors: none.
seen["factors"] = len(api.mfa.list_factors({"user_id": made.id}))

# Links generated, not mailed, that /verify takes: a magic link and a recovery link sign in.
magic = api.generate_link({"type": "magiclink", "email": "made@example.com"})
seen["magicLink"] = {
    "user": magic.user.email, "type": magic.properties.verification_type,
    "verifyLink": magic.properties.action_link.startswith(f"{base}/auth/v1/verify?token="),
    "mailed": len(supabase_support.outbox(gatehouse, "made@example.com")),
}
signed = app.verify_otp({"token_hash": magic.properties.hashed_token, "type": "magiclink"})
seen["magicSignsIn"] = signed.user.id == made.id
recovery = api.generate_link({"type": "recovery", "email": "made@example.com"})
seen["recoverySignsIn"] = app.verify_otp(
    {"token_hash": recovery.properties.hashed_token, "type": "recovery"}).user.id == made.id
seen["recoveryUnknown"] = refusal(lambda: api.generate_link({"type": "recovery", "email": "nobody@example.com"}))
seen["signupLink"] = refusal(lambda: api.generate_link({"type": "signup", "email": "x@example.com", "password": "correct horse battery"}))

# Invited: the user is made, unconfirmed; the mailed link confirms and signs in.
invited = api.invite_user_by_email("invited@example.com", {"data": {"team": "blue"}}).user
seen["invited"] = {"email": invited.email, "confirmed": invited.email_confirmed_at is not None, "metadata": invited.user_metadata}
mail = supabase_support.outbox(gatehouse, "invited@example.com")[-1]["secret"]
token = mail.split("token=")[1].split("&")[0]
accepted = app.verify_otp({"token_hash": token, "type": "invite"}).user
seen["inviteAccepted"] = {"sameId": accepted.id == invited.id, "confirmed": accepted.email_confirmed_at is not None}
seen["inviteAgain"] = refusal(lambda: api.invite_user_by_email("invited@example.com"))

# Deleted: a soft delete is refused by name; then it is gone.
seen["softDelete"] = refusal(lambda: api.delete_user(made.id, should_soft_delete=True))
api.delete_user(made.id)
seen["afterDelete"] = refusal(lambda: api.get_user_by_id(made.id))

# Refusals of the key.
seen["publishableKey"] = refusal(lambda: admin(publishable).list_users())
seen["unknownKey"] = refusal(lambda: admin("gh_sk_" + "A" * 43).list_users())
seen["revokedKey"] = refusal(lambda: admin(revoked_key).list_users())
seen["removedAppKey"] = refusal(lambda: admin(removed_app_key).list_users())
seen["fromBrowser"] = refusal(lambda: admin(server_key, {"Origin": "https://example.com"}).list_users())
print(json.dumps(seen))
