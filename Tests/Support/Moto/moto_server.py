#!/usr/bin/env python3
"""moto_server (pip install "moto[server]") on a free loopback port, for the tests: prints the
port on its first line, and exits when the process that started it is gone, so no test run
leaves one behind.

The server binds port 0 itself and the port is printed only once it listens. (It used to take a
free port from a probe socket, close it, import moto for a second and bind then: in that second
another test's server could take the port, and the tests, which wait for the port to accept,
spoke to that server instead: "CreateTable on Counters failed: 404".)"""
import os
import time

from moto.moto_server.threaded_moto_server import ThreadedMotoServer

parent = os.getppid()
server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
port = server.get_host_and_port()[1]
# As moto's own main sets it: the port some services put in the URLs they answer with.
os.environ["MOTO_PORT"] = str(port)
print(port, flush=True)

while os.getppid() == parent:
    time.sleep(0.5)
os._exit(0)
