# Multi-stage build: compile (native better-sqlite3, the Remix build) in one stage,
# run in a slim one with only production dependencies.
# Node 24 (LTS until 2028-04-30): Node 20, which the machines and the test suite still run, reached
# its end of life on 2026-04-30. `npm run test:node24` runs the vitest suite on Node 24.
FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
# npm install applies these patches of packages (patch-package, postinstall).
COPY patches ./patches
# better-sqlite3 12 is compiled here against Node 24.0.0's headers, as its own prebuilt binaries
# are: from 24.19.0 on, the headers' node::ObjectWrap removes a cleanup hook in its destructor,
# which aborts the process whenever V8 collects a statement outside a JavaScript context
# (`Assertion failed: (env) != nullptr`, nodejs/node#65446, open). A build against the image's own
# headers would crash the shop at random; the grep refuses an addon that has that code in it.
RUN npm install --no-audit --no-fund \
 && (cd node_modules/better-sqlite3 \
     && node "$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js" rebuild --release --target=24.0.0) \
 && ! grep -q RemoveEnvironmentCleanupHook node_modules/better-sqlite3/build/Release/better_sqlite3.node
COPY . .
# npm run build: the Remix build (build/) and the server entry compiled to plain JS (server-build/).
# The backup/restore, storage:migrate and media worker scripts are bundled to plain JS too, since tsx is not in
# the runtime image:
#   docker exec <container> node build/scripts/backup.js /data/backups
# (--alias: the app's own `~/` imports are bundled; --packages=external alone took `~` for a package,
# and storage-migrate.js and worker.js then stopped at start with ERR_MODULE_NOT_FOUND.)
RUN npm run build \
 && npx esbuild scripts/backup.ts scripts/restore.ts scripts/storage-migrate.ts scripts/worker.ts --bundle --platform=node --format=esm --packages=external --alias:~=./app --outdir=build/scripts \
 && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
# jemalloc instead of glibc's malloc: a minute after a burst glibc still held ~45 MB of native
# memory outside the V8 heap (the heap itself was back at ~30 MB), which jemalloc gives back within
# seconds (npm run bench:server). Linked at a fixed path whatever the architecture.
# ffmpeg (with ffprobe): the shop probes every uploaded video and makes each one's poster and
# phone version (decision 0036). Debian's build, without recommended packages, which the shop never uses.
RUN apt-get update && apt-get install -y --no-install-recommends libjemalloc2 ffmpeg && rm -rf /var/lib/apt/lists/* \
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
# Beside build/: the entry loads the Remix build from ../build/server/index.js.
COPY --from=build /app/server-build ./server-build
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/package.json ./package.json
# The start: Litestream restores and replicates the database when a bucket takes the backups
# (decision 0041); its binary is in node_modules (@flydotio/litestream-linux-x64).
COPY --from=build /app/scripts/start.sh ./scripts/start.sh
VOLUME /data
EXPOSE 3000
# Migrations run when the server loads (app/server/startup.server.ts). scripts/start.sh execs
# into the process that stays (no npm or npx in front, and signals reach it directly): without a
# backup bucket node itself; with one Litestream, which runs node as its child, hands it the stop
# signal and syncs once more when it has exited. On SIGTERM (`docker stop`, fly.io's kill_signal),
# SIGINT or SIGHUP the server stops accepting, answers what it had (10 s at most) and lets the
# outbox finish the mail it is sending, and exits 0. Docker sends SIGKILL 10 s after SIGTERM
# unless told otherwise: `docker run --stop-timeout 60` (fly.toml's kill_timeout). The server's
# own children (ffmpeg, ffprobe) die with it (setpriv's parent-death signal) and are waited for.
CMD ["sh", "scripts/start.sh"]
