#!/usr/bin/env python3
"""The first authorized request on a fresh start-api (release build): a session is made first
(a magic link's button, then POST /auth/exchange), then one GET /users/me is timed while the
Authorizer, the Jwks function it fetches keys from and UserProfile are all cold. Then a
second, warm one, for scale.

    python3 Benchmarks/first-request.py [--rounds 10] [--no-build]

Each round is a fresh start-api on a fresh store (a temporary folder); the table shows the
median, the lowest and the highest over the rounds.
"""

import argparse
import json
import statistics
import subprocess

from local_api import ROOT, last_delivery, request, start, stop, workspace


def session(port, environment):
    """An access token from the magic-link flow and an exchange (these functions end warm)."""
    address = "ada@example.com"
    status, _, _, _ = request(
        port, "POST", "/auth/send-magic-link", json.dumps({"email": address, "app": "demo"}),
        {"Content-Type": "application/json"})
    assert status == 200, status
    token = last_delivery(environment, address).split("token=", 1)[1]
    status, headers, _, _ = request(
        port, "POST", "/auth/email-callback", f"token={token}", {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 302, status
    location = dict((name.lower(), value) for name, value in headers)["location"]
    code = location.split("code=", 1)[1].split("&", 1)[0]
    status, _, body, _ = request(
        port, "POST", "/auth/exchange", json.dumps({"code": code, "app": "demo"}), {"Content-Type": "application/json"})
    assert status == 200, (status, body[:200])
    answer = json.loads(body)
    return answer.get("accessToken") or answer["tokens"]["accessToken"]


def one_round():
    work, environment = workspace("gatehouse-first-request-")
    process, port = start(work, environment)
    try:
        token = session(port, environment)
        times = []
        for _ in range(2):
            status, _, body, elapsed = request(port, "GET", "/users/me", headers={"Authorization": f"Bearer {token}"})
            assert status == 200, (status, body[:200])
            times.append(elapsed)
        return times
    finally:
        stop(process, work)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--no-build", action="store_true")
    arguments = parser.parse_args()
    if not arguments.no_build:
        subprocess.run(["swift", "build", "-c", "release"], cwd=ROOT, check=True)
    rounds = [one_round() for _ in range(arguments.rounds)]
    print("| GET /users/me | median (ms) | lowest | highest |")
    print("|---|---|---|---|")
    for index, name in enumerate(["first (all cold)", "second (warm)"]):
        values = [r[index] for r in rounds]
        print(f"| {name} | {statistics.median(values):.2f} | {min(values):.2f} | {max(values):.2f} |")


if __name__ == "__main__":
    main()
