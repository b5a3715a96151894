#!/usr/bin/env python3
"""Runs the test command for CI and makes sure it ends, with a verdict: CI's last line of defence.

    python3 Tools/run-tests.py [--limit SECONDS] [--grace SECONDS] [--watch REGEX] [--log FILE] -- COMMAND [ARGS...]

    --limit  wall-clock limit for the whole command (default: $GATEHOUSE_TEST_LIMIT_SECONDS, else 1200)
    --grace  how long COMMAND has to return, and its output to close, once the test process is gone
             or COMMAND has exited (default 20)
    --watch  which descendant is the test process: a regular expression searched in its command line
             (/proc/PID/cmdline, NULs as spaces); default `^\\S*\\.xctest(\\s|$)`: the program is the bundle `swift test`
             starts. COMMAND itself may be the test process.
    --log    also write every output line to FILE

COMMAND runs in a session of its own, stdin from /dev/null, stdout and stderr into one pipe whose lines
are copied to our stdout as they come (and to FILE). Linux only; Python 3.11's standard library only.

What it guarantees. Everything is ended, within a minute, when
  - the limit has passed (exit status 124);
  - the test process ran (seen in /proc, or a test's start seen in the output: one that crashes at once
    is never seen), is gone, and COMMAND has not returned --grace seconds later (`swift test` waiting
    on an output pipe that a leftover helper still holds, say);
  - COMMAND has returned but its output is still open --grace seconds later;
  - this runner receives SIGTERM, SIGINT or SIGHUP (exit status 128 + the signal), or fails itself.
Ending everything: a line `== why`; the stacks of the test process's threads if it is still alive and gdb
is installed (COMMAND's if no test process was ever seen); the tree of our descendants; then SIGKILL to
each of them and to their process groups, again until none is left. When COMMAND returns on its own,
whatever it left running is listed (`== left running after the tests:`) and killed too.

Why a child subreaper (prctl PR_SET_CHILD_SUBREAPER): a process whose parent dies is re-parented to its
nearest subreaper ancestor instead of init. So every process COMMAND starts stays a descendant of this
runner, in whatever process group or session, even once its parent is dead, and /proc finds it to kill
it. In a real CI run, a helper in a process group of its own outlived the crashed test process and held
`swift test`'s output open; `swift test` never returned, and nothing found the helper for 90 minutes.

The last line is always `N passed, M failed`, read from Swift Testing's console lines. When the run's
own closing line (`Test run with T tests ...`) came and nothing was ended here: T - M passed, M the
tests that failed. Otherwise: the tests seen passing, and those seen failing plus those still running
(listed above it). M is at least 1 whenever the exit status is not 0. Exit status: 0 when COMMAND
exited 0 on its own and a test ran; else COMMAND's exit code, or 1 (124, 128 + N: see above).
"""

import argparse
import collections
import ctypes
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import traceback

PR_SET_CHILD_SUBREAPER = 36
CHECK_EVERY = 0.5  # seconds between two looks at the processes and the conditions
GDB_TIMEOUT = 30
KILL_BOUND = 10  # seconds to keep killing what keeps being re-parented to us
TICKS = os.sysconf("SC_CLK_TCK")

# Swift Testing's console lines (symbol, then the message): the symbols differ (a pass with known
# issues is ✘ in some versions), so only the words are matched.
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
RUN_ENDED = re.compile(r"^\S+ Test run with (\d+) tests?\b")
RECORDED = re.compile(r"^\S+ Test .* recorded an? ")  # an issue, a known issue, a warning: not an end
STARTED = re.compile(r"^\S+ Test (.+) started\.$")
ENDED = re.compile(r"^\S+ Test (.+?)(?: with \d+ test cases?)? (passed|failed) after [0-9.]+ seconds?\b")
SKIPPED = re.compile(r"^\S+ Test (.+?) (?:skipped|was cancelled|cancelled)\b")

Proc = collections.namedtuple("Proc", "ppid pgid state start comm")


class Tally:
    """What Swift Testing's console lines said about the tests."""

    def __init__(self):
        self.total = None  # T of the run's closing line "Test run with T tests ..."
        self.passed = 0
        self.failed = 0
        self.running = collections.Counter()  # started, not ended; two suites may share a test name
        self.began = False  # a test started: a test process ran, even one too short-lived to be seen

    def read(self, line):
        line = ANSI.sub("", line).rstrip()
        if match := RUN_ENDED.match(line):
            self.total = int(match[1])
        elif RECORDED.match(line):
            pass
        elif match := STARTED.match(line):
            self.began = True
            if match[1] != "run" and not match[1].startswith("case "):  # "Test run started.", test cases
                self.running[match[1]] += 1
        elif match := ENDED.match(line):
            self.running -= collections.Counter([match[1]])
            if match[2] == "passed":
                self.passed += 1
            else:
                self.failed += 1
        elif match := SKIPPED.match(line):
            self.running -= collections.Counter([match[1]])


