#!/usr/bin/env bash
# Lints, builds and runs the Dockerfile without a Docker engine (podman + runc), on a stand-in
# base image built locally (no registry is reachable here), then checks the running container:
# health check, token and cash-in through the published port, data surviving a new container on
# the same volume, and a clean stop on SIGTERM. Last, with podman serving its Docker-compatible API,
# the packed-install test (npm run test:install): the repository cloned, packed and installed into
# an empty project, and the Testcontainers module run against the image just built. Any step that
# cannot run fails the whole check.
# Usage: npm run container:check     (as root, or with podman/buildah/runc/debootstrap installed)
set -eEuo pipefail
cd "$(dirname "$0")/.."

BASE_IMAGE=node:22-bookworm-slim # the FROM of the Dockerfile
IMAGE=localhost/pix-sandbox:check
# Testcontainers' host port exposure runs an sshd container (testcontainers/sshd upstream, which no
# registry here can give): a stand-in with the same contract (root/$PASSWORD, TCP forwarding, port 22)
SSHD_IMAGE=localhost/testcontainers-sshd:stand-in
NAME=pix-sandbox-check
VOLUME=pix-sandbox-check-data
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
STOP_TIMEOUT=10
PODMAN=(podman --runtime runc) # crun fails on the cgroups and rlimits of these VMs
RUN_LIMITS=(--ulimit nofile=1024:20000 --ulimit nproc=1024:1024)
T0=$(date +%s)
STEP_T=$T0
WORK=""
SERVICE_PID=""

# Without systemd podman cannot schedule the periodic health checks (the check runs them itself
# with `podman healthcheck run`), and says so on every container start and stop: drop that noise.
PODMAN_STDERR=$(mktemp /tmp/pix-sandbox-podman-stderr.XXXXXX)
podman() {
  local rc=0
  command podman "$@" 2>"$PODMAN_STDERR" || rc=$?
  grep -v -e 'systemd connection' -e 'Removing timer for container' "$PODMAN_STDERR" >&2 || true
  return "$rc"
}

step() {
  local now
  now=$(date +%s)
  echo
  echo "==> [$((now - T0))s] $*"
  STEP_T=$now
}
ok() { echo "    ok: $* ($(($(date +%s) - STEP_T))s)"; }
fail() {
  echo "container-check: FAILED: $*" >&2
  if podman container exists "$NAME" 2>/dev/null; then
    echo "---- container log ----" >&2
    podman logs "$NAME" 2>&1 | tail -40 >&2 || true
  fi
  exit 1
}
stop_service() {
  [ -n "$SERVICE_PID" ] || return 0
  # the containers Testcontainers started (no Ryuk here to reap them), then the API service
  podman rm -f -t 0 --filter label=org.testcontainers=true >/dev/null 2>&1 || true
  kill "$SERVICE_PID" 2>/dev/null || true
  wait "$SERVICE_PID" 2>/dev/null || true
  SERVICE_PID=""
}
cleanup() {
  stop_service
  podman rm -f -t 0 "$NAME" >/dev/null 2>&1 || true
  podman volume rm -f "$VOLUME" >/dev/null 2>&1 || true
  [ -n "$WORK" ] && rm -rf "$WORK"
  rm -f "$PODMAN_STDERR"
  return 0
}
trap cleanup EXIT
trap 'fail "interrupted"' INT TERM
# never a silent exit: any command that fails unexpectedly names itself
trap 'fail "line $LINENO: $BASH_COMMAND exited $?"' ERR

step "tools: podman, buildah, runc, debootstrap"
missing=()
for t in podman buildah runc debootstrap; do command -v "$t" >/dev/null || missing+=("$t"); done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || fail "missing ${missing[*]} and cannot install them (needs root and apt-get)"
  echo "    installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq || fail "apt-get update"
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends podman buildah runc debootstrap uidmap slirp4netns fuse-overlayfs >/dev/null ||
    fail "apt-get install podman buildah runc debootstrap"
fi
echo "    $(podman --version), $(buildah --version | cut -d' ' -f1-3), $(runc --version | head -1)"
[ -r "$CA_BUNDLE" ] || fail "no CA bundle at $CA_BUNDLE (set CA_BUNDLE)"
WORK=$(mktemp -d /tmp/pix-sandbox-container-check.XXXXXX)
ok "tools present"

step "stand-in base image $BASE_IMAGE (debootstrap bookworm minbase + this machine's node and npm)"
NODE_BIN=$(command -v node)
NPM_DIR=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
NODE_VERSION=$(node --version)
STANDIN_LABEL="pix-sandbox.stand-in=$NODE_VERSION"
if [ "$(podman image inspect --format '{{index .Labels "pix-sandbox.stand-in"}}' "$BASE_IMAGE" 2>/dev/null || true)" = "$NODE_VERSION" ]; then
  ok "reusing the stand-in built earlier (node $NODE_VERSION)"
