"""Drives Gatehouse's recovery codes (its own routes beside Supabase's `/factors`, which
Supabase's client has no method for) with Supabase's Python client (`supabase_auth`) for the
session and the TOTP factor, codes made by `pyotp`, and `httpx` for the recovery routes, with the
client's access token. Prints what it saw as one JSON object, never a code or a secret.

Usage: supabase_mfa_recovery.py BASE_URL APIKEY GATEHOUSE_BINARY EMAIL PASSWORD

The user (a confirmed account with that password) signs in with its password. The notice mailed
when a code is used goes out just after the answer, so it is waited for in the local outbox.
SupabaseClientTests checks the printed values.
"""

import json
import re
import subprocess
import sys
import time

import httpx
import pyotp
import supabase_support
from supabase_auth.types import AuthMFAEnrollResponse
from supabase_support import amr, claims

base, apikey, gatehouse, email, password = sys.argv[1:6]
seen = {}


def signed_in():
    client = supabase_support.client(base, apikey, "pkce")
    client.sign_in_with_password({"email": email, "password": password})
    return client


def post(client, path, body):
    """The status and JSON of a POST to `path` with the client's access token."""
    answer = httpx.post(
        f"{base}/auth/v1{path}", json=body,
        headers={"apikey": apikey, "Authorization": f"Bearer {client.get_session().access_token}",
                 "X-Supabase-Api-Version": "2024-01-01"})
    return answer.status_code, answer.json()


def refused(client, code):
    status, body = post(client, "/factors/recovery", {"code": code})
    return [status, body.get("code")]


def level(client):
    answer = client.mfa.get_authenticator_assurance_level()
    return [answer.current_level, answer.next_level]


def notices():
    """The notices in the outbox, once there are some (they go out after the answer; up to 10 s)."""
    deadline = time.monotonic() + 10
    while True:
        found = [mail for mail in supabase_support.outbox(gatehouse, email) if "recovery code" in mail["text"]]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


app = signed_in()
# The first enrolment, read raw: the client's model keeps only Supabase's keys (it reads the
# answer all the same).
status, enrolled = post(app, "/factors", {"factor_type": "totp", "friendly_name": "phone app"})
codes = enrolled.get("recovery_codes", [])
seen["issued"] = {
    "status": status, "count": len(codes), "distinct": len(set(codes)),
    "shape": all(re.fullmatch(r"[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}", code) for code in codes),
    "clientReads": AuthMFAEnrollResponse.model_validate(enrolled).id == enrolled["id"],
}
stored = subprocess.run([gatehouse, "db", "scan", "Factors"], check=True, capture_output=True, text=True).stdout
seen["atRest"] = {
    "items": sum(1 for line in stored.splitlines() if '"recovery:' in line),
    "plain": any(code in stored or code.replace("-", "") in stored for code in codes),
}
seen["beforeVerify"] = refused(app, codes[0])
totp = pyotp.TOTP(enrolled["totp"]["secret"])
app.mfa.challenge_and_verify({"factor_id": enrolled["id"], "code": totp.now()})
second = app.mfa.enroll({"factor_type": "totp", "friendly_name": "backup"})
status, third = post(app, "/factors", {"factor_type": "totp", "friendly_name": "spare"})
seen["laterEnrolment"] = [status, "recovery_codes" in third]

later = signed_in()
seen["signedIn"] = level(later)
seen["wrong"] = refused(later, "zzzzz-zzzzz")
status, used = post(later, "/factors/recovery", {"code": codes[0].upper()})
seen["used"] = {
    "status": status, "remaining": used.get("recovery_codes_remaining"), "aal": claims(used["access_token"])["aal"],
    "amr": amr(used["access_token"]),
    "sameSession": claims(used["access_token"])["session_id"]
    == claims(later.get_session().access_token)["session_id"],
    "userFactors": sorted(factor["status"] for factor in used["user"]["factors"]),
}
later.set_session(used["access_token"], used["refresh_token"])
seen["raised"] = level(later)
other = signed_in()
seen["replay"] = refused(other, codes[0])
mails = notices()
seen["notice"] = {
    "count": len(mails), "left": all("9 of your recovery codes" in mail["text"] for mail in mails),
    "noCode": all(codes[0] not in mail["text"] and codes[0].replace("-", "") not in mail["text"] for mail in mails),
}

status, body = post(other, "/factors/recovery/regenerate", {})
seen["regenerateFromAAL1"] = [status, body.get("code")]
status, body = post(app, "/factors/recovery/regenerate", {})
fresh = body.get("recovery_codes", [])
seen["regenerated"] = {"status": status, "count": len(fresh), "old": refused(other, codes[1])}
seen["regenerated"]["new"] = post(other, "/factors/recovery", {"code": fresh[0]})[0]

# Without a verified factor, no code is left.
for factor in (second.id, third["id"], enrolled["id"]):
    app.mfa.unenroll({"factor_id": factor})
seen["afterLastFactor"] = refused(signed_in(), fresh[1])
stored = subprocess.run([gatehouse, "db", "scan", "Factors"], check=True, capture_output=True, text=True).stdout
seen["leftInStore"] = sum(1 for line in stored.splitlines() if '"recovery' in line)
print(json.dumps(seen))
