#!/usr/bin/env python3
"""What the audit log's write costs a request: Supabase's password sign-in through start-api
(release build), with the audit log and without it, in the same run.

The audit items are written after the answer (`AfterResponse.later`), so the answer should not
wait for them; the function's instance does, before it takes the next event. For each mode,
over N users made by the admin API (each signs in once with a wrong password, then once with the
right one, one request at a time, the next sent as soon as the last is answered):
  - the median and p90 of the answers' times;
  - how many instances of SupabaseToken the requests needed (a request that finds the only
    instance still writing its last request's audit items gets a new one: a cold start).

"Without" is the same template with `AuditLog` taken out of SupabaseToken's `STORE_ACCESS`
(start-api's `--env-vars`), which turns its audit log off (`AuditLog(environment:)`).

    python3 Benchmarks/audit.py [--requests 20] [--rounds 3] [--no-build]

Each round starts a fresh start-api on a fresh store (a temporary folder) per mode.
"""

import json
import os
import re

from local_api import ROOT, gatehouse, request, run_rounds, start, stop, workspace

PASSWORD = "correct horse battery staple"


def token_store_access():
    template = json.load(open(os.path.join(ROOT, "template.json"), encoding="utf-8"))
    return template["Resources"]["SupabaseToken"]["Properties"]["Environment"]["Variables"]["STORE_ACCESS"]


def without_audit():
    grants = [grant for grant in token_store_access().split(" ") if not grant.startswith("AuditLog=")]
    return ["--env-vars", json.dumps({"SupabaseToken": {"STORE_ACCESS": " ".join(grants)}})]


def publishable_key(environment):
    return next(json.loads(line)["publishableKey"] for line in gatehouse(environment, "apps", "list").splitlines()
                if '"demo"' in line)


def measure(count, audited):
    work, environment = workspace("gatehouse-audit-")
    process, port = start(work, environment, () if audited else without_audit())
    try:
        server_key = gatehouse(environment, "apps", "key", "create", "demo").strip()
        admin = {"Content-Type": "application/json", "apikey": server_key, "Authorization": f"Bearer {server_key}"}
        public = {"Content-Type": "application/json", "apikey": publishable_key(environment)}
        addresses = [f"person{index}@example.com" for index in range(count + 1)]
        for address in addresses:
            body = json.dumps({"email": address, "password": PASSWORD, "email_confirm": True})
            status, _, payload, _ = request(port, "POST", "/auth/v1/admin/users", body, admin)
            assert status == 200, (status, payload)
        wrong, right = [], []
        for index, address in enumerate(addresses):
            for password, times, expected in (("not the password", wrong, 400), (PASSWORD, right, 200)):
                status, _, payload, elapsed = request(
                    port, "POST", "/auth/v1/token?grant_type=password",
                    json.dumps({"email": address, "password": password}), public)
                assert status == expected, (status, payload)
                if index: times.append(elapsed)
        log = open(os.path.join(work, "start-api.log"), encoding="utf-8", errors="replace").read()
        instances = len(set(re.findall(r"SupabaseToken (?:warm|cold) #(\d+)", log)))
        return wrong, right, instances
    finally:
        stop(process, work)


def one_round(count):
    times = {}
    for audited in (True, False):
        mode = "with the audit log" if audited else "without it"
        wrong, right, instances = measure(count, audited)
        print(f"SupabaseToken instances {mode}: {instances}", flush=True)
        times[f"wrong password, {mode}"] = wrong
        times[f"right password, {mode}"] = right
    return times


def main():
    run_rounds(one_round, default_requests=20)


if __name__ == "__main__":
    main()
