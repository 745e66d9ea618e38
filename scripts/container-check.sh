#!/usr/bin/env bash
# Lints, builds and runs the Dockerfile without a Docker engine (podman + runc), on a stand-in base
# image built locally (debootstrap + this machine's node: no registry is reachable here), then checks
# the running container: health check, token and cash-in through the published port, data surviving
# a new container on the same volume, and a clean stop on SIGTERM. It prints the image's size and its
# start-to-healthy time beside an express hello-world built the same way on the same base. Last, with
# podman serving its Docker-compatible API, the packed-install test (npm run test:install): the
# repository cloned, packed and installed into an empty project, and the Testcontainers module run
# against the image just built. Any step that cannot run fails the whole check.
#
# Hermetic: everything it makes besides the image it was asked to build (the stand-in base, the
# hello-world and sshd images, containers, volumes) carries a name of this run's own
# (pix-sandbox-check-<run>-...) and is removed at the end, whatever happened; it never re-tags an
# official image name, and removes only what it created. It lists podman's images, containers and
# volumes before and after, and fails when they differ by anything but that image.
# Usage: npm run container:check     (as root, or with podman/buildah/runc/debootstrap installed)
#        PIX_SANDBOX_CHECK_IMAGE=localhost/pix-sandbox:mine npm run container:check
set -eEuo pipefail
cd "$(dirname "$0")/.."

# the image this check builds and leaves behind (the packed-install test runs it)
IMAGE=${PIX_SANDBOX_CHECK_IMAGE:-localhost/pix-sandbox:check}
RUN=$(date +%s)-$$
PREFIX=pix-sandbox-check-$RUN
LABEL=pix-sandbox.check=$RUN # on every container and volume it makes
BASE_IMAGE=localhost/$PREFIX-base:node # the stand-in for node:22-bookworm-slim (the Dockerfile's NODE_IMAGE)
HELLO_IMAGE=localhost/$PREFIX-hello:latest
# Testcontainers' host port exposure runs an sshd container (testcontainers/sshd upstream, which no
# registry here can give): a stand-in with the same contract (root/$PASSWORD, TCP forwarding, port 22)
SSHD_IMAGE=localhost/$PREFIX-sshd:latest
NAME=$PREFIX
VOLUME=$PREFIX-data
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
STOP_TIMEOUT=10
TIMING_RUNS=5 # starts of each image for the start-to-healthy time (the median is printed)
PODMAN=(podman --runtime runc) # crun fails on the cgroups and rlimits of these VMs
RUN_LIMITS=(--ulimit nofile=1024:20000 --ulimit nproc=1024:1024)
T0=$(date +%s)
STEP_T=$T0
WORK=""
SERVICE_PID=""
OLD_IMAGE_ID=""

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

# podman's images, containers and volumes, one a line, sorted: what "leaves only its image" is judged on
inventory() {
  command podman images -a --format 'image     {{.ID}} {{.Repository}}:{{.Tag}}' 2>/dev/null | sort
  command podman ps -a --format 'container {{.ID}} {{.Names}} ({{.Image}})' 2>/dev/null | sort
  command podman volume ls --format 'volume    {{.Name}}' 2>/dev/null | sort
}
# the inventory without the image this check builds (its id changes with every build)
others() { grep -v -F " $IMAGE" || true; }

# the containers this run made: labelled by it, or started by Testcontainers from its images
own_containers() {
  {
    command podman ps -a -q --filter "label=$LABEL"
    command podman ps -a -q --filter "ancestor=$SSHD_IMAGE"
    # the sandbox's containers that the packed-install test started through the API, and did not stop
    command podman ps -a -q --filter label=org.testcontainers=true --filter "ancestor=$IMAGE" | grep -v -x -F -f "$WORK/containers-before" || true
  } 2>/dev/null | sort -u
}

stop_service() {
  [ -n "$SERVICE_PID" ] || return 0
  kill "$SERVICE_PID" 2>/dev/null || true
  wait "$SERVICE_PID" 2>/dev/null || true
  SERVICE_PID=""
}

