<?php
// Runs the PHP verifier of docs/webhooks.md (written beside this file as webhook_signature.php by
// test/e2e/webhook-verifiers.test.ts) on cases read from stdin, one a line:
// "<base64 raw body> <base64 header, or -> <base64 secret> <tolerance in seconds>"; prints true or false for each.
require __DIR__ . '/webhook_signature.php';

while (($line = fgets(STDIN)) !== false) {
    $line = trim($line);
    if ($line === '') {
        continue;
    }
    [$body, $header, $secret, $tolerance] = explode(' ', $line);
    $ok = verifyWebhookSignature(base64_decode($body), $header === '-' ? null : base64_decode($header), base64_decode($secret), (int) $tolerance);
    echo var_export($ok, true), "\n";
}
