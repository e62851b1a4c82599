#!/bin/sh
# The shop in production (`npm start`, the Docker image's CMD; decision 0041). With a bucket for
# backups (BACKUP_URL, or the media bucket STORAGE_URL), Litestream copies every write off the
# machine within a second: at boot it first restores the database from the replica when the
# volume has none (a new or lost volume), then runs the server as its child (`-exec`), passes it
# the stop signal, and syncs what is left once it has exited. Without a bucket, the server alone.
set -eu
cd "$(dirname "$0")/.."
plan=$(node server-build/replica-plan.js)
if [ -z "$plan" ]; then
  exec node server-build/index.js
fi
config=$(echo "$plan" | sed -n 1p)
database=$(echo "$plan" | sed -n 2p)
litestream=$(echo "$plan" | sed -n 3p)
mkdir -p "$(dirname "$database")"
"$litestream" restore -config "$config" -no-expand-env -if-db-not-exists -if-replica-exists "$database"
export LITESTREAM_REPLICATES=true
exec "$litestream" replicate -config "$config" -no-expand-env -exec "node server-build/index.js"
