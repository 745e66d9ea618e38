# pix-sandbox: a local, stateful PIX banking API simulator.
#   docker build -t pix-sandbox .
#   docker run --rm -p 8080:8080 -p 8443:8443 -v pix-sandbox-data:/data pix-sandbox
# Behind a TLS-intercepting proxy, give npm the proxy's CA at build time only (a build secret
# never lands in a layer):  docker build --secret id=npm_ca,src=/etc/ssl/certs/ca-certificates.crt .
# Where the official base cannot be pulled, build on a Node.js image of your own (Debian-based, with
# node and npm on the PATH and a user "node"; docs/install.md#building-the-image-without-a-registry):
#   docker build --build-arg NODE_IMAGE=registry.example.com/node:22-bookworm-slim -t pix-sandbox .
ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: every dependency, compile TypeScript to dist/src, bundle the command into dist/bin ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=npm_ca \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi && \
    npm ci --no-audit --no-fund --loglevel=error
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-state.mjs scripts/precompile-schemas.mjs scripts/bundle.mjs ./scripts/
COPY src ./src
RUN npm run build

# ---- deps: production dependencies only ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=npm_ca \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi && \
    npm ci --omit=dev --no-audit --no-fund --loglevel=error && \
    npm cache clean --force

# ---- runtime: node, production node_modules, dist/ and the package's data files ----
FROM ${NODE_IMAGE}
LABEL org.opencontainers.image.title="pix-sandbox" \
      org.opencontainers.image.description="A local, stateful simulator of a Brazilian PIX banking API, for integration testing" \
      org.opencontainers.image.licenses="MIT"
ENV NODE_ENV=production \
    PIX_SANDBOX_HOST=0.0.0.0 \
    PIX_SANDBOX_PORT=8080 \
    PIX_SANDBOX_HTTPS_PORT=8443 \
    PIX_SANDBOX_DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/bin ./dist/bin
COPY package.json package-lock.json ./
COPY fixtures ./fixtures
COPY ui ./ui
COPY scenarios ./scenarios
# the official node images ship the unprivileged user "node" (uid 1000); /data must be its own
# before VOLUME, so that a fresh named volume is created writable by it
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080 8443
# no curl in a slim image: node itself asks the health endpoint (open even with an admin token). It
# answers 200 only once the sandbox is ready (listening, store open, fixtures loaded), 503 while it
# starts or stops, so "healthy" means ready (docs/install.md). No --start-period: the sandbox answers
# within a second, and dockerfilelint 1.8 rejects the option.
HEALTHCHECK --interval=5s --timeout=3s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PIX_SANDBOX_PORT||8080)+'/_sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1 (the file's "#!/usr/bin/env -S node <flags>" line execs it, with the V8 flags the
# command is meant to run with) and handles SIGTERM itself: it drains requests, flushes the store and exits 0
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/dist/bin/pix-sandbox.js"]
CMD ["serve"]
