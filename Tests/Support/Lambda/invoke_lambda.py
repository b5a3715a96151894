"""Invokes functions through a local Lambda Invoke API (`gatehouse start-lambda`) with boto3 and
with the AWS CLI, as a developer would, and prints what they saw as one JSON object.

Usage: invoke_lambda.py ENDPOINT AWS WORK_DIR

AWS is the AWS CLI's `aws`, from a virtual environment of its own (.ci/run makes
.build/venv-awscli, so its pinned botocore stays apart from boto3's). Credentials are made up:
the emulator accepts SigV4 signatures without checking them.
"""

import base64
import json
import os
import subprocess
import sys

import boto3
from botocore.config import Config

endpoint, aws, work = sys.argv[1:4]
client = boto3.client(
    "lambda", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="local",
    aws_secret_access_key="local", config=Config(retries={"max_attempts": 0}, read_timeout=60),
)
seen = {}


def invoke(**arguments):
    response = client.invoke(**arguments)
    answer = {
        "status": response["StatusCode"], "functionError": response.get("FunctionError"),
        "version": response.get("ExecutedVersion"), "payload": response["Payload"].read().decode(),
    }
    if "LogResult" in response:
        answer["log"] = base64.b64decode(response["LogResult"]).decode()
    return answer


def refused(**arguments):
    try:
        client.invoke(**arguments)
    except client.exceptions.ClientError as error:
        return {"code": error.response["Error"]["Code"], "status": error.response["ResponseMetadata"]["HTTPStatusCode"],
                "message": error.response["Error"].get("Message", "")}
    return None


seen["success"] = invoke(FunctionName="Misbehaving", Payload=json.dumps({"action": "echo", "n": 1}), LogType="Tail")
seen["byArn"] = invoke(
    FunctionName="arn:aws:lambda:us-east-1:123456789012:function:Misbehaving:$LATEST", Payload=json.dumps({"action": "echo"})
)
seen["handledError"] = invoke(FunctionName="Misbehaving", Payload=json.dumps({"action": "error"}))
seen["crash"] = invoke(FunctionName="Misbehaving", Payload=json.dumps({"action": "crash"}))
seen["timeout"] = invoke(FunctionName="Misbehaving", Payload=json.dumps({"action": "hang"}))
seen["event"] = invoke(FunctionName="Misbehaving", InvocationType="Event", Payload=json.dumps({"action": "exe"}))
seen["dryRun"] = invoke(FunctionName="Misbehaving", InvocationType="DryRun")
seen["unknown"] = refused(FunctionName="Nope", Payload="{}")
seen["otherVersion"] = refused(FunctionName="Misbehaving", Qualifier="7", Payload="{}")
seen["tooLarge"] = refused(FunctionName="Misbehaving", Payload=b"[" + b"0," * (3 * 1024 * 1024 + 100) + b"0]")
seen["notJSON"] = refused(FunctionName="Misbehaving", Payload=b"not json")


def cli(*arguments):
    environment = dict(os.environ, AWS_ACCESS_KEY_ID="local", AWS_SECRET_ACCESS_KEY="local",
                       AWS_DEFAULT_REGION="us-east-1")
    return subprocess.run(
        [aws, "lambda", "invoke", "--endpoint-url", endpoint, *arguments],
        env=environment, capture_output=True, text=True,
    )


out = os.path.join(work, "cli-out.json")
run = cli("--function-name", "Misbehaving", "--payload", json.dumps({"action": "echo", "from": "cli"}),
          "--log-type", "Tail", out)
printed = json.loads(run.stdout) if run.returncode == 0 else {}
with open(out) as answer:
    seen["cli"] = {
        "exit": run.returncode, "status": printed.get("StatusCode"), "version": printed.get("ExecutedVersion"),
        "payload": answer.read(), "log": base64.b64decode(printed.get("LogResult", "")).decode(),
    }
run = cli("--function-name", "Nope", out)
seen["cliUnknown"] = {"exit": run.returncode, "stderr": run.stderr.strip()}
print(json.dumps(seen))
