#!/usr/bin/env python3
"""A slow stand-in for AWS's regional endpoints: moto_server behind TLS, with the latency a
deployed function sees, and a log of every call, for measuring deployed-style cold starts
(`Benchmarks/deployed-cold-start.py` runs it; it can also run alone).

    .build/venv/bin/python Benchmarks/aws-stand-in.py --state-dir /tmp/stand-in \\
        [--connect-delay-ms 20] [--request-delay-ms 8] [--jwks-file jwks.json]

What it starts:
  - moto_server (plain HTTP on a free loopback port; `Tests/Support/Moto/moto_server.py`, so the
    Python running this script needs `moto[server]`), in a process group of its own.
  - One TLS listener on 127.0.0.1 per endpoint it stands in for (`--listeners`, by default
    ssm, secretsmanager, dynamodb and api), each on its own port, so that a client keeps one
    connection per service as it would against AWS's hosts. Each listener forwards every
    request to moto, except `--jwks-path` (`/.well-known/jwks.json`), which it answers itself
    with the file `--jwks-file` (read at each request, so it may be written after the start):
    "API Gateway → the Jwks function", without Jwks's own cold start, which the real chain adds.
  - Latency: `--connect-delay-ms` once per new connection, before the TLS handshake (what DNS, TCP
    and TLS round trips to a regional endpoint cost a function in Lambda), and
    `--request-delay-ms` per request, before it is forwarded. The handshake itself is real.

What it writes to `--state-dir`: `ca.pem` (its own CA: trust it with SSL_CERT_FILE),
`server.pem` / `server-key.pem` (127.0.0.1 and localhost), `endpoints.json` (each listener's
https URL and moto's own http URL, for seeding without latency), and `calls.jsonl` (or `--log`):
one JSON line per new connection (`"kind": "connection"`) and per request (`"kind": "request"`):
time, listener, connection number, service (from `x-amz-target`, else the SigV4 credential
scope; `api` for the JWKS route), operation, method, path, status, and `moto_ms`: how long moto
itself took (the part of a call's time that is the emulator's, not the added latency).

When every listener is up it prints `endpoints.json`'s content as one line on stdout. It stops
on SIGTERM or SIGINT, or when its standard input closes with `--exit-on-stdin-close`, and
then ends moto's whole process group.
"""

import argparse
import datetime
import http.client
import http.server
import ipaddress
import json
import os
import re
import signal
import socket
import socketserver
import ssl
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Headers that belong to one hop, not to the request or response forwarded.
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
              "content-length"}
# x-amz-target prefixes of the JSON-protocol services the functions call.
TARGET_SERVICES = {"AmazonSSM": "ssm", "secretsmanager": "secretsmanager", "DynamoDB_20120810": "dynamodb",
                   "AWSKMS": "kms", "AWSCognitoIdentityProviderService": "cognito-idp"}
SCOPE = re.compile(r"Credential=[^/]+/\d{8}/[^/]+/([^/]+)/aws4_request")


def make_certificates(directory):
    """A CA and a server certificate for 127.0.0.1 and localhost, signed by it (RSA 2048, as
    AWS's endpoints mostly present). Returns the paths of the CA, the chain and the key."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Gatehouse AWS stand-in CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    server = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
              .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=2))
              .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                          x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                             critical=False)
              .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
              .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
              .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
              .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    paths = {name: os.path.join(directory, name) for name in ("ca.pem", "server.pem", "server-key.pem")}
    with open(paths["ca.pem"], "wb") as file:
        file.write(ca.public_bytes(pem))
    with open(paths["server.pem"], "wb") as file:
        file.write(server.public_bytes(pem) + ca.public_bytes(pem))
    with open(os.open(paths["server-key.pem"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as file:
        file.write(key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return paths["ca.pem"], paths["server.pem"], paths["server-key.pem"]


class CallLog:
    """The JSON lines log, written whole line by whole line from every thread."""

    def __init__(self, path):
        self.file = open(path, "a", buffering=1)
        self.lock = threading.Lock()
        self.connections = 0

    def next_connection(self):
        with self.lock:
            self.connections += 1
            return self.connections

    def write(self, record):
        line = json.dumps(record, separators=(",", ":"))
        with self.lock:
            self.file.write(line + "\n")

    def close(self):
        with self.lock:
            self.file.close()


def service_and_operation(headers, path):
    """Which AWS service and operation a request is: the JSON protocols' `x-amz-target`
    (`AmazonSSM.GetParameter`), else the SigV4 credential scope's service and the path."""
    target = headers.get("x-amz-target")
    if target and "." in target:
        prefix, operation = target.rsplit(".", 1)
        return TARGET_SERVICES.get(prefix, prefix), operation
    match = SCOPE.search(headers.get("authorization", ""))
    return (match.group(1) if match else "unknown"), path.split("?", 1)[0]


class StandInServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    """One listener: TLS on 127.0.0.1, a thread per connection."""
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, name, settings):
        self.name = name
        self.settings = settings
        super().__init__(("127.0.0.1", 0), StandInHandler)

    def finish_request(self, request, client_address):
        # The connection's latency and its TLS handshake, on the connection's own thread (the
        # accepting thread never waits). The handshake happens here, before any request.
        number = self.settings.log.next_connection()
        started = time.time()
        time.sleep(self.settings.connect_delay)
        request.settimeout(60)
        # No Nagle: a response's last segment must not wait for the client's delayed ACK (40 ms).
        request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            request = self.settings.tls.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError) as error:
            self.settings.log.write({"kind": "connection", "t": started, "listener": self.name, "conn": number,
                                     "error": str(error)})
            return
        self.settings.log.write({"kind": "connection", "t": started, "listener": self.name, "conn": number,
                                 "tls": request.version()})
        request.connection_number = number
        try:
            self.RequestHandlerClass(request, client_address, self)
        finally:
            try:
                request.close()
            except OSError:
                pass


class StandInHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as libcurl expects
    wbufsize = 1 << 16  # the head and the body of a response in one write (flushed after each)

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass

    def setup(self):
        super().setup()
        self.connection_number = getattr(self.request, "connection_number", 0)
        self.moto = None

    def finish(self):
        super().finish()
        if self.moto is not None:
            self.moto.close()

    def read_body(self):
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("content-length", "0") or "0")
        return self.rfile.read(length) if length else b""

    def handle_any(self):
        settings = self.server.settings
        started = time.time()
        body = self.read_body()
        time.sleep(settings.request_delay)
        headers = {name.lower(): value for name, value in self.headers.items()}
        path = self.path.split("?", 1)[0]
        if settings.jwks_path and path == settings.jwks_path and self.command in ("GET", "HEAD"):
            service, operation = "api", f"{self.command} {path}"
            status, answer_headers, answer = self.jwks()
            upstream = 0.0
        else:
            service, operation = service_and_operation(headers, self.path)
            forwarded = time.perf_counter()
            status, answer_headers, answer = self.forward(body)
            upstream = round((time.perf_counter() - forwarded) * 1000, 2)
        settings.log.write({"kind": "request", "t": started, "listener": self.server.name,
                            "conn": self.connection_number, "service": service, "operation": operation,
                            "method": self.command, "path": path, "status": status, "moto_ms": upstream})
        self.send_response(status)
        for name, value in answer_headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(answer)

    def jwks(self):
        try:
            with open(self.server.settings.jwks_file, "rb") as file:
                document = file.read()
        except (OSError, TypeError):
            return 404, [("Content-Type", "application/json")], b'{"message":"Not Found"}'
        return 200, [("Content-Type", "application/json"), ("Cache-Control", "public, max-age=300")], document

    def forward(self, body):
        """The request to moto on this connection's own kept-alive connection to it."""
        for attempt in range(2):
            if self.moto is None:
                self.moto = http.client.HTTPConnection("127.0.0.1", self.server.settings.moto_port, timeout=60)
            try:
                headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
                headers["Content-Length"] = str(len(body))
                self.moto.request(self.command, self.path, body=body, headers=headers)
                response = self.moto.getresponse()
                answer = response.read()
                kept = [(name, value) for name, value in response.getheaders() if name.lower() not in HOP_BY_HOP
                        and name.lower() not in ("server", "date")]
                if response.will_close:
                    self.moto.close()
                    self.moto = None
                return response.status, kept, answer
            except (http.client.HTTPException, OSError):
                self.moto.close()
                self.moto = None
                if attempt == 1:
                    return 502, [("Content-Type", "text/plain")], b"the stand-in could not reach moto_server"

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = handle_any


