# Runs the Python verifier of docs/webhooks.md (written beside this file as webhook_signature.py by
# test/e2e/webhook-verifiers.test.ts) on cases read from stdin, one a line:
# "<base64 raw body> <base64 header, or -> <base64 secret> <tolerance in seconds>"; prints true or false for each.
import base64
import sys

from webhook_signature import verify_webhook_signature

for line in sys.stdin:
    if not line.strip():
        continue
    body, header, secret, tolerance = line.split()
    ok = verify_webhook_signature(
        base64.b64decode(body), None if header == "-" else base64.b64decode(header).decode(), base64.b64decode(secret).decode(),
        int(tolerance),
    )
    print("true" if ok is True else "false" if ok is False else f"not a bool: {ok!r}")
