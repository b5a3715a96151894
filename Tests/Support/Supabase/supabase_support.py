"""What the scripts that drive Gatehouse with Supabase's Python client (`supabase_auth`) share:
the client, a refusal's code, a link pressed as a person does, and the local outbox.

Each script runs as `python3 Tests/Support/Supabase/NAME.py`, so this module, beside it, is
found on the import path.
"""

import base64
import html
import json
import re
import subprocess
import time
from urllib.parse import urljoin

import httpx
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError


def client(base, apikey, flow="implicit"):
    """Supabase's client for Gatehouse at `base`, in the `pkce` or `implicit` flow, keeping no
    session of its own between calls."""
    return SyncGoTrueClient(
        url=f"{base}/auth/v1", headers={"apikey": apikey}, auto_refresh_token=False, persist_session=False,
        flow_type=flow,
    )


def refusal(call):
    """The code and status a call was refused with; None when it succeeded."""
    try:
        call()
    except AuthApiError as error:
        return {"code": error.code, "status": error.status}
    return None


def press(url, buttons=None):
    """The link's GET (a page whose button POSTs it), then the button: the status and where it
    redirects (read, not followed). The button's label goes into `buttons` when one is given."""
    with httpx.Client(follow_redirects=False) as web:
        page = web.get(url)
        assert page.status_code == 200, page.status_code
        if buttons is not None:
            buttons.append(re.search(r'<button type="submit">([^<]*)</button>', page.text).group(1))
        action = html.unescape(re.search(r'<form method="post" action="([^"]+)"', page.text).group(1))
        fields = {
            html.unescape(name): html.unescape(value)
            for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text)
        }
        answer = web.post(urljoin(url, action), data=fields)
        return answer.status_code, answer.headers["location"]


def amr(token):
    """The `amr` methods an access token says its session was signed in with (read, not checked)."""
    payload = token.split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    return [entry["method"] for entry in claims["amr"]]


def outbox(gatehouse, address):
    """The messages the local outbox holds for `address`, oldest first (`gatehouse outbox`)."""
    run = subprocess.run([gatehouse, "outbox", "--json", "--to", address], check=True, capture_output=True, text=True)
    return [json.loads(line) for line in run.stdout.splitlines()]


def claims(token):
    """An access token's claims (read, not checked)."""
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def texted(gatehouse, number, at_least):
    """The codes the local outbox holds for `number`, oldest first, once there are `at_least`
    (some go out just after the answer; up to 10 s)."""
    deadline = time.monotonic() + 10
    while True:
        found = [message["secret"] for message in outbox(gatehouse, number)]
        if len(found) >= at_least or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def verify_as(base, apikey, client, factor_id, challenge_id, code):
    """`client`'s session verifying `code` under `challenge_id` of `factor_id` (another session's
    challenge, which supabase-py cannot ask for): `[status, code]` of the answer."""
    with httpx.Client() as web:
        answer = web.post(
            f"{base}/auth/v1/factors/{factor_id}/verify",
            headers={"apikey": apikey, "Authorization": f"Bearer {client.get_session().access_token}",
                     "X-Supabase-Api-Version": "2024-01-01"},
            json={"challenge_id": challenge_id, "code": code})
        return [answer.status_code, answer.json().get("code")]
