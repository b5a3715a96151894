#!/usr/bin/env python3
"""start-api under load, against the ceiling of its own HTTP stack, in one run.

Requests per second and p50/p99 latency at 32 connections (wrk) for:
  - GET /.well-known/jwks.json                       (the Jwks function, no authorizer)
  - GET /users/me with a valid token, cache off      (start-api --no-authorizer-cache)
  - GET /users/me with a valid token, cache on       (the default)
  - GET /ceiling on a plain Hummingbird server answering a fixed JSON body

Everything is a release build: gatehouse and the functions (swift build -c release in the
root), the ceiling (in Benchmarks/). The cases run in rounds, one after the other, so the
machine's noise falls on all of them; the table shows the median of the rounds and each
case's ratio to the ceiling of the same round.

    python3 Benchmarks/start-api.py [--rounds 3] [--duration 10] [--connections 32] [--no-build] [--cpu]

With --cpu, a second table gives the CPU time each program spent per request (user + system,
from /proc, summed over a program's processes: start-api and each function it runs), and wrk's
share: where a request's cost sits, against the ceiling server's cost for its one exchange.

Needs wrk (apt-get install wrk). State (store, signing keys) lives in a temporary folder.
"""

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(command, **kwargs):
    return subprocess.run(command, cwd=ROOT, check=True, **kwargs)


def wait_for_listening(log_path, process, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"start-api exited ({process.returncode}); see {log_path}")
        with open(log_path, encoding="utf-8", errors="replace") as log:
            for line in log:
                match = re.match(r"Listening on (http://\S+)", line)
                if match:
                    return match.group(1)
        time.sleep(0.05)
    sys.exit(f"start-api did not start; see {log_path}")


def start_api(work, port, extra, environment):
    log_path = os.path.join(work, f"start-api-{port}.log")
    log = open(log_path, "w", encoding="utf-8")
    process = subprocess.Popen(
        [os.path.join(ROOT, ".build/release/gatehouse"), "start-api", "--no-build", "--configuration", "release",
         "--port", str(port)] + extra,
        cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=log)
    return process, wait_for_listening(log_path, process)


TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def process_tree(root):
    """(pid, program name) of `root` and every process under it."""
    children, names = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as stat:
                head, tail = stat.read().rsplit(")", 1)
        except OSError:
            continue
        names[int(entry)] = head.split("(", 1)[1]
        children.setdefault(int(tail.split()[1]), []).append(int(entry))
    tree, pending = [], [root]
    while pending:
        pid = pending.pop()
        tree.append((pid, names.get(pid, "?")))
        pending += children.get(pid, [])
    return tree


