"""A release `gatehouse start-api` on a free port for the latency scripts (sign-in.py,
oauth.py, passwords.py), its state folder, the CLI beside it, one timed request to it, and
the scripts' shared command line and table."""

import argparse
import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def workspace(prefix):
    """A fresh folder for one round's state, and the environment that points the CLI and
    start-api at it (its signing keys and store file)."""
    work = tempfile.mkdtemp(prefix=prefix)
    return work, dict(os.environ, SIGNING_KEYS_FILE=os.path.join(work, "keys.json"),
                      GATEHOUSE_STORE=os.path.join(work, "store.sqlite"))


def gatehouse(environment, *arguments):
    """The release CLI's standard output for `arguments`, on the round's state."""
    return subprocess.run(
        [os.path.join(ROOT, ".build/release/gatehouse"), *arguments],
        cwd=ROOT, env=environment, check=True, capture_output=True, text=True).stdout


def last_delivery(environment, recipient):
    """The link or code of the last message the local outbox holds for `recipient`."""
    return json.loads(gatehouse(environment, "outbox", "--json", "--to", recipient).splitlines()[-1])["secret"]


def start(work, environment, extra=()):
    """Starts start-api (release, no build) with its log in `work`; the process and its port."""
    log_path = os.path.join(work, "start-api.log")
    process = subprocess.Popen(
        [os.path.join(ROOT, ".build/release/gatehouse"), "start-api", "--no-build", "--configuration", "release",
         "--port", "0", *extra], cwd=ROOT, env=environment, stdout=subprocess.DEVNULL,
        stderr=open(log_path, "w", encoding="utf-8"))
    deadline = time.time() + 120
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"start-api exited ({process.returncode}); see {log_path}")
        with open(log_path, encoding="utf-8", errors="replace") as log:
            for line in log:
                if line.startswith("Listening on http://127.0.0.1:"):
                    return process, int(line.split(":")[2].split(" ")[0])
        time.sleep(0.05)
    process.kill()
    sys.exit(f"start-api did not start; see {log_path}")


def request(port, method, path, body=None, headers=None):
    """One request on a new connection: status, headers (a list), body, milliseconds."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    started = time.perf_counter()
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    payload = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    connection.close()
    return response.status, response.getheaders(), payload, elapsed


def print_table(rounds):
    """Each route's median and p90 per round, as a Markdown table; `rounds` maps route to ms."""
    print("| route | median (ms), per round | p90 (ms), per round |")
    print("|---|---|---|")
    for name in rounds[0]:
        medians = ", ".join(f"{statistics.median(r[name]):.2f}" for r in rounds)
        p90s = ", ".join(f"{statistics.quantiles(r[name], n=10)[8]:.2f}" for r in rounds)
        print(f"| {name} | {medians} | {p90s} |")


def stop(process, work):
    """Stops start-api as Ctrl-C does and removes its folder."""
    process.send_signal(signal.SIGINT)
    process.wait(timeout=30)
    shutil.rmtree(work, ignore_errors=True)


def run_rounds(one_round, default_requests):
    """The scripts' command line (--requests, --rounds, --no-build): builds in release unless
    told not to, runs `one_round(requests)` per round and prints the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=default_requests)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-build", action="store_true")
    arguments = parser.parse_args()
    if not arguments.no_build:
        subprocess.run(["swift", "build", "-c", "release"], cwd=ROOT, check=True)
    print_table([one_round(arguments.requests) for _ in range(arguments.rounds)])