def become_subreaper():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def process_table():
    """Every process /proc shows now, {pid: Proc}; one that vanishes while being read is left out."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                stat = file.read()
            comm = stat[stat.index(b"(") + 1 : stat.rindex(b")")].decode(errors="replace")
            fields = stat[stat.rindex(b")") + 2 :].split()  # the name may hold spaces and parentheses
            table[int(entry)] = Proc(int(fields[1]), int(fields[2]), fields[0].decode(), int(fields[19]), comm)
        except (OSError, ValueError, IndexError):
            continue
    return table


def descendants(table, root):
    """The pids whose parent chain leads to root, parents before their children."""
    children = collections.defaultdict(list)
    for pid, proc in table.items():
        children[proc.ppid].append(pid)
    found, todo = [], [root]
    while todo:
        for child in sorted(children.get(todo.pop(0), ())):
            found.append(child)
            todo.append(child)
    return found


def command_line(pid, table=None):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            text = file.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        text = ""
    if not text and table and pid in table:
        text = f"[{table[pid].comm}]"
    return text


def clock(seconds):
    minutes, seconds = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes:02}:{seconds:02}"


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class Output:
    """Our stdout and the log; a reader gone away (a broken pipe) is dropped, never fatal."""

    def __init__(self, log_path):
        self.streams = [sys.stdout.buffer] + ([open(log_path, "wb")] if log_path else [])

    def write(self, data):
        for stream in list(self.streams):
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError):
                self.streams.remove(stream)

    def say(self, text):
        self.write(text.encode("utf-8", "replace") + b"\n")


class Runner:
    def __init__(self, args, output):
        self.command = args.command
        self.name = os.path.basename(args.command[0])
        self.limit, self.grace, self.watch = args.limit, args.grace, args.watch
        self.output = output
        self.tally = Tally()
        self.began = time.monotonic()
        self.me = os.getpid()
        self.proc = None
        self.pipe = None
        self.partial = b""
        self.returncode = None  # COMMAND's, as subprocess gives it: negative for a signal
        self.exited_at = None
        self.killed_here = False  # COMMAND was still running when everything was ended
        self.watched = {}  # test processes seen: pid -> start time (a pid may be used again)
        self.test_gone_since = None
        self.test_status = None  # how a test process ended, when it was ours to reap
        self.received = None  # the signal this runner received
        self.over_limit = False
        self.output_held = False
        self.last_scan = 0

    # Starting, reading, watching.

    def start(self):
        self.proc = subprocess.Popen(
            self.command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.pipe = self.proc.stdout

    def on_signal(self, number, _frame):
        self.received = self.received or number

    def watch_until_end(self):
        """Copies the output until COMMAND has returned and its output closed (None), or a reason to end."""
        while True:
            self.pump(CHECK_EVERY)
            self.reap()
            if self.returncode is not None and self.pipe is None:
                return None
            now = time.monotonic()
            if now - self.last_scan >= CHECK_EVERY:
                self.last_scan = now
                self.scan(now)
            if reason := self.reason_to_end(now):
                return reason

    def pump(self, timeout):
        """Copies what the pipe has within timeout; closes it at its end."""
        if self.pipe is None:  # then only COMMAND's end is awaited: look for it more often
            time.sleep(min(timeout, 0.05))
            return
        ready, _, _ = select.select([self.pipe], [], [], timeout)
        if not ready:
            return
        data = os.read(self.pipe.fileno(), 65536)
        if data:
            self.feed(data)
        else:
            self.close_pipe()

    def feed(self, data):
        lines, newline, self.partial = (self.partial + data).rpartition(b"\n")
        if len(self.partial) > 65536:  # a line that long is shown as it is
            lines, newline, self.partial = lines + newline + self.partial, b"\n", b""
        if newline:
            self.output.write(lines + newline)
            for line in lines.split(b"\n"):
                self.tally.read(line.decode("utf-8", "replace"))

    def close_pipe(self):
        if self.partial:
            self.feed(b"\n")
        if self.pipe is not None:
            self.pipe.close()
            self.pipe = None

    def reap(self):
        """Collects every child of ours that has ended: COMMAND, and the orphans re-parented to us."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            code = os.waitstatus_to_exitcode(status)
            if pid == self.proc.pid:
                self.returncode = self.proc.returncode = code
                self.exited_at = time.monotonic()
            elif pid in self.watched:
                self.test_status = code

    def scan(self, now):
        """Notes the test processes among our descendants, and since when none is alive."""
        table = process_table()
        for pid in descendants(table, self.me):
            if pid not in self.watched and table[pid].state != "Z" and self.watch.search(command_line(pid)):
                self.watched[pid] = table[pid].start
        if self.alive_tests(table):
            self.test_gone_since = None
        elif (self.watched or self.tally.began) and self.test_gone_since is None:
            # Its output is proof enough that a test process ran: one that crashes within a
            # scan's interval is never seen in the process table.
            self.test_gone_since = now

    def alive_tests(self, table):
        return [
            pid
            for pid, start in self.watched.items()
            if pid in table and table[pid].start == start and table[pid].state != "Z"
        ]

    def reason_to_end(self, now):
        if self.received:
            return f"the test runner received {signal_name(self.received)}"
        if now - self.began >= self.limit:
            self.over_limit = True
            return f"the tests ran over the limit of {self.limit:g} s"
        if self.returncode is None and self.test_gone_since and now - self.test_gone_since >= self.grace:
            return f"the test process is gone and {self.name} has not returned {self.grace:g} s later"
        if self.returncode is not None and self.pipe is not None and now - self.exited_at >= self.grace:
            self.output_held = True  # a leftover's doing, shown and killed: COMMAND's verdict stands
            return f"{self.name} returned, but {self.grace:g} s later its output is still held open"
        return None

    # Ending.

    def end_everything(self, reason):
        self.output.say(f"== {reason}")
        self.reap()
        self.killed_here = self.returncode is None
        try:
            self.print_stacks()
            self.print_forest()
        except Exception:  # the diagnosis is a bonus; the killing below is not
            self.output.say("== could not describe the processes: " + traceback.format_exc(limit=1).strip())
        finally:
            self.kill_descendants()
            self.drain()

    def print_stacks(self):
        table = process_table()
        targets = sorted(self.alive_tests(table), key=lambda pid: table[pid].start)[:1]  # the first started
        if not self.watched and self.returncode is None:
            targets = [self.proc.pid]
        if not targets:
            return
        gdb = shutil.which("gdb")
        if not gdb:
            self.output.say("== gdb is not installed: no stacks")
            return
        pid = targets[0]
        self.output.say(f"== the threads of {pid} ({command_line(pid, table)[:200]}):")
        try:
            result = subprocess.run(
                [gdb, "-p", str(pid), "-batch", "-ex", "thread apply all bt"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                timeout=GDB_TIMEOUT,
                env={**os.environ, "DEBUGINFOD_URLS": ""},
            )
            text = result.stdout
        except subprocess.TimeoutExpired as timeout:
            text = timeout.stdout or b""
            self.output.say(f"== gdb did not finish in {GDB_TIMEOUT} s")
        lines = [line for line in text.decode("utf-8", "replace").splitlines() if re.match(r"(Thread|#)", line)]
        for line in lines[:600]:
            self.output.say(line[:240])

    def print_forest(self):
        table = process_table()
        mine = descendants(table, self.me)
        if not mine:
            self.output.say("== no process of the tests is left")
            return
        with open("/proc/uptime") as file:
            uptime = float(file.read().split()[0])
        self.output.say("== the processes of the tests (pid, parent, elapsed, state, command):")

        def show(pid, depth):
            proc = table[pid]
            elapsed = clock(uptime - proc.start / TICKS)
            line = f"{pid:>7} {proc.ppid:>7} {elapsed:>9} {proc.state} {'  ' * depth}{command_line(pid, table)}"
            self.output.say(line[:200])
            for child in mine:
                if table[child].ppid == pid:
                    show(child, depth + 1)

        for pid in mine:
            if table[pid].ppid == self.me:
                show(pid, 0)

    def kill_descendants(self):
        """SIGKILL to every descendant and its process group, again, until /proc shows none (bounded)."""
        deadline = time.monotonic() + KILL_BOUND
        own_group = os.getpgrp()
        while True:
            self.reap()
            table = process_table()
            mine = descendants(table, self.me)
            if not mine:
                return
            if time.monotonic() > deadline:
                self.output.say(f"== still there after {KILL_BOUND} s: {' '.join(map(str, mine))}")
                return
            ours = set(mine)
            groups = {table[pid].pgid for pid in mine} - {own_group}
            for group in groups:
                if all(pid in ours for pid, proc in table.items() if proc.pgid == group):
                    try:
                        os.killpg(group, signal.SIGKILL)
                    except OSError:
                        pass
            for pid in mine:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.05)

    def drain(self):
        """Copies what is left in the pipe once its writers are dead (bounded), then closes it."""
        deadline = time.monotonic() + 2
        while self.pipe is not None and time.monotonic() < deadline:
            self.pump(0.2)
        self.close_pipe()

    def kill_leftovers(self):
        table = process_table()
        left = [pid for pid in descendants(table, self.me) if table[pid].state != "Z"]
        if left:
            self.output.say("== left running after the tests:")
            for pid in left:
                self.output.say(f"{pid:>7} {command_line(pid, table)}"[:200])
        self.kill_descendants()

    # The verdict.

    def exit_status(self, reason):
        if self.received:
            return 128 + self.received
        if self.over_limit:
            return 124
        if (reason and not self.output_held) or self.returncode != 0:
            return self.returncode if self.returncode and self.returncode > 0 else 1
        if not (self.tally.total or self.tally.passed or self.tally.failed):
            print("no test ran", file=sys.stderr, flush=True)
            return 1
        return 0

    def how_it_ended(self):
        if self.killed_here:
            text = f"== {self.name} was still running and was killed here"
        elif self.returncode is None:
            text = f"== {self.name} did not end"
        elif self.returncode < 0:
            text = f"== {self.name} was killed by {signal_name(-self.returncode)}"
        else:
            text = f"== {self.name} exited with status {self.returncode}"
        if self.test_status is not None and self.test_status < 0:
            text += f"; the test process was killed by {signal_name(-self.test_status)}"
        elif self.test_status is not None:
            text += f"; the test process exited with status {self.test_status}"
        return text

    def summary(self, reason):
        """Prints how it ended and, last, `N passed, M failed`; returns the exit status."""
        status = self.exit_status(reason)
        tally = self.tally
        if status != 0:
            self.output.say(self.how_it_ended())
        if tally.total is not None and (not reason or self.output_held):
            passed, failed = tally.total - tally.failed, tally.failed
        else:
            running = sorted(tally.running.elements())
            if running:
                self.output.say("== the test process ended while these tests were running:")
                for name in running:
                    self.output.say(f"   {name}")
            elif reason or status != 0:
                self.output.say("== the test process ended with no test running")
            passed, failed = tally.passed, tally.failed + len(running)
        if status != 0:
            failed = max(failed, 1)
        self.output.say(f"{passed} passed, {failed} failed")
        return status


