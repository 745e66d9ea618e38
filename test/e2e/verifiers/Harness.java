// Runs the Java verifier of docs/webhooks.md (written beside this file as WebhookSignature.java by
// test/e2e/webhook-verifiers.test.ts) on cases read from stdin, one a line:
// "<base64 raw body> <base64 header, or -> <base64 secret> <tolerance in seconds>"; prints true or false for each.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

public final class Harness {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Base64.Decoder b64 = Base64.getDecoder();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) continue;
            String[] f = line.split(" ");
            String header = f[1].equals("-") ? null : new String(b64.decode(f[1]), StandardCharsets.UTF_8);
            System.out.println(WebhookSignature.verify(b64.decode(f[0]), header, new String(b64.decode(f[2]), StandardCharsets.UTF_8), Long.parseLong(f[3])));
        }
    }
}
