#!/usr/bin/env python3
"""Deployed-style cold starts against a slow AWS stand-in: each function binary started with
the environment its template gives it deployed (no ISSUER, no key file: the SSM parameters,
the secrets and the DynamoDB tables the stack would have), its AWS calls going over TLS to
`Benchmarks/aws-stand-in.py` (moto_server behind added latency), timed from spawn to its
first response, with the outbound calls each cold start makes counted from the stand-in's log.

    .build/venv/bin/python Benchmarks/deployed-cold-start.py \\
        --set before=/work/bench-before/bin:/work/bench-before/template.json \\
        [--set after=DIR:TEMPLATE ...] \\
        [--functions Authorizer,UserProfile,Exchange,Refresh,Jwks] [--runs 10] \\
        [--connect-delay-ms 20] [--request-delay-ms 8] [--show-env]

A set is a folder of release function binaries (DIR/NAME or DIR/NAME/bootstrap) and the
template.json of the same version. The Python running this needs moto[server], boto3 and
cryptography (the project's .build/venv has them). It builds, in release, the `gatehouse` CLI
(to make the keys and the store's rows, as a deploy and a sign-in would) and the Benchmarks
package's `cold-start` (which runs each binary through the emulator's invoker, with
`--deployed`), unless `--no-build`.

What it does:
  1. Starts the stand-in and seeds moto the way a deploy does: a key set (`gatehouse keys
     generate`) in the Secrets Manager secret `gatehouse/signing-keys` (SigningKeysSecret is its
     ARN), its public half published with `gatehouse keys publish --stack-name STACK`; then
     what the sets' templates declare: every `AWS::DynamoDB::Table` under a physical name like
     CloudFormation's, every generated secret (`OtpSecret`: 64 letters and digits), every
     `AWS::SSM::Parameter` with its resolved value (the issuer's, `/gatehouse/STACK/issuer`:
     https://APIID.execute-api.us-east-1.amazonaws.com, APIID from the sample events, which is
     checked). Then the app `demo` (`gatehouse apps add`).
  2. Builds each function's environment from its set's template as CloudFormation would
     resolve it (Globals then the function's `Environment.Variables`; Ref, Fn::Sub, Fn::GetAtt,
     Fn::If, Fn::Join... with AWS::Region us-east-1, AWS::URLSuffix amazonaws.com, the stack name
     `--stack-name`, the parameters' defaults, ApiBaseUrl empty; `{{resolve:ssm:...}}` and
     `{{resolve:secretsmanager:...}}` read from moto), then adds what Lambda and this
     machine add: AWS_REGION, the role's (fake) credentials, AWS_ENDPOINT_URL_SSM,
     AWS_ENDPOINT_URL_SECRETS_MANAGER and DYNAMODB_ENDPOINT at the stand-in, SSL_CERT_FILE its
     CA, and for the Authorizer JWKS_URL at the stand-in's JWKS route (deployed, the default is
     ISSUER + /.well-known/jwks.json: the API, i.e. the Jwks function; here a static copy of the
     published keys, without Jwks's own cold start; `--no-jwks-url SET` leaves it out for a
     set whose Authorizer gets its keys another way).
  3. Makes each function's event succeed: Exchange gets a fresh auth code (`gatehouse dev
     auth-code`, a new user each time) per cold start; Refresh a fresh refresh token (from an
     unmeasured Exchange of the first set) per cold start; the Authorizer a live access token of
     a live session; UserProfile that user in its authorizer context. Every response is checked
     (2xx; the Authorizer: authorized), and a failure stops the run.
  4. Per function: one unmeasured cold start per set (page cache), then `--runs` rounds, each
     one cold start of every set in turn (before, after, before, after...), so drift hits every
     set alike. Each cold start's outbound calls are the stand-in's log lines timed inside it.

It prints a Markdown table: function | set | outbound calls at cold start (by kind) | new TLS
connections | cold start median | init median, then moto's own time per kind of call; with
--show-env, the names of the variables each function got; with --json FILE, every cold start's
figures and calls. No secret or token is printed. Children (the stand-in and its moto_server,
the tools) and the temporary folder are gone when it ends, by Ctrl-C or SIGTERM too.
"""

import argparse
import collections
import glob
import hashlib
import json
import os
import re
import secrets
import signal
import statistics
import string
import subprocess
import sys
import tempfile
import time

