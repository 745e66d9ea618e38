// Runs the Go verifier of docs/webhooks.md (written beside this file as webhook_signature.go, in
// package main, by test/e2e/webhook-verifiers.test.ts) on cases read from stdin, one a line:
// "<base64 raw body> <base64 header, or -> <base64 secret> <tolerance in seconds>"; prints true or false for each.
package main

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

func decode(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	for in.Scan() {
		fields := strings.Fields(in.Text())
		if len(fields) != 4 {
			continue
		}
		header := ""
		if fields[1] != "-" {
			header = string(decode(fields[1]))
		}
		tolerance, err := strconv.Atoi(fields[3])
		if err != nil {
			panic(err)
		}
		fmt.Println(VerifySignature(decode(fields[0]), header, string(decode(fields[2])), time.Duration(tolerance)*time.Second))
	}
}