def parse_arguments():
    parser = argparse.ArgumentParser(
        usage="%(prog)s [--limit SECONDS] [--grace SECONDS] [--watch REGEX] [--log FILE] -- COMMAND [ARGS...]",
        description="Runs a test command, ends it if it hangs, prints a verdict (see the file's docstring).",
    )
    parser.add_argument(
        "--limit",
        type=float,
        default=os.environ.get("GATEHOUSE_TEST_LIMIT_SECONDS") or "1200",
        help="wall-clock limit in seconds (default: $GATEHOUSE_TEST_LIMIT_SECONDS, else 1200)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=20.0,
        help="seconds for COMMAND to return once the test process is gone (default 20)",
    )
    parser.add_argument(
        "--watch",
        type=re.compile,
        default=r"^\S*\.xctest(\s|$)",
        help=r"the test process's command line (default: ^\S*\.xctest(\s|$), the program's name)",
    )
    parser.add_argument("--log", help="also write the output to this file")
    parser.add_argument("command", nargs="+", metavar="COMMAND", help="the test command and its arguments")
    return parser.parse_args()


def main():
    args = parse_arguments()
    output = Output(args.log)
    try:
        become_subreaper()
    except OSError as error:
        output.say(f"== not a child subreaper ({error}): orphans in groups of their own may escape the end")
    runner = Runner(args, output)
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, runner.on_signal)
    try:
        runner.start()
    except OSError as error:
        output.say(f"== cannot run {runner.name}: {error}")
        output.say("0 passed, 1 failed")
        return 127
    try:
        reason = runner.watch_until_end()
    except Exception:
        reason = "the test runner failed: " + traceback.format_exc().strip()
    try:
        if reason:
            runner.end_everything(reason)
        else:
            runner.kill_leftovers()
    except Exception:
        reason = reason or "the test runner failed"
        output.say("== the test runner failed while ending the tests: " + traceback.format_exc().strip())
    finally:
        if runner.returncode is None:  # whatever failed above, COMMAND's group does not outlive this runner
            try:  # (not reaped yet, its pid, and so its group's id, cannot be anyone else's)
                os.killpg(runner.proc.pid, signal.SIGKILL)
            except OSError:
                pass
    return runner.summary(reason)


if __name__ == "__main__":
    sys.exit(main())