import boto3

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REGION = "us-east-1"
ACCOUNT = "123456789012"  # moto's default account, and the template's example ARNs'
# The role's credentials, as Lambda hands them to a function (fake: moto checks none).
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "ASIAGATEHOUSEBENCH00", "AWS_SECRET_ACCESS_KEY": "gatehouse-bench-not-a-secret",
               "AWS_SESSION_TOKEN": "gatehouse-bench-session"}
# Parameters that have no default and that a deploy must give: the production choices.
DEPLOY_PARAMETERS = {"EmailDelivery": "ses", "SmsDelivery": "sns"}
APP = "demo"
PLAUSIBLE_API_ID = re.compile(r"^[a-z0-9]{10}$")


# --- The template, resolved as CloudFormation would --------------------------------------------

class Stack:
    """One deployed stack's names: parameters, physical ids of resources, attributes."""

    def __init__(self, template, name, parameters, physical, lookup=None):
        self.template = template
        self.lookup = lookup  # (service, reference) -> value: a dynamic reference's, read at deploy
        self.name = name
        self.resources = template.get("Resources", {})
        self.physical = physical  # logical id -> {"Ref": ..., attribute: ...}
        self.parameters = {}
        missing = []
        for key, definition in template.get("Parameters", {}).items():
            if key in parameters:
                self.parameters[key] = parameters[key]
            elif "Default" in definition:
                default = definition["Default"]
                self.parameters[key] = ",".join(default) if isinstance(default, list) else str(default)
            else:
                missing.append(key)
        if missing:
            raise SystemExit(f"the template's parameters {', '.join(missing)} have no default: give them with "
                             f"--parameter NAME=VALUE")
        self.pseudo = {"AWS::Region": REGION, "AWS::URLSuffix": "amazonaws.com", "AWS::StackName": name,
                       "AWS::AccountId": ACCOUNT, "AWS::Partition": "aws",
                       "AWS::StackId": f"arn:aws:cloudformation:{REGION}:{ACCOUNT}:stack/{name}/bench"}

    def ref(self, name):
        if name in self.pseudo:
            return self.pseudo[name]
        if name in self.parameters:
            return self.parameters[name]
        if name in self.physical:
            return self.physical[name]["Ref"]
        raise KeyError(f"Ref {name}: not a parameter, a pseudo parameter or a resource this bench models")

    def get_att(self, name, attribute):
        try:
            return self.physical[name][attribute]
        except KeyError:
            raise KeyError(f"Fn::GetAtt {name}.{attribute}: not modelled") from None

    def condition(self, name):
        return bool(self.resolve(self.template.get("Conditions", {})[name]))

    def sub(self, text, extra):
        def replace(match):
            inner = match.group(1)
            if inner.startswith("!"):
                return "${" + inner[1:] + "}"
            if inner in extra:
                return str(extra[inner])
            if "." in inner and inner.split(".", 1)[0] in self.resources:
                return str(self.get_att(*inner.split(".", 1)))
            return str(self.ref(inner))
        return re.sub(r"\$\{([^}]+)\}", replace, text)

    def resolve(self, value):
        """A template value with its intrinsic functions evaluated; None for AWS::NoValue."""
        if isinstance(value, list):
            return [self.resolve(item) for item in value]
        if not isinstance(value, dict):
            return value
        if len(value) != 1:
            return {key: self.resolve(item) for key, item in value.items()}
        (key, argument), = value.items()
        if key == "Ref":
            return None if argument == "AWS::NoValue" else self.ref(argument)
        if key == "Fn::GetAtt":
            name, attribute = argument.split(".", 1) if isinstance(argument, str) else argument
            return self.get_att(name, attribute)
        if key == "Fn::Sub":
            if isinstance(argument, str):
                return self.sub(argument, {})
            text, variables = argument
            return self.sub(text, {name: self.resolve(item) for name, item in variables.items()})
        if key == "Fn::Join":
            separator, items = argument
            return separator.join(str(item) for item in self.resolve(items) if item is not None)
        if key == "Fn::Select":
            index, items = argument
            return self.resolve(items)[int(self.resolve(index))]
        if key == "Fn::Split":
            separator, text = argument
            return str(self.resolve(text)).split(separator)
        if key == "Fn::If":
            name, then, otherwise = argument
            return self.resolve(then if self.condition(name) else otherwise)
        if key == "Fn::Equals":
            left, right = self.resolve(argument)
            return str(left) == str(right)
        if key == "Fn::Not":
            return not self.resolve(argument[0])
        if key == "Fn::And":
            return all(self.resolve(item) for item in argument)
        if key == "Fn::Or":
            return any(self.resolve(item) for item in argument)
        if key == "Condition":
            return self.condition(argument)
        if key.startswith("Fn::"):
            raise KeyError(f"{key}: not modelled")
        return {key: self.resolve(argument)}

    def function_environment(self, function):
        """The function's Environment.Variables as deployed: Globals', then its own."""
        variables = dict(self.template.get("Globals", {}).get("Function", {}).get("Environment", {})
                         .get("Variables", {}))
        resource = self.resources.get(function)
        if resource is None or resource.get("Type") not in ("AWS::Serverless::Function", "AWS::Lambda::Function"):
            raise SystemExit(f"the template has no function {function}")
        variables.update(resource.get("Properties", {}).get("Environment", {}).get("Variables", {}))
        environment = {}
        for key, value in variables.items():
            resolved = self.resolve(value)
            if resolved is None:
                continue
            text = ("true" if resolved else "false") if isinstance(resolved, bool) else str(resolved)
            environment[key] = self.dynamic_references(text)
        return environment

    def dynamic_references(self, text):
        """`{{resolve:ssm:NAME}}`, `{{resolve:ssm-secure:NAME}}`, `{{resolve:secretsmanager:ID...}}`
        replaced by their values, as CloudFormation reads them when it deploys."""
        def replace(match):
            if self.lookup is None:
                raise KeyError(f"{match.group(0)}: no store to resolve it from")
            return self.lookup(match.group(1), match.group(2))
        return re.sub(r"\{\{resolve:(ssm|ssm-secure|secretsmanager):([^}]+)\}\}", replace, text)


