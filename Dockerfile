# Pix Ops for Slack, as a container image. What runs in it is the production install that CI checks
# (.ci/production-install.js): `npm ci --omit=dev` on package.json, package-lock.json and a built dist/.
# docs/operations.md ("Containers") says how to build and run it, and compose.yml runs it on PostgreSQL.

# Node 20 on Debian 12, slim. Every stage starts from it, so the sqlite3 module built in one stage runs in
# another: the same Node (its module ABI) and the same C library.
FROM node:20-bookworm-slim AS base
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false

# Build: every dependency, then TypeScript into dist/. No install scripts: compiling needs no native module.
FROM base AS build
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src src
COPY commands commands
COPY views views
RUN npm run build

# The production install, as CI checks it. sqlite3 builds from source here when no prebuilt binary can be
# downloaded, so this stage has the toolchain (Python, make, a C++ compiler) and Node's own headers; the
# runtime stage takes its node_modules and has no compiler: a smaller image, with nothing to build code with.
FROM base AS production
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
COPY --from=build /app/dist dist
RUN npm ci --omit=dev && npm cache clean --force

FROM base AS runtime
# tini as PID 1: it passes docker stop's SIGTERM on to node (which then stops within 10 s) and reaps children.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=3000 HEALTH_PORT=9090
COPY --from=production /app/package.json ./
COPY --from=production /app/node_modules node_modules
COPY --from=production /app/dist dist
# The code belongs to root, read-only to the bot; data/ (sqlite's default file and its store-secret) is the
# one folder it writes: mount a volume there when sqlite is the store.
RUN mkdir data && chown node:node data
USER node
EXPOSE 3000
# Ready: the store answers and Slack is served (or the socket connected); GET /readyz of HEALTH_PORT, in Node (no curl here).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.HEALTH_PORT + '/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/main.js"]
