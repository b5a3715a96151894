#!/usr/bin/env python3
"""moto_server (pip install "moto[server]") on a free loopback port, for the tests: prints the
port on its first line, and exits when the process that started it is gone, so no test run
leaves one behind."""
import os
import socket
import sys
import threading
import time

parent = os.getppid()


def watch_parent():
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
print(port, flush=True)
threading.Thread(target=watch_parent, daemon=True).start()

from moto.server import main  # noqa: E402  (imported after the port is out: it takes a second)

main(["-H", "127.0.0.1", "-p", str(port)])
