"""Drives a number's password account through Gatehouse's Supabase-compatible routes with
Supabase's own Python client (`supabase_auth`, PKCE flow), as an app would, and prints what it
saw as one JSON object.

Usage: supabase_phone.py BASE_URL APIKEY GATEHOUSE_BINARY

Texts come from the local outbox (`gatehouse outbox --json --to NUMBER`); some go out just after
the answer, so they are waited for. SupabaseClientTests checks the printed values.
"""

import json
import sys

import httpx
import supabase_support
from supabase_support import refusal

base, apikey, gatehouse = sys.argv[1:4]
seen = {}
password = "correct horse battery"


def client():
    return supabase_support.client(base, apikey, "pkce")


def texts(number, at_least):
    return supabase_support.texted(gatehouse, number, at_least)


def signs_in(number, secret):
    """What a password sign-in of `number` gives: its user's number, or the refusal."""
    try:
        return client().sign_in_with_password({"phone": number, "password": secret}).user.phone
    except Exception as error:  # an AuthApiError: its code and status
        return {"code": error.code, "status": error.status}


# signUp(phone:password:): the user, its number waiting for the texted code, no session; a
# password sign-in waits for the code too; the code confirms the number and signs in; the
# sign-up's password then signs in.
owner = "+14155550140"
answer = client().sign_up({"phone": owner, "password": password, "options": {"data": {"plan": "pro"}}})
seen["signUp"] = {
    "session": answer.session is not None, "phone": answer.user.phone,
    "confirmed": answer.user.phone_confirmed_at is not None, "metadata": answer.user.user_metadata,
}
seen["beforeCode"] = signs_in(owner, password)
code = texts(owner, 1)[-1]
verified = client().verify_otp({"phone": owner, "token": code, "type": "sms"})
seen["verified"] = {
    "session": verified.session is not None, "phone": verified.user.phone,
    "confirmed": verified.user.phone_confirmed_at is not None, "sameUser": verified.user.id == answer.user.id,
}
seen["passwordSignIn"] = signs_in(owner, password)
seen["wrongPassword"] = signs_in(owner, "not the password at all")
seen["withoutPlus"] = signs_in(owner[1:], password)

# A sign-up of a taken number: the same answer, no second user, a sign-in code texted after it
# (the owner who forgot signs in with it); the password it chose signs nobody in.
again = client().sign_up({"phone": owner, "password": "another fine password"})
seen["taken"] = {
    "session": again.session is not None, "phone": again.user.phone,
    "confirmed": again.user.phone_confirmed_at is not None, "sameId": again.user.id == answer.user.id,
    "texted": len(texts(owner, 2)),
}
seen["taken"]["otherPassword"] = signs_in(owner, "another fine password")
seen["taken"]["ownPassword"] = signs_in(owner, password)

# Pre-registration: a stranger signs the number up with their password; its owner asks for a
# sign-in code (the same live code, texted again, no longer the sign-up's alone) and types it.
# The owner is in; the stranger's password is not the account's.
victim = "+14155550141"
client().sign_up({"phone": victim, "password": "the stranger's password"})
client().sign_in_with_otp({"phone": victim})
owners_code = texts(victim, 2)[-1]
seen["preRegistered"] = {
    "sameCode": texts(victim, 2)[0] == owners_code,
    "signedIn": client().verify_otp({"phone": victim, "token": owners_code, "type": "sms"}).user.phone,
    "strangersPassword": signs_in(victim, "the stranger's password"),
}

# resend(phone:type: .sms): {} either way; the sign-up's code texted again, which keeps its
# password; an unknown number is texted nothing.
late = "+14155550142"
client().sign_up({"phone": late, "password": password})
first = texts(late, 1)[-1]
client().resend({"type": "sms", "phone": late})
unknown = refusal(lambda: client().resend({"type": "sms", "phone": "+14155550143"}))
resent = texts(late, 2)
client().verify_otp({"phone": late, "token": resent[-1], "type": "sms"})
seen["resend"] = {
    "texts": len(resent), "sameCode": resent[-1] == first, "unknown": unknown,
    "unknownTexted": len(texts("+14155550143", 0)), "passwordSignIn": signs_in(late, password),
}

