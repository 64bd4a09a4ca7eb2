# Mailbox (`mailbox serve`: the HTTP + MCP front end on 8080, inbound SMTP on 2525, the workers).
# The image holds no redis-server: give it REDIS_URL or REDIS_CLUSTER_NODES (docker-compose.yml does),
# and MAILBOX_MASTER_KEY or MAILBOX_MASTER_KEY_FILE (the master key, made once in that file).
# Node 24 LTS: HTTP runs on node:http there (the uWebSockets.js build the project installs loads on Node 20 only).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY actors ./actors
# The build writes the scripts' typed bindings from lua/ first (npm run bindings:generate, through the
# project's TypeScript loader).
COPY lua ./lua
COPY test/helpers/ts-loader.mjs test/helpers/ts-hooks.mjs ./test/helpers/
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    SMTP_PORT=2525
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY lua ./lua
COPY web ./web
# Writable data directory (MAILBOX_DATA_DIR=var: outbox, master key) for the user the service runs as;
# a named volume mounted there (docker-compose.yml) starts with this owner.
RUN mkdir -p var && chown node:node var
USER node
EXPOSE 8080 2525
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=64", "bin/mailbox.js", "serve"]
