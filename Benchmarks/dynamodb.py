#!/usr/bin/env python3
"""The DynamoDB store against boto3, the same calls to the same moto_server, interleaved:
  - put    PutItem with `attribute_not_exists(#pk)` (and, for the store, its TTL clause)
  - get    GetItem, consistent read
  - delete DeleteItem with `attribute_exists(#pk)`, ReturnValues ALL_OLD (a consume)

    python3 Benchmarks/dynamodb.py [--count 300] [--rounds 3]

Builds `dynamodb-ops` in release (the Benchmarks package). Needs `moto[server]` and boto3.
Each side uses one client and one connection, one call at a time; medians per round and the
ratio store / boto3 (below 1: the store is faster). A third side, the floor, sends the same
requests as prepared bytes over one kept-alive `http.client` connection, unsigned work done
once (moto does not check signatures): what moto itself takes, which no client can go under.
"""

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
import uuid

import boto3

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start_moto():
    process = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "Tests/Support/Moto/moto_server.py")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = int(process.stdout.readline())
    client = boto3.client("dynamodb", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                          aws_access_key_id="testing", aws_secret_access_key="testing")
    deadline = time.time() + 30
    while True:
        try:
            client.list_tables()
            return process, port, client
        except Exception:
            if time.time() > deadline:
                raise
            time.sleep(0.1)


def boto3_round(client, table, count):
    times = {"put": [], "get": [], "delete": []}
    run = uuid.uuid4().hex[:8]
    client.get_item(TableName=table, Key={"id": {"S": "warm-up"}}, ConsistentRead=True)
    for index in range(count):
        key = {"id": {"S": f"{run}-{index}"}}
        item = dict(key, app={"S": "demo"}, userId={"S": "u-1"}, ttl={"N": "4000000000"})
        started = time.perf_counter()
        client.put_item(TableName=table, Item=item, ConditionExpression="attribute_not_exists(#pk)",
                        ExpressionAttributeNames={"#pk": "id"})
        times["put"].append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        client.get_item(TableName=table, Key=key, ConsistentRead=True)
        times["get"].append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        client.delete_item(TableName=table, Key=key, ConditionExpression="attribute_exists(#pk)",
                           ExpressionAttributeNames={"#pk": "id"}, ReturnValues="ALL_OLD")
        times["delete"].append((time.perf_counter() - started) * 1000)
    return times


def floor_round(port, table, count):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    authorization = ("AWS4-HMAC-SHA256 Credential=testing/20261127/us-east-1/dynamodb/aws4_request, "
                     "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + "0" * 64)

    def call(target, body):
        payload = json.dumps(body).encode()
        started = time.perf_counter()
        connection.request("POST", "/", body=payload, headers={
            "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": f"DynamoDB_20120810.{target}",
            "X-Amz-Date": "20261127T000000Z", "Authorization": authorization})
        response = connection.getresponse()
        response.read()
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status == 200, response.status
        return elapsed

    times = {"put": [], "get": [], "delete": []}
    run = uuid.uuid4().hex[:8]
    call("GetItem", {"TableName": table, "Key": {"id": {"S": "warm-up"}}, "ConsistentRead": True})
    for index in range(count):
        key = {"id": {"S": f"{run}-{index}"}}
        item = dict(key, app={"S": "demo"}, userId={"S": "u-1"}, ttl={"N": "4000000000"})
        times["put"].append(call("PutItem", {
            "TableName": table, "Item": item, "ConditionExpression": "attribute_not_exists(#pk)",
            "ExpressionAttributeNames": {"#pk": "id"}}))
        times["get"].append(call("GetItem", {"TableName": table, "Key": key, "ConsistentRead": True}))
        times["delete"].append(call("DeleteItem", {
            "TableName": table, "Key": key, "ConditionExpression": "attribute_exists(#pk)",
            "ExpressionAttributeNames": {"#pk": "id"}, "ReturnValues": "ALL_OLD"}))
    connection.close()
    return times


def store_round(binary, port, table, count):
    output = subprocess.run([binary, f"http://127.0.0.1:{port}", table, str(count)], check=True,
                            capture_output=True, text=True).stdout
    return json.loads(output)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-build", action="store_true")
    options = parser.parse_args()
    if not options.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--package-path", "Benchmarks", "--product",
                        "dynamodb-ops"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, "Benchmarks/.build/release/dynamodb-ops")
    process, port, client = start_moto()
    try:
        table = "bench-" + uuid.uuid4().hex[:8]
        client.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}])
        rows = {op: [] for op in ("put", "get", "delete")}
        for _ in range(options.rounds):
            ours = store_round(binary, port, table, options.count)
            theirs = boto3_round(client, table, options.count)
            floor = floor_round(port, table, options.count)
            for op in rows:
                rows[op].append(tuple(statistics.median(side[op]) for side in (ours, theirs, floor)))
        print("| call | store median (ms), per round | boto3 median (ms), per round | store / boto3, per round |"
              " floor: moto alone (ms) | floor / boto3 |")
        print("|---|---|---|---|---|---|")

        def joined(values):
            return ", ".join(f"{value:.2f}" for value in values)
        for op, values in rows.items():
            print(f"| {op} | {joined(a for a, _, _ in values)} | {joined(b for _, b, _ in values)}"
                  f" | {joined(a / b for a, b, _ in values)} | {joined(c for _, _, c in values)}"
                  f" | {joined(c / b for _, b, c in values)} |")
    finally:
        process.kill()


if __name__ == "__main__":
    main()
