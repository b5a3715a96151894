"""Drives Gatehouse's Supabase-compatible routes with Supabase's own Python auth client
(`supabase_auth`), as an app would, and prints what the client saw as one JSON object.

Usage: supabase_flow.py BASE_URL APIKEY GATEHOUSE_BINARY EMAIL

The emails are read from the local outbox with `gatehouse outbox --json --to ADDRESS` (the
environment names the store). SupabaseClientTests checks the printed values.
"""

import json
import subprocess
import sys
import time
from urllib.parse import parse_qs, urlparse

from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError, AuthWeakPasswordError

import supabase_support

base, apikey, gatehouse, email = sys.argv[1:5]
seen = {}


def client(key=apikey):
    return SyncGoTrueClient(
        url=f"{base}/auth/v1",
        headers={"apikey": key},
        auto_refresh_token=False,
        persist_session=False,
    )


def mails(address):
    """The messages mailed to `address`, oldest first."""
    run = subprocess.run(
        [gatehouse, "outbox", "--json", "--to", address], check=True, capture_output=True, text=True
    )
    return [json.loads(line) for line in run.stdout.splitlines()]


def links(address, kind, at_least=1):
    """The tokens and redirects of the links of `kind` mailed to `address`, oldest first. Some
    emails go out just after the answer (a recovery's, so that its timing tells nothing): this
    waits up to 10 s for `at_least` of them."""
    deadline = time.monotonic() + 10
    while True:
        found = []
        for mail in mails(address):
            query = parse_qs(urlparse(mail["secret"]).query)
            if query.get("type") == [kind]:
                found.append({"token": query["token"][0], "redirect_to": query["redirect_to"][0]})
        if len(found) >= at_least or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


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
# The link proves the mailbox, not who signed up: the sign-up's password is gone, and the owner
# sets one from the session the link started.
seen["passwordBeforeSet"] = refusal(lambda: client().sign_in_with_password({"email": email, "password": password}))
app.update_user({"password": password})

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
seen["recoveryLinks"] = len(recovery)
seen["recoveryRedirect"] = recovery[-1]["redirect_to"]
recovering = client()
seen["recovered"] = recovering.verify_otp({"token_hash": recovery[-1]["token"], "type": "recovery"}).user.id == user.id
recovering.update_user({"password": recovered})
seen["replayedRecovery"] = refusal(
    lambda: client().verify_otp({"token_hash": recovery[-1]["token"], "type": "recovery"})
)
by_password = client().sign_in_with_password({"email": email, "password": recovered})
seen["afterRecovery"] = by_password.user.id == user.id
seen["passwordAmr"] = supabase_support.amr(by_password.session.access_token)

# A new address: both the old and the new address confirm, and neither link signs in.
new_email = "new." + email
mover = client()
mover.sign_in_with_password({"email": email, "password": recovered})
seen["changeAnswer"] = mover.update_user({"email": new_email}).user.email
# /resend email_change (by the current address): each side is mailed a new link for the same
# change, and the new links complete it; an address with no change waiting gets the same answer.
before = [len(links(new_email, "email_change")), len(links(email, "email_change"))]
seen["resendChange"] = [
    client().resend({"type": "email_change", "email": address}).message_id for address in [email, "no.one@example.com"]]
seen["resentLinks"] = [
    len(links(new_email, "email_change", before[0] + 1)) - before[0],
    len(links(email, "email_change", before[1] + 1)) - before[1]]
half = client().verify_otp({"token_hash": links(new_email, "email_change")[-1]["token"], "type": "email_change"})
seen["changeHalf"] = {"hasSession": half.session is not None, "email": mover.get_user().user.email}
done = client().verify_otp({"token_hash": links(email, "email_change")[-1]["token"], "type": "email_change"})
seen["changeDone"] = {"hasSession": done.session is not None, "email": done.user.email if done.user else None}
seen["oldAddressTold"] = any("is now " + new_email in mail["text"] for mail in mails(email))
seen["signInAtNewAddress"] = client().sign_in_with_password({"email": new_email, "password": recovered}).user.id == user.id

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
# Typed where sign-in codes go (type "email"), a sign-up's code may be someone else's: the
# password goes. Typed on the sign-up's screen (type "signup"), it stays, as Supabase keeps it.
seen["byCodePassword"] = refusal(lambda: client().sign_in_with_password({"email": other, "password": password}))
kept = "kept." + email
client().sign_up({"email": kept, "password": password})
kept_code = supabase_support.outbox(gatehouse, kept)[-1]["text"].split("Or enter this code: ")[1][:6]
confirmed = client().verify_otp({"email": kept, "token": kept_code, "type": "signup"})
seen["signUpCodePassword"] = client().sign_in_with_password(
    {"email": kept, "password": password}).user.id == confirmed.user.id

# An unknown key is refused before anything else.
seen["unknownKey"] = refusal(
    lambda: client("gh_pk_AAAAAAAAAAAAAAAAAAAAAA_demo").sign_in_with_password({"email": email, "password": recovered})
)
print(json.dumps(seen))
