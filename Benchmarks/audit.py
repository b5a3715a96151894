#!/usr/bin/env python3
"""What the audit log's write costs a request: Supabase's password sign-in and sign-out through
start-api (release build), with the audit log and without it, in the same run.

The audit items are written after the answer (`AfterResponse.later`), so the answer should not
wait for them; the function's instance does, before it takes the next event. For each mode,
over N users made by the admin API (each types a wrong emailed code at `/verify`, then signs in
once with a wrong password and once with the right one, then signs out (`/logout?scope=local`),
one request at a time, the next sent as soon as the last is answered):
  - the median and p90 of the answers' times;
  - how many instances of SupabaseToken, SupabaseVerify and SupabaseLogout the requests needed (a request that
    finds the only instance still writing its last request's audit items gets a new one: a cold
    start), and how many AuditLog items the round left.

"Without" is the same template with `AuditLog` taken out of those functions'
`STORE_ACCESS` (start-api's `--env-vars`), which turns their audit log off (`AuditLog(environment:)`).

    python3 Benchmarks/audit.py [--requests 20] [--rounds 3] [--no-build]

Each round starts a fresh start-api on a fresh store (a temporary folder) per mode.
"""

import json
import os
import re
import time

from local_api import ROOT, gatehouse, request, run_rounds, start, stop, workspace

PASSWORD = "correct horse battery staple"


FUNCTIONS = ("SupabaseToken", "SupabaseVerify", "SupabaseLogout")


def store_access(function):
    template = json.load(open(os.path.join(ROOT, "template.json"), encoding="utf-8"))
    return template["Resources"][function]["Properties"]["Environment"]["Variables"]["STORE_ACCESS"]


def without_audit(work):
    """start-api's `--env-vars` file (SAM's shape) that takes `AuditLog` out of the measured
    functions' grants."""
    overrides = {}
    for function in FUNCTIONS:
        grants = [grant for grant in store_access(function).split(" ") if not grant.startswith("AuditLog=")]
        overrides[function] = {"STORE_ACCESS": " ".join(grants)}
    path = os.path.join(work, "without-audit.json")
    with open(path, "w", encoding="utf-8") as file:
        json.dump(overrides, file)
    return ["--env-vars", path]


def publishable_key(environment):
    return next(json.loads(line)["publishableKey"] for line in gatehouse(environment, "apps", "list").splitlines()
                if '"demo"' in line)


def measure(count, audited):
    work, environment = workspace("gatehouse-audit-")
    process, port = start(work, environment, () if audited else without_audit(work))
    try:
        server_key = gatehouse(environment, "apps", "key", "create", "demo").strip()
        admin = {"Content-Type": "application/json", "apikey": server_key, "Authorization": f"Bearer {server_key}"}
        public = {"Content-Type": "application/json", "apikey": publishable_key(environment)}
        addresses = [f"person{index}@example.com" for index in range(count + 1)]
        for address in addresses:
            body = json.dumps({"email": address, "password": PASSWORD, "email_confirm": True})
            status, _, payload, _ = request(port, "POST", "/auth/v1/admin/users", body, admin)
            assert status == 200, (status, payload)
        wrong, right, code, signout = [], [], [], []
        for index, address in enumerate(addresses):
            status, _, payload, elapsed = request(
                port, "POST", "/auth/v1/verify", json.dumps({"type": "email", "email": address, "token": "000000"}),
                public)
            assert status == 403, (status, payload)
            if index: code.append(elapsed)
            for password, times, expected in (("not the password", wrong, 400), (PASSWORD, right, 200)):
                status, _, payload, elapsed = request(
                    port, "POST", "/auth/v1/token?grant_type=password",
                    json.dumps({"email": address, "password": password}), public)
                assert status == expected, (status, payload)
                if index: times.append(elapsed)
            token = json.loads(payload)["access_token"]
            status, _, payload, elapsed = request(
                port, "POST", "/auth/v1/logout?scope=local", None, {**public, "Authorization": f"Bearer {token}"})
            assert status == 204, (status, payload)
            if index: signout.append(elapsed)
        log = open(os.path.join(work, "start-api.log"), encoding="utf-8", errors="replace").read()
        instances = {f: len(set(re.findall(f"{f} (?:warm|cold) #(\\d+)", log))) for f in FUNCTIONS}
        # Once the last answers' work is done: what the table holds (none without the log).
        time.sleep(1)
        items = len(gatehouse(environment, "db", "scan", "AuditLog").splitlines())
        return wrong, right, code, signout, instances, items
    finally:
        stop(process, work)


def one_round(count):
    times = {}
    for audited in (True, False):
        mode = "with the audit log" if audited else "without it"
        wrong, right, code, signout, instances, items = measure(count, audited)
        print(f"{mode}: instances {instances}, AuditLog items {items}", flush=True)
        times[f"wrong emailed code, {mode}"] = code
        times[f"wrong password, {mode}"] = wrong
        times[f"right password, {mode}"] = right
        times[f"sign-out, {mode}"] = signout
    return times


def main():
    run_rounds(one_round, default_requests=20)


if __name__ == "__main__":
    main()