def cpu_seconds(pid):
    """User + system CPU time of `pid` so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_SECOND


def wrk(url, seconds, connections, headers=(), server=None):
    """One wrk run; with `server` (a pid), also the CPU per request of each program under it and of wrk."""
    command = ["wrk", "--latency", "-t", "2", "-c", str(connections), "-d", f"{seconds}s"]
    for header in headers:
        command += ["-H", header]
    tree = process_tree(server) if server else []
    before = {pid: cpu_seconds(pid) for pid, _ in tree}
    started = os.times()
    output = subprocess.run(command + [url], check=True, capture_output=True, text=True).stdout
    ended = os.times()
    spent = {}
    # Instances started during the run count from zero; one that ended during it is missed.
    for pid, name in set(tree) | set(process_tree(server) if server else []):
        spent[name] = spent.get(name, 0.0) + cpu_seconds(pid) - before.get(pid, 0.0)
    spent["wrk"] = (ended.children_user - started.children_user) + (ended.children_system - started.children_system)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))

    def latency(percentile):
        value, unit = re.search(rf"^\s+{percentile}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    failures = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: (.*)", output)
    requests = rate * seconds
    return {
        "rps": rate, "p50": latency(50), "p99": latency(99),
        "bad": int(failures.group(1)) if failures else 0, "errors": errors.group(1) if errors else "",
        "cpu": {name: seconds_spent / requests * 1e6 for name, seconds_spent in spent.items()} if server else {},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=10, help="seconds per case and round")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="also report each program's CPU time per request")
    arguments = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    if not arguments.no_build:
        run(["swift", "build", "-c", "release"])
        run(["swift", "build", "-c", "release", "--package-path", "Benchmarks", "--product", "ceiling"])

    work = tempfile.mkdtemp(prefix="start-api-bench-")
    environment = dict(os.environ)
    environment["GATEHOUSE_STORE"] = os.path.join(work, "store.sqlite")
    environment["SIGNING_KEYS_FILE"] = os.path.join(work, "signing-keys.json")
    environment.pop("SIGNING_KEYS", None)
    processes = []
    try:
        ceiling = subprocess.Popen([os.path.join(ROOT, "Benchmarks/.build/release/ceiling"), "8090"])
        processes.append(ceiling)
        cached, cached_url = start_api(work, 3101, [], environment)
        processes.append(cached)
        uncached, uncached_url = start_api(work, 3102, ["--no-authorizer-cache"], environment)
        processes.append(uncached)

        # A real session per server (the token's issuer is the server's own address): a code
        # from `dev auth-code`, exchanged through the API, then one request to warm it.
        bearers = {}
        for base in (cached_url, uncached_url):
            code = subprocess.run(
                [os.path.join(ROOT, ".build/release/gatehouse"), "dev", "auth-code", "--app", "demo", "--email",
                 "bench@example.com"], cwd=ROOT, env=environment, check=True, capture_output=True, text=True
            ).stdout.strip()
            request = urllib.request.Request(
                f"{base}/auth/exchange", data=json.dumps({"code": code, "app": "demo"}).encode(),
                headers={"Content-Type": "application/json"}, method="POST")
            with urllib.request.urlopen(request, timeout=30) as response:
                token = json.load(response)["accessToken"]
            bearers[base] = f"Authorization: Bearer {token}"
            check = urllib.request.Request(f"{base}/users/me", headers={"Authorization": f"Bearer {token}"})
            with urllib.request.urlopen(check, timeout=30) as response:
                assert response.status == 200
        time.sleep(1)

        cases = [
            ("ceiling: Hummingbird, fixed JSON", "http://127.0.0.1:8090/ceiling", (), ceiling),
            ("GET /.well-known/jwks.json", f"{cached_url}/.well-known/jwks.json", (), cached),
            ("GET /users/me, authorizer cache off", f"{uncached_url}/users/me", (bearers[uncached_url],), uncached),
            ("GET /users/me, authorizer cache on", f"{cached_url}/users/me", (bearers[cached_url],), cached),
        ]
        results = {name: [] for name, _, _, _ in cases}
        for round_number in range(arguments.rounds):
            for name, url, headers, server in cases:
                result = wrk(url, arguments.duration, arguments.connections, headers,
                             server.pid if arguments.cpu else None)
                results[name].append(result)
                print(f"round {round_number + 1}: {name}: {result['rps']:.0f}/s p50 {result['p50']:.2f} ms "
                      f"p99 {result['p99']:.2f} ms bad {result['bad']} {result['errors']}", file=sys.stderr)

        ceiling_rates = [result["rps"] for result in results[cases[0][0]]]
        print(f"\n{arguments.connections} connections, {arguments.duration} s per case, {arguments.rounds} rounds "
              "(medians; ratio = requests/s over the ceiling's in the same round)\n")
        print("| case | requests/s | × ceiling | p50 ms | p99 ms | non-2xx |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, _, _, _ in cases:
            rows = results[name]
            ratios = [row["rps"] / ceiling for row, ceiling in zip(rows, ceiling_rates)]
            print(f"| {name} | {statistics.median(r['rps'] for r in rows):,.0f} | "
                  f"{statistics.median(ratios):.2f} (min {min(ratios):.2f}) | "
                  f"{statistics.median(r['p50'] for r in rows):.2f} | {statistics.median(r['p99'] for r in rows):.2f} | "
                  f"{sum(r['bad'] for r in rows)} |")
        if arguments.cpu:
            print_cpu(results)
    finally:
        for process in processes:
            process.send_signal(signal.SIGINT)
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


def print_cpu(results):
    """CPU time per request of each program, the median of the rounds: where a request's cost sits."""
    print("\nCPU time per request, µs (user + system; medians of the rounds)\n")
    print("| case | program | µs per request |")
    print("|---|---|---:|")
    for name, rows in results.items():
        programs = sorted({program for row in rows for program in row["cpu"]})
        for program in programs:
            values = [row["cpu"].get(program, 0.0) for row in rows]
            if statistics.median(values) >= 0.5:
                print(f"| {name} | {program} | {statistics.median(values):.1f} |")
        total = statistics.median(sum(row["cpu"].values()) for row in rows)
        print(f"| {name} | all of them | {total:.1f} |")


if __name__ == "__main__":
    main()
