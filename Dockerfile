# syntax=docker/dockerfile:1
#
# Parley in a container: the production build (`npm run build`) served with plain node.
# docs/deploy-containers.md tells how to build and run it, alone (SQLite in /data) or scaled out
# (compose.yaml: PostgreSQL, Redis, two instances, nginx).
#
# No container runtime works on the machines this project is built and tested on, so this file
# has never been built here. It therefore runs only commands that CI runs and tests: `npm ci`,
# `npm run build` and, to start, what `npm run start:prod` runs (server/src/ops/
# container-files.test.ts checks that, and production-build.test.ts runs those commands).

# ---- build: install everything, compile server and connectors, bundle widget and dashboard
FROM node:20-bookworm-slim AS build
WORKDIR /app
# The manifests first: the install layer is reused until the lockfile changes.
COPY package.json package-lock.json ./
COPY server/package.json server/
COPY connectors/package.json connectors/
COPY widget/package.json widget/
COPY dashboard/package.json dashboard/
COPY bench/package.json bench/
# better-sqlite3 and argon2 install prebuilt binaries for linux x64/arm64 (glibc): no compiler.
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- runtime: production dependencies only, the build output, no sources
FROM node:20-bookworm-slim AS runtime
WORKDIR /app
COPY package.json package-lock.json ./
COPY server/package.json server/
COPY connectors/package.json connectors/
COPY widget/package.json widget/
COPY dashboard/package.json dashboard/
COPY bench/package.json bench/
RUN npm ci --omit=dev --no-audit --no-fund
COPY scripts/run-built.mjs scripts/
COPY demo demo
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/connectors/dist connectors/dist
COPY --from=build /app/widget/dist widget/dist
COPY --from=build /app/dashboard/dist dashboard/dist
# The data directory, owned by the unprivileged user (a COPY, not a RUN mkdir: see the top).
# A named volume mounted here starts with this owner.
COPY --chown=node:node deploy/data/ /data/

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=/data/parley.db \
    SEED_DEMO=false
VOLUME ["/data"]
EXPOSE 3000
# The official image's unprivileged user (uid 1000).
USER node

# Ready = the database answers and the retrieval index is built (/readyz; 503 before).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# What `npm run start:prod` runs, without npm in between: node is PID 1's only child of note
# and gets the runtime's SIGTERM itself (it finishes in-flight requests, then exits 0).
CMD ["node", "scripts/run-built.mjs", "main.js"]
