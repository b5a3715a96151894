"""Sends one email with Resend's official Python library (`resend`, pinned in
Tools/requirements.txt) to a local server, so a test can compare its request with Gatehouse's.

Usage: resend_send.py BASE_URL API_KEY FROM TO SUBJECT TEXT
"""

import sys

import resend


def main() -> None:
    base_url, api_key, sender, to, subject, text = sys.argv[1:7]
    resend.api_key = api_key
    resend.api_url = base_url
    resend.Emails.send({"from": sender, "to": [to], "subject": subject, "text": text})


if __name__ == "__main__":
    main()
