# Portcullis: one image for every replica. Built in stages so the final one holds no compiler, no dev
# dependencies and no npm cache: only Node.js, the production node_modules, the built console and the source
# the start command runs (through tsx). Checked statically in CI (scripts/deploy-artifacts.test.ts); this
# machine has no container engine, so the image itself is not built here (docs/operations.md).
#
#   docker build -t portcullis:0.1.0 .
#   docker run -p 3000:3000 -e DATABASE_URL=… -e NEXTAUTH_SECRET=… -e SECRETS_KEY=… -e PUBLIC_URL=… portcullis:0.1.0

ARG NODE_IMAGE=node:22.23.5-bookworm-slim

# ── dependencies, with the dev ones the build needs ──────────────────────────────────────────────────────────
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts

# ── the build: Prisma client and the Next.js console ─────────────────────────────────────────────────────────
FROM deps AS build
COPY . .
# CI=true: one clean build, so `next build` writes no Turbopack cache (D186); what else is under .next/cache goes too.
RUN node scripts/generate-client.mjs && CI=true npm run build && rm -rf .next/cache

# ── production dependencies only ─────────────────────────────────────────────────────────────────────────────
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force

# ── the image that runs ──────────────────────────────────────────────────────────────────────────────────────
FROM ${NODE_IMAGE} AS runtime
# bubblewrap: the sandbox of stdio upstream servers (isolation profiles); ca-certificates: HTTPS upstreams.
RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 portcullis \
 && useradd --system --uid 10001 --gid portcullis --home-dir /data --shell /usr/sbin/nologin portcullis \
 && mkdir -p /data && chown portcullis:portcullis /data
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    PORTCULLIS_NO_DEMO=1
COPY --from=prod-deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/package.json /app/next.config.ts /app/tsconfig.json /app/postcss.config.mjs ./
COPY --from=build --chown=root:root /app/.next ./.next
# the server compiled ahead of time (D177); `portcullis start` checks it against the source below before using it
COPY --from=build --chown=root:root /app/.build ./.build
COPY --from=build --chown=root:root /app/app ./app
COPY --from=build --chown=root:root /app/components ./components
COPY --from=build --chown=root:root /app/lib ./lib
COPY --from=build --chown=root:root /app/server ./server
COPY --from=build --chown=root:root /app/scripts ./scripts
COPY --from=build --chown=root:root /app/prisma ./prisma
# The code and the build belong to root and are not writable by the process; it writes only under /data and
# /tmp (mount both as volumes with a read-only root file system).
USER 10001:10001
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The real start command (package.json's "start"): migrations under a lock, then the console and the gateway.
ENTRYPOINT ["node", "scripts/portcullis.mjs", "start", "--no-build"]
