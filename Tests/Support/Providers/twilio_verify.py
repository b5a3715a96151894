"""Creates a Twilio Verify verification and checks a code with Twilio's official Python library
(`twilio`, pinned in Tools/requirements.txt) against a local server, so a test can compare its
requests with Gatehouse's.

Usage: twilio_verify.py BASE_URL ACCOUNT_SID AUTH_TOKEN SERVICE_SID TO CHANNEL CODE
"""

import sys

from twilio.rest import Client


def main() -> None:
    base_url, account_sid, auth_token, service_sid, to, channel, code = sys.argv[1:8]
    client = Client(account_sid, auth_token)
    # The library's Verify domain, pointed at the local server instead of verify.twilio.com.
    client.verify.base_url = base_url
    service = client.verify.v2.services(service_sid)
    service.verifications.create(to=to, channel=channel)
    service.verification_checks.create(to=to, code=code)


if __name__ == "__main__":
    main()
