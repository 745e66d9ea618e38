#!/usr/bin/env bash
# The programs `npm test` needs besides Node.js, from Debian's packages: Chromium for the dashboard's
# browser tests, curl and jq for the README's quick start, and the toolchains of the webhook verifiers
# of docs/webhooks.md (PHP, Go, Java; Python 3 is in Debian's base). Installs what is missing when run
# as root where apt-get exists (CI, a Debian container); otherwise names what is missing and exits 1.
# A missing toolchain fails here, and its test fails too: the suite never skips a language.
# Used by .ci/run and .github/workflows/ci.yml.
set -euo pipefail

PACKAGES=(chromium curl jq python3 php-cli golang-go default-jdk-headless)
# the program each package gives, as the tests look for it
PROGRAMS=(/usr/bin/chromium curl jq python3 php go java)

missing() {
  local i
  for i in "${!PROGRAMS[@]}"; do
    command -v "${PROGRAMS[$i]}" >/dev/null || echo "${PACKAGES[$i]}"
  done
}

need=$(missing)
if [ -n "$need" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  # shellcheck disable=SC2086 # one package per word
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends $need >/dev/null
  need=$(missing)
fi
if [ -n "$need" ]; then
  echo "install-test-tools: missing $(echo $need | tr '\n' ' ')(apt-get install -y $(echo $need | tr '\n' ' '))" >&2
  exit 1
fi
