# Multi-stage build: compile (native better-sqlite3, the Remix build) in one stage,
# run in a slim one with only production dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
# npm install applies these patches of packages (patch-package, postinstall).
COPY patches ./patches
RUN npm install --no-audit --no-fund && npm rebuild better-sqlite3
COPY . .
# The backup/restore and storage:migrate scripts are bundled to plain JS, since tsx is not in the runtime image:
#   docker exec <container> node build/scripts/backup.js /data/backups
RUN npx remix vite:build \
 && npx esbuild scripts/backup.ts scripts/restore.ts scripts/storage-migrate.ts --bundle --platform=node --format=esm --packages=external --outdir=build/scripts \
 && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
# jemalloc instead of glibc's malloc: a minute after a burst glibc still held ~45 MB of native
# memory outside the V8 heap (the heap itself was back at ~30 MB), which jemalloc gives back within
# seconds (npm run bench:server, issue 16). Linked at a fixed path whatever the architecture.
RUN apt-get update && apt-get install -y --no-install-recommends libjemalloc2 && rm -rf /var/lib/apt/lists/* \
 && ln -s "$(find /usr/lib -name libjemalloc.so.2 | head -n 1)" /usr/local/lib/libjemalloc.so.2
# Production refuses to start without SESSION_SECRET and ENCRYPTION_KEY (32+ characters each),
# and without Stripe keys (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET) unless
# PAYMENT_PROVIDER=test says no money is to move: pass them at run time (docker run -e, fly secrets),
# never bake them into the image.
ENV NODE_ENV=production \
    LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
    PORT=3000 \
    DATABASE_PATH=/data/shop.db \
    MEDIA_DIR=/data/media \
    MAIL_DIR=/data/mail
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/package.json ./package.json
VOLUME /data
EXPOSE 3000
# Migrations run when the server loads (app/server/startup.server.ts).
CMD ["npx", "remix-serve", "build/server/index.js"]
