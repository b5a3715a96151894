#!/usr/bin/env python3
"""A Cognito user pool in moto_server, for CognitoMigrationTests (boto3 from .build/venv).

Usage:
  cognito_pool.py setup ENDPOINT            -> {"pool": ID, "client": ID, "subs": {EMAIL: SUB}}
  cognito_pool.py add-user ENDPOINT POOL EMAIL PASSWORD [GROUP]  -> {"sub": SUB}
  cognito_pool.py delete-user ENDPOINT POOL EMAIL
  cognito_pool.py setup-usernames ENDPOINT USERNAME...  -> {"pool": ID, "client": ID}

`setup` makes a pool whose usernames are addresses, an app client that allows
USER_PASSWORD_AUTH (no client secret), a group `admins`, and its users: ada (verified address,
names, phone, in admins), uma (address never verified) and dis (disabled), each with a
permanent password ("<Name> cognito password 1!").

`setup-usernames` makes a pool whose usernames are free text (no UsernameAttributes) and, for
each USERNAME (an address that is not theirs), an attacker's account under that username whose
verified address is attacker@evil.example, password "Mallory cognito password 1!".
"""
import json
import sys

import boto3


def client(endpoint):
    return boto3.client(
        "cognito-idp", region_name="us-east-1", endpoint_url=endpoint,
        aws_access_key_id="testing", aws_secret_access_key="testing")


def add_user(idp, pool, email, password, verified=True, attributes=(), group=None):
    idp.admin_create_user(
        UserPoolId=pool, Username=email, MessageAction="SUPPRESS",
        UserAttributes=[{"Name": "email", "Value": email},
                        {"Name": "email_verified", "Value": "true" if verified else "false"}] + list(attributes))
    idp.admin_set_user_password(UserPoolId=pool, Username=email, Password=password, Permanent=True)
    if group:
        idp.admin_add_user_to_group(UserPoolId=pool, Username=email, GroupName=group)
    user = idp.admin_get_user(UserPoolId=pool, Username=email)
    return next(a["Value"] for a in user["UserAttributes"] if a["Name"] == "sub")


def main():
    command, endpoint = sys.argv[1:3]
    idp = client(endpoint)
    if command == "setup":
        pool = idp.create_user_pool(PoolName="moving", UsernameAttributes=["email"])["UserPool"]["Id"]
        app = idp.create_user_pool_client(
            UserPoolId=pool, ClientName="gatehouse-migration",
            ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])["UserPoolClient"]["ClientId"]
        idp.create_group(UserPoolId=pool, GroupName="admins")
        subs = {
            "ada@moved.example": add_user(
                idp, pool, "ada@moved.example", "Ada cognito password 1!", group="admins",
                attributes=[{"Name": "given_name", "Value": "Ada"}, {"Name": "family_name", "Value": "Lovelace"},
                            {"Name": "phone_number", "Value": "+14155550123"},
                            {"Name": "phone_number_verified", "Value": "true"}]),
            "uma@moved.example": add_user(idp, pool, "uma@moved.example", "Uma cognito password 1!", verified=False),
            "dis@moved.example": add_user(idp, pool, "dis@moved.example", "Dis cognito password 1!"),
        }
        idp.admin_disable_user(UserPoolId=pool, Username="dis@moved.example")
        print(json.dumps({"pool": pool, "client": app, "subs": subs}))
    elif command == "setup-usernames":
        pool = idp.create_user_pool(PoolName="usernames")["UserPool"]["Id"]
        app = idp.create_user_pool_client(
            UserPoolId=pool, ClientName="gatehouse-migration",
            ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])["UserPoolClient"]["ClientId"]
        for username in sys.argv[3:]:
            idp.admin_create_user(
                UserPoolId=pool, Username=username, MessageAction="SUPPRESS",
                UserAttributes=[{"Name": "email", "Value": "attacker@evil.example"},
                                {"Name": "email_verified", "Value": "true"}])
            idp.admin_set_user_password(
                UserPoolId=pool, Username=username, Password="Mallory cognito password 1!", Permanent=True)
        print(json.dumps({"pool": pool, "client": app}))
    elif command == "add-user":
        pool, email, password = sys.argv[3:6]
        group = sys.argv[6] if len(sys.argv) > 6 else None
        print(json.dumps({"sub": add_user(idp, pool, email, password, group=group)}))
    elif command == "delete-user":
        pool, email = sys.argv[3:5]
        idp.admin_delete_user(UserPoolId=pool, Username=email)
        print("{}")
    else:
        sys.exit(f"unknown command {command}")


main()
