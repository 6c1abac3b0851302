# The product on its embedded default (PGlite under /data), or on PostgreSQL with DATABASE_URL.
# Build: docker build -t knowledge-assistant .
# Run:   docker run -p 3000:3000 -v kb-data:/data -e SESSION_SECRET=... -e TOKEN_SECRET=... -e API_KEY=... -e ADMIN_PASSWORD=... knowledge-assistant
# Sign-in is on (AUTH_ENABLED=true): the first administrator is ADMIN_USERNAME (admin) with ADMIN_PASSWORD; without
# one, a password is made up and printed at start. Demo mode (AUTH_ENABLED=false) is refused on 0.0.0.0 unless
# ALLOW_ANONYMOUS_ADMIN_ON_NETWORK=true: it makes everyone who reaches the app the administrator.
# Roles: ROLE=api, worker or web starts one part only, beside others on one PostgreSQL database (docs/deployment.md).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    AUTH_ENABLED=true \
    HOST=0.0.0.0 \
    PORT=3000 \
    API_HOST=127.0.0.1 \
    API_PORT=3001 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/scripts ./scripts
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# 3000: the web app (ROLE all, web); 3001: the API (ROLE api) or a worker's /healthz (ROLE worker).
EXPOSE 3000 3001
# /healthz of the part this container runs (scripts/healthcheck.mjs).
HEALTHCHECK --interval=30s --timeout=5s CMD ["node", "scripts/healthcheck.mjs"]
CMD ["node", "scripts/start.mjs"]