class Settings:
    def __init__(self, arguments, tls, log, moto_port):
        self.connect_delay = arguments.connect_delay_ms / 1000
        self.request_delay = arguments.request_delay_ms / 1000
        self.jwks_path = arguments.jwks_path
        self.jwks_file = arguments.jwks_file
        self.tls = tls
        self.log = log
        self.moto_port = moto_port


def start_moto():
    """moto_server in a process group of its own (so all of it can be ended at once); its port."""
    process = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "Tests/Support/Moto/moto_server.py")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True,
        start_new_session=True)
    port = int(process.stdout.readline())
    deadline = time.time() + 60
    while True:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/moto-api/")
            connection.getresponse().read()
            connection.close()
            return process, port
        except OSError:
            if time.time() > deadline or process.poll() is not None:
                stop_moto(process)
                raise RuntimeError("moto_server did not start")
            time.sleep(0.1)


def stop_moto(process):
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--state-dir", required=True, help="where the certificates, endpoints.json and the log go")
    parser.add_argument("--connect-delay-ms", type=float, default=20.0, help="added once per new connection")
    parser.add_argument("--request-delay-ms", type=float, default=8.0, help="added to every request")
    parser.add_argument("--listeners", default="ssm,secretsmanager,dynamodb,api",
                        help="one TLS port each (comma-separated names)")
    parser.add_argument("--jwks-path", default="/.well-known/jwks.json", help="the path answered with --jwks-file")
    parser.add_argument("--jwks-file", help="the JWKS document to serve (read at each request)")
    parser.add_argument("--log", help="the call log (default: STATE_DIR/calls.jsonl)")
    parser.add_argument("--exit-on-stdin-close", action="store_true",
                        help="stop when standard input reaches its end (the caller is gone)")
    arguments = parser.parse_args()

    os.makedirs(arguments.state_dir, exist_ok=True)
    _, chain, key = make_certificates(arguments.state_dir)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.minimum_version = ssl.TLSVersion.TLSv1_2
    tls.load_cert_chain(chain, key)
    tls.set_alpn_protocols(["http/1.1"])
    log = CallLog(arguments.log or os.path.join(arguments.state_dir, "calls.jsonl"))

    moto, moto_port = start_moto()
    servers = []
    stopping = threading.Event()

    def stop(*_):
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        settings = Settings(arguments, tls, log, moto_port)
        endpoints = {"moto": f"http://127.0.0.1:{moto_port}"}
        for name in [name.strip() for name in arguments.listeners.split(",") if name.strip()]:
            server = StandInServer(name, settings)
            threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
            servers.append(server)
            endpoints[name] = f"https://127.0.0.1:{server.server_address[1]}"
        with open(os.path.join(arguments.state_dir, "endpoints.json"), "w") as file:
            json.dump(endpoints, file)
        print(json.dumps(endpoints), flush=True)
        if arguments.exit_on_stdin_close:
            def watch_stdin():
                # os.read, not sys.stdin: a buffered reader's lock held here would abort the
                # interpreter's shutdown.
                while os.read(0, 4096):
                    pass
                stopping.set()
            threading.Thread(target=watch_stdin, daemon=True).start()
        while not stopping.wait(0.5):
            if moto.poll() is not None:
                print("aws-stand-in: moto_server exited", file=sys.stderr)
                break
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
        stop_moto(moto)
        log.close()


if __name__ == "__main__":
    main()
