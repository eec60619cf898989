#!/usr/bin/env python3
# contrib/webhook-receiver.py: an example receiver of turnpost's signed notification webhooks
# SPDX-License-Identifier: MIT
"""Receive turnpost notifications, verify their Standard Webhooks signature,
drop duplicates by webhook-id, and print each message (or hand it to your own
mailer, chat bot, ...). Standard library only.

    TURNPOST_WEBHOOK_SECRET=whsec_... contrib/webhook-receiver.py --port 9000

and run turnpostd with --mail-transport webhook --webhook-url http://127.0.0.1:9000/
--webhook-secret whsec_... (the same secret).
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

TOLERANCE_S = 5 * 60
seen_ids = {}  # webhook-id -> when first seen (keep it in a database in real use)


def verify(secret, msg_id, timestamp, body, signatures):
    """True when one of the space-separated "v1,<base64>" signatures matches."""
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    signed = msg_id.encode() + b"." + timestamp.encode() + b"." + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for sig in signatures.split():
        version, _, value = sig.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return True
    return False


class Handler(BaseHTTPRequestHandler):
    secret = ""

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        if length > 1 << 20:
            return self.answer(413, "too large")
        body = self.rfile.read(length)
        msg_id = self.headers.get("webhook-id", "")
        timestamp = self.headers.get("webhook-timestamp", "")
        signature = self.headers.get("webhook-signature", "")
        if not (msg_id and timestamp.isdigit() and signature):
            return self.answer(400, "missing webhook headers")
        if abs(time.time() - int(timestamp)) > TOLERANCE_S:
            return self.answer(400, "timestamp too far from now")
        if not verify(self.secret, msg_id, timestamp, body, signature):
            return self.answer(401, "bad signature")
        if msg_id in seen_ids:
            return self.answer(200, "duplicate, already handled")
        seen_ids[msg_id] = time.time()
        msg = json.loads(body)
        print(f"[{msg['event']}] to {msg['name']} <{msg['to']}>: {msg['subject']}")
        for name, url in msg.get("links", {}).items():
            print(f"  {name}: {url}")
        sys.stdout.flush()
        return self.answer(200, "ok")

    def answer(self, status, text):
        data = (text + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, fmt, *args):
        sys.stderr.write("%s %s\n" % (self.address_string(), fmt % args))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=9000)
    ap.add_argument("--listen", default="127.0.0.1")
    args = ap.parse_args()
    Handler.secret = os.environ.get("TURNPOST_WEBHOOK_SECRET", "")
    if not Handler.secret:
        sys.exit("set TURNPOST_WEBHOOK_SECRET to the whsec_... secret given to turnpostd")
    HTTPServer((args.listen, args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
