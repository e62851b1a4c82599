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
# The backup/restore scripts are bundled to plain JS, since tsx is not in the runtime image:
#   docker exec <container> node build/scripts/backup.js /data/backups
RUN npx remix vite:build \
 && npx esbuild scripts/backup.ts scripts/restore.ts --bundle --platform=node --format=esm --packages=external --outdir=build/scripts \
 && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
# Production refuses to start without SESSION_SECRET and ENCRYPTION_KEY (32+ characters each),
# and without Stripe keys (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET) unless
# PAYMENT_PROVIDER=test says no money is to move: pass them at run time (docker run -e, fly secrets),
# never bake them into the image.
# MALLOC_ARENA_MAX=2: glibc's per-thread malloc arenas (libuv's pool, SQLite, sharp) kept ~16 MB
# more after a burst and after the idle minute (npm run bench:server, issue 16).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
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