else
  ROOTFS="$WORK/rootfs"
  debootstrap --variant=minbase bookworm "$ROOTFS" "$DEBIAN_MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
    { tail -20 "$WORK/debootstrap.log" >&2; fail "debootstrap bookworm from $DEBIAN_MIRROR"; }
  install -m 0755 "$NODE_BIN" "$ROOTFS/usr/local/bin/node"
  mkdir -p "$ROOTFS/usr/local/lib/node_modules"
  cp -a "$NPM_DIR" "$ROOTFS/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
  # as in the official image: an unprivileged user "node", uid/gid 1000
  chroot "$ROOTFS" groupadd --gid 1000 node
  chroot "$ROOTFS" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/*
  chroot "$ROOTFS" node --version >/dev/null || fail "node does not run inside the stand-in root"
  tar -C "$ROOTFS" -c . | podman import --quiet \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV NODE_VERSION=${NODE_VERSION#v}" \
    --change "LABEL $STANDIN_LABEL" \
    --change 'CMD ["node"]' \
    - "$BASE_IMAGE" >/dev/null || fail "podman import of the stand-in"
  podman tag "localhost/$BASE_IMAGE" "docker.io/library/$BASE_IMAGE"
  rm -rf "$ROOTFS"
  ok "built $(podman image inspect --format '{{.Size}}' "$BASE_IMAGE" | awk '{printf "%d MB", $1/1048576}') stand-in with node $NODE_VERSION"
fi

step "lint: dockerfilelint Dockerfile"
npx --no-install dockerfilelint Dockerfile 2>/dev/null | sed 's/^/    /' || fail "dockerfilelint found problems in the Dockerfile"
ok "no lint findings"

step "build: podman build --pull=never (CA bundle as a build secret, build stages only)"
"${PODMAN[@]}" build --pull=never --format docker --layers \
  --secret id=npm_ca,src="$CA_BUNDLE" -t "$IMAGE" . >"$WORK/build.log" 2>&1 ||
  { tail -40 "$WORK/build.log" >&2; fail "podman build"; }
echo "    $(grep -c '^\[[0-9]/[0-9]\] STEP' "$WORK/build.log" || true) steps, $(grep -c 'Using cache' "$WORK/build.log" || true) from the layer cache"
grep -E '^\[[0-9]/[0-9]\] STEP [0-9]+/[0-9]+: (FROM|RUN)' "$WORK/build.log" | sed 's/^/    /' || true
ENVS=$(podman image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$IMAGE")
echo "$ENVS" | grep -q NODE_EXTRA_CA_CERTS && fail "the runtime image carries NODE_EXTRA_CA_CERTS"
"${PODMAN[@]}" run --rm "${RUN_LIMITS[@]}" --entrypoint /bin/sh "$IMAGE" -c \
  'test ! -e /run/secrets/npm_ca && test "$(id -un)" = node && test -d /app/dist/src && test -f /app/dist/bin/pix-sandbox.js && ! test -d /app/node_modules/vitest' ||
  fail "the runtime image is not as expected (secret, user node, dist/, no dev dependencies)"
podman image inspect --format '    user={{.Config.User}} stop={{.Config.StopSignal}} volumes={{.Config.Volumes}} ports={{.Config.ExposedPorts}} size={{.Size}}' "$IMAGE"
ok "image built; no CA in it, runs as node, no dev dependencies"

start_container() {
  "${PODMAN[@]}" run -d --name "$NAME" "${RUN_LIMITS[@]}" \
    -p 127.0.0.1::8080 -p 127.0.0.1::8443 -v "$VOLUME":/data "$IMAGE" >/dev/null || fail "podman run"
  HTTP_URL="http://$(podman port "$NAME" 8080/tcp)"
  HTTPS_URL="https://$(podman port "$NAME" 8443/tcp)"
}

wait_healthy() {
  local i
  for i in $(seq 1 30); do
    if podman healthcheck run "$NAME" >/dev/null 2>&1; then
      echo "    health: $(podman inspect --format '{{.State.Health.Status}}' "$NAME" 2>/dev/null || podman inspect --format '{{.State.Healthcheck.Status}}' "$NAME") after ${i} probe(s)"
      return 0
    fi
    [ "$(podman inspect --format '{{.State.Running}}' "$NAME")" = true ] || fail "the container exited: $(podman inspect --format '{{.State.ExitCode}}' "$NAME")"
    sleep 1
  done
  fail "the health check never passed"
}

# stops the container and fails unless it exits 0 on SIGTERM within the timeout (137 = SIGKILLed)
stop_cleanly() {
  local t1 t2 code
  t1=$(date +%s%N)
  podman stop -t "$STOP_TIMEOUT" "$NAME" >/dev/null || fail "podman stop"
  t2=$(date +%s%N)
  code=$(podman inspect --format '{{.State.ExitCode}}' "$NAME")
  echo "    stopped in $(((t2 - t1) / 1000000)) ms, exit code $code; log: $(podman logs "$NAME" 2>&1 | grep -m1 'received SIGTERM' || echo '(no SIGTERM line)')"
  [ "$code" = 0 ] || fail "exit code $code on stop (137 means it was SIGKILLed)"
  [ $(((t2 - t1) / 1000000)) -lt $((STOP_TIMEOUT * 1000)) ] || fail "stop took the whole ${STOP_TIMEOUT}s timeout"
}

step "run: podman run with a named volume on /data, ports published on 127.0.0.1"
podman volume rm -f "$VOLUME" >/dev/null 2>&1 || true
podman rm -f -t 0 "$NAME" >/dev/null 2>&1 || true
podman volume create "$VOLUME" >/dev/null
start_container
ok "container $NAME started: $HTTP_URL and $HTTPS_URL"

step "health check (the image's HEALTHCHECK, run by podman)"
wait_healthy
podman logs "$NAME" 2>&1 | sed 's/^/    | /' | head -8
ok "healthy"

step "token and cash-in through the published port"
node scripts/container-probe.mjs money "$HTTP_URL" | sed 's/^/    /' || fail "token / cash-in"
podman cp "$NAME:/data/cert.pem" "$WORK/cert.pem" || fail "no generated certificate in /data"
node scripts/container-probe.mjs https "$HTTPS_URL" "$WORK/cert.pem" | sed 's/^/    /' || fail "HTTPS"
ok "public API answers through the published ports"

step "persistence: create a merchant, replace the container, find it on the volume"
MERCHANT_ID=$(node scripts/container-probe.mjs merchant-create "$HTTP_URL") || fail "merchant create"
echo "    created merchant $MERCHANT_ID"
stop_cleanly
podman rm "$NAME" >/dev/null
start_container
wait_healthy
node scripts/container-probe.mjs merchant-get "$HTTP_URL" "$MERCHANT_ID" | sed 's/^/    /' || fail "the merchant did not survive"
ok "data survived a new container on the same volume"

step "stop: SIGTERM to PID 1, clean exit without SIGKILL"
stop_cleanly
ok "clean stop"

step "Testcontainers: stand-in $SSHD_IMAGE, podman's Docker-compatible API"
mkdir -p "$WORK/sshd"
cat >"$WORK/sshd/Containerfile" <<'CONTAINERFILE'
FROM node:22-bookworm-slim
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends openssh-server >/dev/null && \
    rm -rf /var/lib/apt/lists/* && mkdir -p /run/sshd && ssh-keygen -A
EXPOSE 22
CMD ["sh", "-c", "echo \"root:${PASSWORD:-root}\" | chpasswd && exec /usr/sbin/sshd -D -e -o PermitRootLogin=yes -o PasswordAuthentication=yes -o AddressFamily=inet -o GatewayPorts=yes -o AllowTcpForwarding=yes"]
CONTAINERFILE
"${PODMAN[@]}" build --pull=never --layers -t "$SSHD_IMAGE" "$WORK/sshd" >"$WORK/sshd-build.log" 2>&1 ||
  { tail -20 "$WORK/sshd-build.log" >&2; fail "podman build of the sshd stand-in"; }
# Containers created through the API get podman's default limits (nofile 1048576), which runc cannot
# set on these VMs; the sandbox's container is given explicit limits by the test, but Testcontainers
# starts its port forwarder itself, so the service gets defaults it can set. (podman 4.3 swaps a
# "soft:hard" pair here: equal values only.) An exec session (Testcontainers runs a few) leaves a
# conmon behind for exit_command_delay seconds, 300 by default: 10 is enough for the API to read the
# exit code, and nothing outlives the check by minutes.
printf '[containers]\ndefault_ulimits = ["nofile=20000:20000", "nproc=1024:1024"]\n[engine]\nexit_command_delay = 10\n' >"$WORK/containers.conf"
SOCKET="$WORK/podman.sock"
CONTAINERS_CONF="$WORK/containers.conf" command podman --runtime runc system service --time=0 "unix://$SOCKET" >"$WORK/service.log" 2>&1 &
SERVICE_PID=$!
for _ in $(seq 1 50); do [ -S "$SOCKET" ] && break; sleep 0.2; done
[ -S "$SOCKET" ] || { cat "$WORK/service.log" >&2; fail "podman system service did not open $SOCKET"; }
ok "API on unix://$SOCKET"

step "packed install: clone, npm pack, install into an empty project; npx, wait, import, tsc, Testcontainers"
DOCKER_HOST="unix://$SOCKET" TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 \
  SSHD_CONTAINER_IMAGE="$SSHD_IMAGE" PIX_SANDBOX_IMAGE="$IMAGE" NO_COLOR=1 \
  npm run --silent test:install >"$WORK/install.log" 2>&1 ||
  { grep -v -e 'systemd connection' -e 'Removing timer' "$WORK/install.log" | tail -80 >&2; fail "npm run test:install"; }
grep -E '✓|\[install\]|Tests ' "$WORK/install.log" | sed 's/^ */    /'
stop_service
ok "the packed package works in an empty project, and with Testcontainers"

echo
echo "container-check: PASSED in $(($(date +%s) - T0))s"
