"""Drives Gatehouse's Supabase-compatible routes with Supabase's own Python auth client
(`supabase_auth`), as an app would, and prints what the client saw as one JSON object.

Usage: supabase_flow.py BASE_URL APIKEY GATEHOUSE_BINARY EMAIL

The emails are read from the local outbox with `gatehouse outbox --json --to ADDRESS` (the
environment names the store). SupabaseClientTests checks the printed values.
"""

import json
import subprocess
import sys
from urllib.parse import parse_qs, urlparse

from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError, AuthWeakPasswordError

base, apikey, gatehouse, email = sys.argv[1:5]
seen = {}


def client(key=apikey):
    return SyncGoTrueClient(
        url=f"{base}/auth/v1",
        headers={"apikey": key},
        auto_refresh_token=False,
        persist_session=False,
    )


def links(address, kind):
    """The tokens and redirects of the links of `kind` mailed to `address`, oldest first."""
    run = subprocess.run(
        [gatehouse, "outbox", "--json", "--to", address], check=True, capture_output=True, text=True
    )
    found = []
    for line in run.stdout.splitlines():
        query = parse_qs(urlparse(json.loads(line)["secret"]).query)
        if query.get("type") == [kind]:
            found.append({"token": query["token"][0], "redirect_to": query["redirect_to"][0]})
    return found


def refusal(call):
    """The error code (and status) a call was refused with; None when it succeeded."""
    try:
        call()
    except AuthWeakPasswordError as error:
        return {"code": error.code, "status": error.status, "reasons": sorted(error.reasons)}
    except AuthApiError as error:
        return {"code": error.code, "status": error.status, "message": error.message}
    return None


app = client()
password, changed, recovered = "correct horse battery", "a brand new passphrase", "recovered passphrase 42"

# Sign up: no session until the address is confirmed.
signed_up = app.sign_up(
    {"email": email, "password": password,
     "options": {"data": {"name": "Ada", "lang": "en"}, "email_redirect_to": f"{base}/welcome"}}
)
seen["signUp"] = {
    "hasSession": signed_up.session is not None, "email": signed_up.user.email,
    "confirmed": signed_up.user.email_confirmed_at is not None, "metadata": signed_up.user.user_metadata,
}
seen["weak"] = refusal(lambda: client().sign_up({"email": "weak@example.com", "password": "password1"}))
seen["unconfirmed"] = refusal(lambda: app.sign_in_with_password({"email": email, "password": password}))

# The confirmation link from the outbox, used as an app's deep link handler would.
confirmation = links(email, "signup")
seen["confirmationLinks"] = len(confirmation)
seen["confirmationRedirect"] = confirmation[0]["redirect_to"]
verified = app.verify_otp({"token_hash": confirmation[0]["token"], "type": "signup"})
seen["verified"] = {
    "hasSession": verified.session is not None, "confirmed": verified.user.email_confirmed_at is not None,
}
seen["replayedConfirmation"] = refusal(
    lambda: client().verify_otp({"token_hash": confirmation[0]["token"], "type": "signup"})
)

# Password sign-in, the user, a refresh, an update.
seen["wrongPassword"] = refusal(lambda: client().sign_in_with_password({"email": email, "password": "nope nope nope"}))
session = app.sign_in_with_password({"email": email, "password": password}).session
first_access, first_refresh = session.access_token, session.refresh_token
user = app.get_user().user
seen["user"] = {
    "id": user.id, "email": user.email, "aud": user.aud, "role": user.role, "metadata": user.user_metadata,
    "provider": user.app_metadata.get("provider"), "providers": user.app_metadata.get("providers"),
    "identities": [identity.provider for identity in user.identities or []],
    "lastSignIn": user.last_sign_in_at is not None, "tokenType": session.token_type,
    "expiresIn": session.expires_in,
}
refreshed = app.refresh_session().session
seen["refresh"] = {
    "newAccessToken": refreshed.access_token != first_access, "newRefreshToken": refreshed.refresh_token != first_refresh,
    "sameUser": refreshed.user.id == user.id,
}
# The rotated-out token, shown again after its successor was used: someone has a copy, and the
# session ends (Gatehouse's reuse detection, whichever API refreshes).
client().refresh_session(refreshed.refresh_token)
seen["reusedRefresh"] = refusal(lambda: client().refresh_session(first_refresh))
seen["afterReuse"] = refusal(lambda: client().get_user(refreshed.access_token))
# Reusing the old token ended that session: sign in again to go on.
app.sign_in_with_password({"email": email, "password": password})
updated = app.update_user({"password": changed, "data": {"lang": "ar"}}).user
seen["updated"] = updated.user_metadata
seen["oldPassword"] = refusal(lambda: client().sign_in_with_password({"email": email, "password": password}))
kept = app.get_session().access_token
app.sign_out()
seen["afterSignOut"] = refusal(lambda: client().get_user(kept))
seen["newPassword"] = client().sign_in_with_password({"email": email, "password": changed}).user.id == user.id

# Recovery: the link signs in; the app then sets a new password.
app.reset_password_for_email(email, {"redirect_to": f"{base}/reset"})
recovery = links(email, "recovery")
seen["recoveryRedirect"] = recovery[-1]["redirect_to"]
recovering = client()
seen["recovered"] = recovering.verify_otp({"token_hash": recovery[-1]["token"], "type": "recovery"}).user.id == user.id
recovering.update_user({"password": recovered})
seen["replayedRecovery"] = refusal(
    lambda: client().verify_otp({"token_hash": recovery[-1]["token"], "type": "recovery"})
)
seen["afterRecovery"] = client().sign_in_with_password({"email": email, "password": recovered}).user.id == user.id

# The six-digit code of a confirmation email, the form apps that ask for a code use.
other = "code." + email
client().sign_up({"email": other, "password": password})
mailed = subprocess.run(
    [gatehouse, "outbox", "--json", "--to", other], check=True, capture_output=True, text=True
).stdout.splitlines()
code = json.loads(mailed[-1])["text"].split("Or enter this code: ")[1][:6]
seen["wrongCode"] = refusal(
    lambda: client().verify_otp({"email": other, "token": "%06d" % ((int(code) + 1) % 1000000), "type": "email"})
)
by_code = client().verify_otp({"email": other, "token": code, "type": "email"})
seen["byCode"] = {"hasSession": by_code.session is not None, "email": by_code.user.email,
                  "confirmed": by_code.user.email_confirmed_at is not None}

# An unknown key is refused before anything else.
seen["unknownKey"] = refusal(
    lambda: client("gh_pk_AAAAAAAAAAAAAAAAAAAAAA_demo").sign_in_with_password({"email": email, "password": recovered})
)
print(json.dumps(seen))