def physical_suffix(stack, logical):
    """A CloudFormation-like random suffix, the same for the same stack and resource."""
    return hashlib.sha256(f"{stack}/{logical}".encode()).hexdigest()[:12].upper()


# --- Processes --------------------------------------------------------------------------------

def run(command, environment=None, timeout=600, check=True):
    process = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=timeout)
    if check and process.returncode != 0:
        raise SystemExit(f"{os.path.basename(command[0])} {' '.join(command[1:3])} failed "
                         f"(exit {process.returncode}):\n{process.stderr[-3000:]}")
    return process


class StandIn:
    """Benchmarks/aws-stand-in.py as a child, stopped (with its moto_server) on `stop`."""

    def __init__(self, directory, connect_delay, request_delay, jwks_file):
        self.directory = directory
        self.log = os.path.join(directory, "calls.jsonl")
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(ROOT, "Benchmarks/aws-stand-in.py"), "--state-dir", directory,
             "--connect-delay-ms", str(connect_delay), "--request-delay-ms", str(request_delay),
             "--jwks-file", jwks_file, "--exit-on-stdin-close"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line:
            self.stop()
            raise SystemExit("the AWS stand-in did not start")
        self.endpoints = json.loads(line)
        self.ca = os.path.join(directory, "ca.pem")

    def calls(self):
        with open(self.log) as file:
            return [json.loads(line) for line in file if line.strip()]

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# --- The bench --------------------------------------------------------------------------------

