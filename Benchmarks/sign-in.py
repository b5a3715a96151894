#!/usr/bin/env python3
"""Latency of the sign-in routes through start-api (release build), one request at a time.

For each route, the median and p90 over N requests (25 by default: the public routes allow 30
sends per 5 minutes per source IP, and every request here comes from 127.0.0.1), after one
unmeasured request that starts the function:
  - POST /auth/send-magic-link  (distinct addresses)
  - POST /auth/email-callback   (each link's button pressed once: a new user and an auth code;
                                 the link's GET only answers the page, and is not timed)
  - POST /auth/otp/request      (distinct numbers)
  - POST /auth/otp/verify       (each right code once: a new user and a session)

    python3 Benchmarks/sign-in.py [--requests 25] [--rounds 3] [--no-build]

Each round starts a fresh start-api on a fresh store (a temporary folder), so every round's
requests are a first sign-in of new people.
"""

import json

from local_api import last_delivery, request, run_rounds, start, stop, workspace


def post(port, path, body):
    return request(port, "POST", path, body, {"Content-Type": "application/json"})


def one_round(count):
    work, environment = workspace("gatehouse-sign-in-")
    process, port = start(work, environment)
    try:
        times = {name: [] for name in ("send-magic-link", "email-callback", "otp/request", "otp/verify")}
        for index in range(count + 1):
            address = f"person{index}@example.com"
            status, _, _, elapsed = post(port, "/auth/send-magic-link", json.dumps({"email": address, "app": "demo"}))
            assert status == 200, status
            if index: times["send-magic-link"].append(elapsed)
            link = last_delivery(environment, address)
            status, _, _, _ = request(port, "GET", link[link.index("/auth/"):])
            assert status == 200, status
            token = link.split("token=", 1)[1]
            status, _, _, elapsed = request(
                port, "POST", "/auth/email-callback", f"token={token}",
                {"Content-Type": "application/x-www-form-urlencoded"})
            assert status == 302, status
            if index: times["email-callback"].append(elapsed)
            number = f"+1415555{index:04d}"
            status, _, _, elapsed = post(port, "/auth/otp/request", json.dumps({"phoneNumber": number}))
            assert status == 200, status
            if index: times["otp/request"].append(elapsed)
            code = last_delivery(environment, number)
            status, _, _, elapsed = post(port, "/auth/otp/verify", json.dumps({"phoneNumber": number, "code": code}))
            assert status == 200, status
            if index: times["otp/verify"].append(elapsed)
        return times
    finally:
        stop(process, work)


def main():
    run_rounds(one_round, default_requests=25)


if __name__ == "__main__":
    main()