cleanup() {
  local status=$? leftover
  trap - ERR
  stop_service
  if [ -n "$WORK" ]; then
    # (xargs runs the podman program itself, not the function above)
    own_containers | xargs -r podman rm -f -v -t 0 >/dev/null 2>&1 || true
    command podman volume ls -q --filter "label=$LABEL" | xargs -r podman volume rm -f >/dev/null 2>&1 || true
    # children before their base
    for image in "$HELLO_IMAGE" "$SSHD_IMAGE" "$BASE_IMAGE"; do
      command podman image exists "$image" 2>/dev/null && { command podman rmi "$image" >/dev/null || true; }
    done
    # the image this check replaced, when nothing else uses it
    if [ -n "$OLD_IMAGE_ID" ] && [ "$(command podman image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null)" != "$OLD_IMAGE_ID" ]; then
      command podman rmi "$OLD_IMAGE_ID" >/dev/null 2>&1 || true
    fi
    echo
    echo "==> podman after the check (images -a, ps -a, volume ls)"
    inventory | tee "$WORK/after" | sed 's/^/    /'
    leftover=$(diff <(others <"$WORK/before") <(others <"$WORK/after") || true)
    if [ -n "$leftover" ]; then
      echo "container-check: FAILED: podman holds more or less than before, apart from $IMAGE:" >&2
      echo "$leftover" | sed 's/^/    /' >&2
      [ "$status" = 0 ] && status=1
    elif [ "$status" = 0 ]; then
      echo "    the same as before, apart from $IMAGE"
      echo
      echo "container-check: PASSED in $(($(date +%s) - T0))s"
    fi
    rm -rf "$WORK"
  fi
  rm -f "$PODMAN_STDERR"
  exit "$status"
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
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends \
    podman buildah runc debootstrap debian-archive-keyring uidmap slirp4netns fuse-overlayfs >/dev/null ||
    fail "apt-get install podman buildah runc debootstrap"
fi
echo "    $(podman --version), $(buildah --version | cut -d' ' -f1-3), $(runc --version | head -1)"
[ -r "$CA_BUNDLE" ] || fail "no CA bundle at $CA_BUNDLE (set CA_BUNDLE)"
WORK=$(mktemp -d /tmp/pix-sandbox-container-check.XXXXXX)
ok "tools present; this run's names start with $PREFIX"

step "podman before the check (images -a, ps -a, volume ls)"
inventory | tee "$WORK/before" | sed 's/^/    /'
command podman ps -a -q >"$WORK/containers-before"
OLD_IMAGE_ID=$(command podman image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
ok "$(wc -l <"$WORK/before") objects"

step "stand-in base image $BASE_IMAGE (debootstrap bookworm minbase + this machine's node and npm)"
NODE_BIN=$(command -v node)
NPM_DIR=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
NODE_VERSION=$(node --version)
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
  --change "LABEL pix-sandbox.stand-in=$NODE_VERSION" \
  --change 'CMD ["node"]' \
  - "$BASE_IMAGE" >/dev/null || fail "podman import of the stand-in"
rm -rf "$ROOTFS"
ok "built a $(podman image inspect --format '{{.Size}}' "$BASE_IMAGE" | awk '{printf "%d MB", $1/1e6}') stand-in with node $NODE_VERSION"

step "lint: dockerfilelint Dockerfile"
npx --no-install dockerfilelint Dockerfile 2>/dev/null | sed 's/^/    /' || fail "dockerfilelint found problems in the Dockerfile"
ok "no lint findings"

# builds a context on the stand-in base: no pull, no layer cache left behind, the CA as a build secret
build() {
  local tag=$1 context=$2 log=$3
  shift 3
  "${PODMAN[@]}" build --pull=never --layers=false --format docker --build-arg "NODE_IMAGE=$BASE_IMAGE" \
    --secret id=npm_ca,src="$CA_BUNDLE" -t "$tag" "$@" "$context" >"$log" 2>&1 ||
    { tail -40 "$log" >&2; fail "podman build of $tag"; }
}

step "build: podman build --build-arg NODE_IMAGE=$BASE_IMAGE (CA bundle as a build secret, build stages only)"
build "$IMAGE" . "$WORK/build.log"
echo "    $(grep -c '^\[[0-9]/[0-9]\] STEP' "$WORK/build.log" || true) steps"
grep -E '^\[[0-9]/[0-9]\] STEP [0-9]+/[0-9]+: (FROM|RUN)' "$WORK/build.log" | sed 's/^/    /' || true
ENVS=$(podman image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$IMAGE")
echo "$ENVS" | grep -q NODE_EXTRA_CA_CERTS && fail "the runtime image carries NODE_EXTRA_CA_CERTS"
"${PODMAN[@]}" run --rm "${RUN_LIMITS[@]}" --label "$LABEL" --entrypoint /bin/sh "$IMAGE" -c \
  'test ! -e /run/secrets/npm_ca && test "$(id -un)" = node && test -d /app/dist/src && test -f /app/dist/bin/pix-sandbox.js && ! test -d /app/node_modules/vitest' ||
  fail "the runtime image is not as expected (secret, user node, dist/, no dev dependencies)"
podman image inspect --format '    user={{.Config.User}} stop={{.Config.StopSignal}} volumes={{.Config.Volumes}} ports={{.Config.ExposedPorts}} size={{.Size}}' "$IMAGE"
ok "image built; no CA in it, runs as node, no dev dependencies"

step "baseline: an express hello-world built the same way on the same base ($HELLO_IMAGE)"
mkdir -p "$WORK/hello"
EXPRESS_VERSION=$(node -p "require('express/package.json').version")
printf '{ "name": "hello", "private": true, "type": "module", "dependencies": { "express": "%s" } }\n' "$EXPRESS_VERSION" >"$WORK/hello/package.json"
cat >"$WORK/hello/server.js" <<'HELLO'
import express from 'express';
const app = express();
app.get('/_sandbox/health', (req, res) => res.json({ status: 'ok' }));
app.get('/', (req, res) => res.send('hello'));
const server = app.listen(Number(process.env.PORT ?? 8080), '0.0.0.0');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
HELLO
cat >"$WORK/hello/Containerfile" <<'CONTAINERFILE'
ARG NODE_IMAGE
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json ./
RUN --mount=type=secret,id=npm_ca \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi && \
    npm install --omit=dev --no-audit --no-fund --loglevel=error && npm cache clean --force
FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json server.js ./
USER node
EXPOSE 8080
HEALTHCHECK --interval=5s --timeout=3s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:8080/_sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server.js"]
CONTAINERFILE
build "$HELLO_IMAGE" "$WORK/hello" "$WORK/hello-build.log"
ok "express $EXPRESS_VERSION hello-world built"

# ms from `podman run -d` to the image's health endpoint answering 200 through the published port,
# then the image's own HEALTHCHECK must pass too; the container is removed (--rm: its volumes too)
start_to_healthy() {
  local image=$1 name=$PREFIX-timing t0 url ms
  t0=$(date +%s%3N)
  "${PODMAN[@]}" run -d --rm --name "$name" --label "$LABEL" "${RUN_LIMITS[@]}" -p 127.0.0.1::8080 "$image" >/dev/null || fail "podman run $image"
  url="http://$(podman port "$name" 8080/tcp)"
  ms=$(node scripts/container-probe.mjs ready "$url" "$t0") || fail "$image never answered its health endpoint"
  podman healthcheck run "$name" >/dev/null || fail "the HEALTHCHECK of $image did not pass"
  podman stop -t "$STOP_TIMEOUT" "$name" >/dev/null
  for _ in $(seq 1 50); do podman container exists "$name" || break; sleep 0.1; done
  echo "$ms"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mb() { podman image inspect --format '{{.Size}}' "$1" | awk '{ printf "%.0f MB", $1 / 1e6 }'; }

step "size and start-to-healthy time, side by side ($TIMING_RUNS starts each, alternating)"
: >"$WORK/sandbox.ms"
: >"$WORK/hello.ms"
for _ in $(seq 1 "$TIMING_RUNS"); do
  start_to_healthy "$IMAGE" >>"$WORK/sandbox.ms"
  start_to_healthy "$HELLO_IMAGE" >>"$WORK/hello.ms"
done
SANDBOX_MS=$(median <"$WORK/sandbox.ms")
HELLO_MS=$(median <"$WORK/hello.ms")
printf '    %-44s %8s %18s   %s\n' "image" "size" "start-to-healthy" "(each start, ms)"
printf '    %-44s %8s %15s ms   %s\n' "pix-sandbox ($IMAGE)" "$(mb "$IMAGE")" "$SANDBOX_MS" "$(paste -sd' ' "$WORK/sandbox.ms")"
printf '    %-44s %8s %15s ms   %s\n' "express hello-world (same base)" "$(mb "$HELLO_IMAGE")" "$HELLO_MS" "$(paste -sd' ' "$WORK/hello.ms")"
printf '    %-44s %8s\n' "the stand-in base alone" "$(mb "$BASE_IMAGE")"
echo "    pix-sandbox / hello-world: size $(awk -v a="$(podman image inspect --format '{{.Size}}' "$IMAGE")" -v b="$(podman image inspect --format '{{.Size}}' "$HELLO_IMAGE")" 'BEGIN { printf "%.2fx", a / b }'), start-to-healthy $(awk -v a="$SANDBOX_MS" -v b="$HELLO_MS" 'BEGIN { printf "%.2fx", a / b }')"
ok "measured"

start_container() {
  "${PODMAN[@]}" run -d --name "$NAME" --label "$LABEL" "${RUN_LIMITS[@]}" \
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
podman volume create --label "$LABEL" "$VOLUME" >/dev/null
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
podman rm "$NAME" >/dev/null
ok "clean stop"

step "Testcontainers: stand-in $SSHD_IMAGE, podman's Docker-compatible API"
mkdir -p "$WORK/sshd"
cat >"$WORK/sshd/Containerfile" <<'CONTAINERFILE'
ARG NODE_IMAGE
FROM ${NODE_IMAGE}
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends openssh-server >/dev/null && \
    rm -rf /var/lib/apt/lists/* && mkdir -p /run/sshd && ssh-keygen -A
EXPOSE 22
CMD ["sh", "-c", "echo \"root:${PASSWORD:-root}\" | chpasswd && exec /usr/sbin/sshd -D -e -o PermitRootLogin=yes -o PasswordAuthentication=yes -o AddressFamily=inet -o GatewayPorts=yes -o AllowTcpForwarding=yes"]
CONTAINERFILE
build "$SSHD_IMAGE" "$WORK/sshd" "$WORK/sshd-build.log"
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