class Bench:
    def __init__(self, arguments, work):
        self.arguments = arguments
        self.work = work
        self.sets = []
        for entry in arguments.set:
            name, _, rest = entry.partition("=")
            directory, _, template = rest.rpartition(":")
            if not name or not directory or not template:
                raise SystemExit(f"--set {entry}: expected NAME=BIN_DIR:TEMPLATE")
            with open(template) as file:
                self.sets.append({"name": name, "bin": directory, "template_path": os.path.abspath(template),
                                  "template": json.load(file)})
        self.functions = [name.strip() for name in arguments.functions.split(",") if name.strip()]
        self.gatehouse = os.path.join(ROOT, ".build/release/gatehouse")
        self.cold_start = os.path.join(ROOT, "Benchmarks/.build/release/cold-start")
        self.stack_name = arguments.stack_name
        self.api_id = self.find_api_id()
        self.issuer = f"https://{self.api_id}.execute-api.{REGION}.amazonaws.com"
        self.counter = 0
        self.environment_names = {}  # (set, function) -> the names of the variables it got
        self.clients = {}

    # Where things are.

    def binary(self, build, function):
        for path in (os.path.join(build["bin"], function), os.path.join(build["bin"], function, "bootstrap")):
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return os.path.abspath(path)
        raise SystemExit(f"set {build['name']}: no binary for {function} in {build['bin']}")

    @staticmethod
    def event_path(function):
        if function == "Authorizer":
            return os.path.join(ROOT, "events/authorizer-v2.json")
        kebab = re.sub(r"([a-z])([A-Z])", r"\1-\2", function).lower()
        return os.path.join(ROOT, "events", f"{kebab}.json")

    def find_api_id(self):
        """The HTTP API's id, as the sample events' requestContext carries it."""
        found = collections.Counter()
        for path in sorted(glob.glob(os.path.join(ROOT, "events", "*.json"))):
            with open(path) as file:
                api_id = json.load(file).get("requestContext", {}).get("apiId")
            if api_id and PLAUSIBLE_API_ID.match(api_id):
                found[api_id] += 1
            elif api_id:
                print(f"note: {os.path.relpath(path, ROOT)} has apiId {api_id!r}, not an API id's shape "
                      "(10 lower-case letters and digits); the bench gives it the others' id", file=sys.stderr)
        if not found:
            raise SystemExit("no sample event carries a plausible requestContext.apiId")
        return found.most_common(1)[0][0]

    # The deploy.

    def build_tools(self):
        if self.arguments.no_build:
            return
        print("building gatehouse and cold-start (release)...", file=sys.stderr)
        subprocess.run(["swift", "build", "-c", "release", "--product", "gatehouse"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["swift", "build", "-c", "release", "--package-path", "Benchmarks", "--product",
                        "cold-start"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)

    def aws(self, service):
        """A boto3 client of moto itself (no added latency, not in the stand-in's log): the deploy's."""
        if service not in self.clients:
            self.clients[service] = boto3.client(
                service, endpoint_url=self.stand_in.endpoints["moto"], region_name=REGION,
                aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
                aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"])
        return self.clients[service]

    def cli_environment(self):
        environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/root"),
                       "AWS_REGION": REGION, "SIGNING_KEYS_FILE": self.keys_file,
                       "AWS_ENDPOINT_URL_SSM": self.stand_in.endpoints["moto"],
                       "AWS_ENDPOINT_URL_SECRETS_MANAGER": self.stand_in.endpoints["moto"]}
        environment.update(CREDENTIALS)
        environment.update({f"TABLE_{logical}": name for logical, name in self.table_names.items()})
        return environment

    def cli(self, *arguments):
        store = ["--store", "dynamodb", "--dynamodb-endpoint", self.stand_in.endpoints["moto"],
                 "--template", self.sets[0]["template_path"]]
        return run([self.gatehouse, *arguments, *store], self.cli_environment()).stdout.strip()

    def deploy(self):
        """Moto seeded as `sam deploy` and the deploy steps of docs/packaging-and-deploy.md leave it."""
        self.table_names = {}  # logical id -> physical name (the CLI's TABLE_<LogicalId>)
        self.keys_file = os.path.join(self.work, "signing-keys.json")
        self.jwks_file = os.path.join(self.work, "jwks.json")
        self.stand_in = StandIn(os.path.join(self.work, "stand-in"), self.arguments.connect_delay_ms,
                                self.arguments.request_delay_ms, self.jwks_file)
        run([self.gatehouse, "keys", "generate"], {"PATH": os.environ.get("PATH", ""),
                                                   "SIGNING_KEYS_FILE": self.keys_file})
        secretsmanager, ssm, dynamodb = self.aws("secretsmanager"), self.aws("ssm"), self.aws("dynamodb")
        with open(self.keys_file) as file:
            signing_keys = secretsmanager.create_secret(Name="gatehouse/signing-keys", SecretString=file.read())
        # The public keys where Jwks reads them, as `gatehouse keys publish` writes them (before the
        # deploy, as the deploy steps have it); the stand-in's JWKS route serves the same document
        # (API Gateway → Jwks, without Jwks's own cold start).
        run([self.gatehouse, "keys", "publish", "--stack-name", self.stack_name], self.cli_environment())
        public = ssm.get_parameter(Name=f"/gatehouse/{self.stack_name}/public-keys")["Parameter"]["Value"]
        with open(self.jwks_file, "w") as file:
            file.write(public)
        # The tables, and the physical ids of every resource the functions' environments may name.
        physical = {}
        for build in self.sets:
            for logical, resource in build["template"].get("Resources", {}).items():
                kind = resource.get("Type")
                properties = resource.get("Properties", {})
                suffix = physical_suffix(self.stack_name, logical)
                if kind == "AWS::DynamoDB::Table" and logical not in self.table_names:
                    name = properties.get("TableName") or f"{self.stack_name}-{logical}-{suffix}"
                    self.table_names[logical] = name
                    self.create_table(dynamodb, name, properties)
                    physical[logical] = {"Ref": name, "Arn": f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}"}
                elif kind in ("AWS::Serverless::Function", "AWS::Lambda::Function"):
                    name = f"{self.stack_name}-{logical}-{suffix}"
                    physical[logical] = {"Ref": name, "Arn": f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{name}"}
                elif kind in ("AWS::Serverless::HttpApi", "AWS::ApiGatewayV2::Api"):
                    physical[logical] = {"Ref": self.api_id, "ApiId": self.api_id, "ApiEndpoint": self.issuer}
                elif kind == "AWS::SSM::Parameter" and isinstance(properties.get("Name"), (str, dict)):
                    physical[logical] = {"Ref": None}  # filled below, once the stack can resolve names
                elif kind == "AWS::SecretsManager::Secret" and logical not in physical:
                    # A generated secret (OtpSecret: 64 letters and digits), named as CloudFormation names it.
                    arn = secretsmanager.create_secret(Name=f"{logical}-{suffix}",
                                                       SecretString=generated_secret(properties))["ARN"]
                    physical[logical] = {"Ref": arn, "Id": arn}
        parameters = dict(DEPLOY_PARAMETERS, ApiBaseUrl="", SigningKeysSecret=signing_keys["ARN"])
        parameters.update(dict(item.split("=", 1) for item in self.arguments.parameter))
        # The stack's own SSM parameters (the issuer's: the API's URL without a custom domain), as
        # each set's template resolves them; a name two sets share is written once.
        for build in self.sets:
            stack = Stack(build["template"], self.stack_name, parameters, dict(physical), self.dynamic_reference)
            for logical, resource in build["template"]["Resources"].items():
                if resource.get("Type") == "AWS::SSM::Parameter" and logical in stack.physical:
                    properties = resource["Properties"]
                    name, value = stack.resolve(properties["Name"]), stack.resolve(properties["Value"])
                    kind = stack.resolve(properties.get("Type", "String"))
                    stack.physical[logical] = {"Ref": name, "Type": kind, "Value": value}
                    try:
                        ssm.put_parameter(Name=name, Value=value, Type=kind)
                    except ssm.exceptions.ParameterAlreadyExists:
                        pass
            build["stack"] = stack
        issuer = ssm.get_parameter(Name=f"/gatehouse/{self.stack_name}/issuer")["Parameter"]["Value"]
        if issuer != self.issuer:
            raise SystemExit(f"the issuer's parameter holds {issuer}, not the API's URL {self.issuer}")
        self.cli("apps", "add", "--id", APP, "--name", "Bench", "--base-url", "https://app.example.com")

    def dynamic_reference(self, service, reference):
        if service in ("ssm", "ssm-secure"):
            name, _, version = reference.partition(":")
            return self.aws("ssm").get_parameter(Name=f"{name}:{version}" if version else name,
                                                 WithDecryption=True)["Parameter"]["Value"]
        parts = reference.split(":")
        secret_id, rest = (":".join(parts[:7]), parts[7:]) if reference.startswith("arn:") else (parts[0], parts[1:])
        value = self.aws("secretsmanager").get_secret_value(SecretId=secret_id)["SecretString"]
        key = rest[1] if len(rest) > 1 and rest[1] else None
        return str(json.loads(value)[key]) if key else value

    @staticmethod
    def create_table(dynamodb, name, properties):
        request = {"TableName": name, "AttributeDefinitions": properties["AttributeDefinitions"],
                   "KeySchema": properties["KeySchema"], "BillingMode": properties.get("BillingMode", "PAY_PER_REQUEST")}
        for key in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes", "StreamSpecification"):
            if key in properties:
                request[key] = properties[key]
        dynamodb.create_table(**request)
        ttl = properties.get("TimeToLiveSpecification")
        if ttl and ttl.get("Enabled"):
            dynamodb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl)

    # One function's environment and one cold start.

    def environment(self, build, function):
        variables = build["stack"].function_environment(function)
        variables.update(CREDENTIALS)
        variables.update({
            "AWS_REGION": REGION, "AWS_DEFAULT_REGION": REGION,
            "AWS_ENDPOINT_URL_SSM": self.stand_in.endpoints["ssm"],
            "AWS_ENDPOINT_URL_SECRETS_MANAGER": self.stand_in.endpoints["secretsmanager"],
            "DYNAMODB_ENDPOINT": self.stand_in.endpoints["dynamodb"],
            "SSL_CERT_FILE": self.stand_in.ca,
        })
        if function == "Authorizer" and build["name"] not in self.arguments.no_jwks_url:
            # Deployed: ISSUER + /.well-known/jwks.json, the API's route to Jwks. Here: the
            # stand-in's copy of the published keys, with the same latency.
            variables["JWKS_URL"] = self.stand_in.endpoints["api"] + self.arguments.jwks_path
        return variables

    def cold_start_once(self, build, function, event):
        """One cold start through `cold-start --deployed`: (result, start, end) with the tool's
        figures and the checked response."""
        self.counter += 1
        event_file = os.path.join(self.work, f"event-{self.counter}.json")
        response_file = os.path.join(self.work, f"response-{self.counter}.json")
        with open(event_file, "w") as file:
            json.dump(event, file)
        command = [self.cold_start, "--deployed", "--template", self.skeleton(build, function), "--function", function,
                   "--binary", self.binary(build, function), "--event", event_file, "--runs", "1", "--warmups", "0",
                   "--response-file", response_file]
        environment = self.environment(build, function)
        self.environment_names[(build["name"], function)] = sorted(environment)
        for name, value in sorted(environment.items()):
            command += ["--env", f"{name}={value}"]
        started = time.time()
        process = subprocess.run(command, capture_output=True, text=True, timeout=300)
        ended = time.time()
        os.unlink(event_file)
        if process.returncode != 0:
            raise SystemExit(f"{function} ({build['name']}) failed its cold start:\n{process.stderr[-3000:]}")
        with open(response_file) as file:
            response = json.load(file)
        os.unlink(response_file)
        check_response(function, build["name"], response)
        figures = {}
        for line in process.stdout.splitlines():
            if line.startswith("cold start median"):
                figures["cold"] = float(line.split()[3])
            elif line.startswith("init median"):
                figures["init"] = float(line.split()[2])
        return figures, response, started, ended

    def skeleton(self, build, function):
        """The function alone, without its environment (which `--env` gives) or events: all that
        `cold-start --deployed` reads of a template is its name, handler, memory and timeout, and
        the emulator's template reader need not know an intrinsic a new template uses."""
        path = os.path.join(self.work, f"skeleton-{build['name']}-{function}.json")
        if not os.path.exists(path):
            template = build["template"]
            globals_ = {key: value for key, value in template.get("Globals", {}).get("Function", {}).items()
                        if key in ("Runtime", "Handler", "MemorySize", "Timeout", "Architectures")}
            properties = {key: value for key, value in template["Resources"][function]["Properties"].items()
                          if key in ("Runtime", "Handler", "MemorySize", "Timeout", "Architectures", "CodeUri")}
            with open(path, "w") as file:
                json.dump({"AWSTemplateFormatVersion": "2010-09-09", "Transform": "AWS::Serverless-2016-10-31",
                           "Globals": {"Function": globals_},
                           "Resources": {function: {"Type": "AWS::Serverless::Function", "Properties": properties}}},
                          file)
        return path

    # What each function's event needs.

    def auth_code(self):
        self.counter += 1
        return self.cli("dev", "auth-code", "--app", APP, "--email", f"bench-{self.counter}@example.com",
                        "--name", "Bench User")

    def session(self):
        """A new user's session, through the first set's Exchange (unmeasured): the JSON."""
        event = load_event(self.event_path("Exchange"))
        event["body"] = json.dumps({"code": self.auth_code(), "app": APP})
        _, response, _, _ = self.cold_start_once(self.sets[0], "Exchange", self.rooted(event))
        return json.loads(response["body"])

    def rooted(self, event):
        """The event as the stack's API sends it: its id and domain."""
        context = event.setdefault("requestContext", {})
        context["apiId"] = self.api_id
        domain = f"{self.api_id}.execute-api.{REGION}.amazonaws.com"
        if "domainName" in context:
            context["domainName"] = domain
            context["domainPrefix"] = self.api_id
        if isinstance(event.get("headers"), dict) and "host" in event["headers"]:
            event["headers"]["host"] = domain
        if "routeArn" in event:
            event["routeArn"] = re.sub(r"(:execute-api:[^:]+:\d+:)[^/]+", r"\g<1>" + self.api_id, event["routeArn"])
        return event

    def event_maker(self, function):
        """A function that gives a fresh, answerable event for each cold start of `function`."""
        base = load_event(self.event_path(function))
        if function == "Exchange":
            def make():
                event = json.loads(json.dumps(base))
                event["body"] = json.dumps({"code": self.auth_code(), "app": APP})
                return self.rooted(event)
            return make
        if function == "Refresh":
            def make():
                event = json.loads(json.dumps(base))
                event["body"] = json.dumps({"refreshToken": self.session()["refreshToken"]})
                return self.rooted(event)
            return make
        if function in ("Authorizer", "UserProfile"):
            state = {}

            def make():
                # An access token lives 300 s on a dev stage: a new session every two minutes.
                if not state or time.time() - state["at"] > 120:
                    state.update(self.session(), at=time.time())
                event = json.loads(json.dumps(base))
                if function == "Authorizer":
                    bearer = f"Bearer {state['accessToken']}"
                    event["identitySource"] = [bearer]
                    event.setdefault("headers", {})["authorization"] = bearer
                else:
                    user = state["user"]["id"]
                    event["requestContext"]["authorizer"]["lambda"].update(sub=user, userId=user, iss=self.issuer)
                return self.rooted(event)
            return make
        return lambda: self.rooted(json.loads(json.dumps(base)))

    # The measurement.

    def measure(self):
        results = collections.defaultdict(list)  # (function, set) -> [run]
        for function in self.functions:
            make = self.event_maker(function)
            for build in self.sets:  # one unmeasured cold start each: the page cache
                self.cold_start_once(build, function, make())
            for round_number in range(self.arguments.runs):
                for build in self.sets:
                    event = make()  # made before the clock starts: its own calls are not counted
                    figures, _, started, ended = self.cold_start_once(build, function, event)
                    results[(function, build["name"])].append(dict(figures, started=started, ended=ended))
                print(f"{function}: round {round_number + 1}/{self.arguments.runs}", file=sys.stderr)
        time.sleep(0.5)  # a line for a call still being answered when a process was stopped
        calls = self.stand_in.calls()
        for runs in results.values():
            for entry in runs:
                inside = [call for call in calls if entry["started"] <= call["t"] <= entry["ended"]]
                entry["calls"] = collections.Counter(call_kind(call) for call in inside if call["kind"] == "request")
                entry["moto"] = [(call_kind(call), call.get("moto_ms", 0.0)) for call in inside
                                 if call["kind"] == "request" and call["service"] != "api"]
                entry["connections"] = sum(1 for call in inside if call["kind"] == "connection")
                entry["failed"] = [call for call in inside if call["kind"] == "connection" and "error" in call]
                if entry["failed"]:
                    raise SystemExit(f"a TLS handshake with the stand-in failed: {entry['failed'][0]['error']}")
        return results

    def report(self, results):
        arguments = self.arguments
        print(f"\nDeployed-style cold starts, {arguments.runs} per function and set, interleaved; stand-in latency "
              f"{arguments.connect_delay_ms:g} ms per new connection, {arguments.request_delay_ms:g} ms per request.\n")
        print("| function | set | outbound calls at cold start (by kind) | new TLS connections "
              "| cold start median (min–max) | init median |")
        print("|---|---|---|---:|---:|---:|")
        for function in self.functions:
            for build in self.sets:
                runs = results[(function, build["name"])]
                cold = [entry["cold"] for entry in runs]
                init = [entry["init"] for entry in runs]
                print(f"| {function} | {build['name']} | {describe_calls([entry['calls'] for entry in runs])} "
                      f"| {spread([entry['connections'] for entry in runs])} "
                      f"| {statistics.median(cold):.1f} ms ({min(cold):.1f}–{max(cold):.1f}) "
                      f"| {statistics.median(init):.1f} ms |")
        moto = collections.defaultdict(list)
        for runs in results.values():
            for entry in runs:
                for kind, milliseconds in entry["moto"]:
                    moto[kind].append(milliseconds)
        if moto:
            print("\nmoto_server's own time per call, median (inside the figures above; AWS's own would "
                  "differ): " + ", ".join(f"{kind} {statistics.median(times):.1f} ms"
                                          for kind, times in sorted(moto.items())) + ".")
        if arguments.show_env:
            print("\nEach function's environment (names only; besides Lambda's own: AWS_LAMBDA_*, _HANDLER, "
                  "LAMBDA_TASK_ROOT, LAMBDA_RUNTIME_DIR, PATH, LANG, TZ, LD_LIBRARY_PATH):\n")
            for build in self.sets:
                for function in self.functions:
                    names = ", ".join(self.environment_names[(build["name"], function)])
                    print(f"- {function} ({build['name']}): {names}")


def generated_secret(properties):
    """A value as `GenerateSecretString` would make it (letters and digits; the length asked)."""
    if "SecretString" in properties and isinstance(properties["SecretString"], str):
        return properties["SecretString"]
    length = int(properties.get("GenerateSecretString", {}).get("PasswordLength", 32))
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(length))


def load_event(path):
    with open(path) as file:
        return json.load(file)


def check_response(function, set_name, response):
    """Fails loudly unless the response is a success: 2xx, or the Authorizer's allow."""
    if function == "Authorizer" or "isAuthorized" in response or "policyDocument" in response:
        allowed = response.get("isAuthorized") is True or any(
            statement.get("Effect") == "Allow"
            for statement in response.get("policyDocument", {}).get("Statement", []))
        if not allowed:
            raise SystemExit(f"{function} ({set_name}) did not authorize the request: {json.dumps(response)[:300]}")
        return
    status = response.get("statusCode")
    if not isinstance(status, int) or not 200 <= status < 300:
        body = response.get("body", "")
        raise SystemExit(f"{function} ({set_name}) answered {status}: {str(body)[:300]}")


def call_kind(call):
    if call["service"] == "api":
        return "JWKS GET" if call["method"] == "GET" else call["operation"]
    return f"{call['service']} {call['operation']}"


def spread(values):
    low, high = min(values), max(values)
    return str(low) if low == high else f"{statistics.median(values):g} ({low}–{high})"


ORDER = ["ssm", "secretsmanager", "JWKS", "dynamodb"]


def describe_calls(counters):
    """`ssm GetParameter 1, dynamodb GetItem 2 (3)`: each kind's count per cold start (a range
    where the runs differ) and, in brackets, the total."""
    kinds = sorted({kind for counter in counters for kind in counter},
                   key=lambda kind: (next((i for i, p in enumerate(ORDER) if kind.startswith(p)), 9), kind))
    if not kinds:
        return "none (0)"
    parts = [f"{kind} {spread([counter.get(kind, 0) for counter in counters])}" for kind in kinds]
    return ", ".join(parts) + f" ({spread([sum(counter.values()) for counter in counters])})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", action="append", required=True, metavar="NAME=BIN_DIR:TEMPLATE",
                        help="a set of function binaries and its template (repeatable; measured interleaved)")
    parser.add_argument("--functions", default="Authorizer,UserProfile,Exchange,Refresh,Jwks")
    parser.add_argument("--runs", type=int, default=10, help="cold starts per function and set")
    parser.add_argument("--connect-delay-ms", type=float, default=20.0, help="the stand-in's delay per new connection")
    parser.add_argument("--request-delay-ms", type=float, default=8.0, help="the stand-in's delay per request")
    parser.add_argument("--stack-name", default="gatehouse-bench")
    parser.add_argument("--parameter", action="append", default=[], metavar="NAME=VALUE",
                        help="a template parameter for every set (beside ApiBaseUrl='', SigningKeysSecret, "
                             "EmailDelivery=ses, SmsDelivery=sns and the defaults)")
    parser.add_argument("--jwks-path", default="/.well-known/jwks.json")
    parser.add_argument("--no-jwks-url", action="append", default=[], metavar="SET",
                        help="give that set's Authorizer no JWKS_URL (one whose keys come another way, which an "
                             "explicit JWKS_URL could make fetch)")
    parser.add_argument("--show-env", action="store_true", help="print the names of each function's variables")
    parser.add_argument("--json", metavar="FILE", help="also write every cold start's figures and calls to FILE")
    parser.add_argument("--no-build", action="store_true", help="use the gatehouse and cold-start builds as they are")
    arguments = parser.parse_args()

    # SIGTERM ends the run as Ctrl-C does: through the finally blocks (the stand-in, the temp dir).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="deployed-cold-start-") as work:
        bench = Bench(arguments, work)
        bench.build_tools()
        try:
            bench.deploy()
            results = bench.measure()
        finally:
            if hasattr(bench, "stand_in"):
                bench.stand_in.stop()
        bench.report(results)
        if arguments.json:
            with open(arguments.json, "w") as file:
                json.dump([{"function": function, "set": name, "run": index, "cold_ms": entry["cold"],
                            "init_ms": entry["init"], "calls": dict(entry["calls"]),
                            "connections": entry["connections"], "moto_ms": entry["moto"]}
                           for (function, name), runs in results.items() for index, entry in enumerate(runs)],
                          file, indent=1)


if __name__ == "__main__":
    main()