# A sign-up that replaced another one still waiting: who signed up is contested, so its code
# confirms the number but keeps neither password.
contested = "+14155550144"
client().sign_up({"phone": contested, "password": "first password here"})
client().sign_up({"phone": contested, "password": "second password here"})
client().verify_otp({"phone": contested, "token": texts(contested, 2)[-1], "type": "sms"})
seen["contested"] = [signs_in(contested, "first password here"), signs_in(contested, "second password here")]

# What supabase/auth refuses at sign-up, refused alike (nothing is written or texted).
both = httpx.post(
    f"{base}/auth/v1/signup", headers={"apikey": apikey},
    json={"email": "both@example.com", "phone": "+14155580147", "password": password})
pkce = httpx.post(
    f"{base}/auth/v1/signup", headers={"apikey": apikey},
    json={"phone": "+14155580147", "password": password, "code_challenge": "c" * 43, "code_challenge_method": "s256"})
seen["refused"] = {
    "both": [both.status_code, both.json().get("error_code")], "pkce": [pkce.status_code, pkce.json().get("error_code")],
    "texted": len(texts("+14155580147", 0)),
}

# update(user: phone): the code texted to the new number (after the answer, which shows the old
# number still), typed with verifyOTP(type: .phoneChange), moves the user there and signs in.
moving = client()
moving.sign_in_with_password({"phone": owner, "password": password})
new_number = "+14155560145"
asked = moving.update_user({"phone": new_number})
change_code = texts(new_number, 1)[-1]
seen["phoneChange"] = {
    "answered": asked.user.phone, "signInWithIt": refusal(
        lambda: client().verify_otp({"phone": new_number, "token": change_code, "type": "sms"})),
}
moved = client().verify_otp({"phone": new_number, "token": change_code, "type": "phone_change"})
seen["phoneChange"].update({
    "phone": moved.user.phone, "sameUser": moved.user.id == answer.user.id, "session": moved.session is not None,
    "newNumber": signs_in(new_number, password), "oldNumber": signs_in(owner, password),
    "again": refusal(lambda: client().verify_otp({"phone": new_number, "token": change_code, "type": "phone_change"})),
})

# A number another user has: the same answer, nothing texted to it. A change's code is texted
# again by resend(phone:type: .phoneChange) with the new number.
other = client()
other.sign_in_with_password({"phone": late, "password": password})
before = len(texts(new_number, 1))
seen["takenNumber"] = {"answered": other.update_user({"phone": new_number}).user.phone}
late_number = "+14155570146"
other.update_user({"phone": late_number})
first_change = texts(late_number, 1)[-1]
client().resend({"type": "phone_change", "phone": late_number})
resent_change = texts(late_number, 2)
seen["takenNumber"]["texted"] = len(texts(new_number, 0)) - before
seen["resendChange"] = {
    "texts": len(resent_change), "sameCode": resent_change[-1] == first_change,
    "moved": client().verify_otp({"phone": late_number, "token": first_change, "type": "phone_change"}).user.phone,
}

# A number held only by a password sign-up still waiting for its code (maybe a stranger's) is
# no one's yet: a change to it is texted, and replaces that sign-up.
squatted = "+14155610148"
client().sign_up({"phone": squatted, "password": "the stranger's password"})
# The sign-up's code goes out after its answer: waited for, so that the change's is the later one
# (both sent in one millisecond are in either order).
texts(squatted, 1)
other.update_user({"phone": squatted})
change_codes = texts(squatted, 2)
moved_there = client().verify_otp({"phone": squatted, "token": change_codes[-1], "type": "phone_change"}).user
seen["squatted"] = {
    "texts": len(change_codes), "moved": moved_there.phone, "sameUser": moved_there.id == other.get_user().user.id,
    "strangersPassword": signs_in(squatted, "the stranger's password"),
}
print(json.dumps(seen))
