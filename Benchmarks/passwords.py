#!/usr/bin/env python3
"""Latency of the Supabase-compatible password routes through start-api (release build), one
request at a time, against Gatehouse's own refresh in the same run.

For each route, the median and p90 over N requests (25 by default: sign-ups allow 30 per 5
minutes per source IP, and every request here comes from 127.0.0.1), after one unmeasured
request that starts the function:
  - POST /auth/v1/signup                       (distinct addresses: scrypt, user, link, email)
  - POST /auth/v1/token?grant_type=password    (each confirmed account once: scrypt, session)
  - POST /auth/v1/token?grant_type=refresh_token  (each session's refresh token once)
  - POST /auth/refresh                         (Gatehouse's own, for the same kind of session)

    python3 Benchmarks/passwords.py [--requests 25] [--rounds 3] [--no-build]

Each round starts a fresh start-api on a fresh store (a temporary folder).
"""

import json
from urllib.parse import parse_qs, urlparse

from local_api import gatehouse, last_delivery, request, run_rounds, start, stop, workspace

PASSWORD = "correct horse battery staple"


def outbox_token(environment, recipient):
    return parse_qs(urlparse(last_delivery(environment, recipient)).query)["token"][0]


def publishable_key(environment):
    return next(json.loads(line)["publishableKey"] for line in gatehouse(environment, "apps", "list").splitlines()
                if '"demo"' in line)


def one_round(count):
    work, environment = workspace("gatehouse-passwords-")
    process, port = start(work, environment)
    try:
        headers = {"Content-Type": "application/json", "apikey": publishable_key(environment)}

        def post(path, body):
            status, _, payload, elapsed = request(port, "POST", path, json.dumps(body), headers)
            assert status == 200, (path, status, payload)
            return json.loads(payload), elapsed

        names = ("v1/signup", "v1/token password", "v1/token refresh_token", "/auth/refresh (Gatehouse)")
        times = {name: [] for name in names}
        for index in range(count + 1):
            address = f"person{index}@example.com"
            _, elapsed = post("/auth/v1/signup", {"email": address, "password": PASSWORD})
            if index: times[names[0]].append(elapsed)
            confirmed, _ = post("/auth/v1/verify", {"type": "signup", "token_hash": outbox_token(environment, address)})
            # The confirmation drops the sign-up's password; the owner sets it from that session.
            status, _, payload, _ = request(
                port, "PUT", "/auth/v1/user", json.dumps({"password": PASSWORD}),
                dict(headers, Authorization=f"Bearer {confirmed['access_token']}"))
            assert status == 200, ("PUT /auth/v1/user", status, payload)
            session, elapsed = post("/auth/v1/token?grant_type=password", {"email": address, "password": PASSWORD})
            if index: times[names[1]].append(elapsed)
            _, elapsed = post("/auth/v1/token?grant_type=refresh_token", {"refresh_token": session["refresh_token"]})
            if index: times[names[2]].append(elapsed)
            other, _ = post("/auth/v1/token?grant_type=password", {"email": address, "password": PASSWORD})
            _, elapsed = post("/auth/refresh", {"refreshToken": other["refresh_token"]})
            if index: times[names[3]].append(elapsed)
        return times
    finally:
        stop(process, work)


def main():
    run_rounds(one_round, default_requests=25)


if __name__ == "__main__":
    main()
