import { env } from "../core/env.server";
import { remember } from "../core/remember.server";

/**
 * How far the Litestream replica is behind (decision 0041). Litestream, the server's parent under
 * scripts/start.sh, tells its numbers on this machine (LITESTREAM_METRICS_PORT): the position of
 * its shadow WAL (what the database has written) and of each replica (what the bucket holds). The
 * shop reads them every few seconds and keeps two times: when the replica was last seen holding
 * every write, and when it last took new ones. The lag is the time since the first: a few seconds
 * at most while Litestream keeps up, growing when it falls behind, cannot reach the bucket, or has
 * stopped (then its numbers cannot be read at all).
 */

const POLL_INTERVAL_MS = 2_000;

/** The numbers of Litestream's that say where the database and its replica are. */
export type LitestreamPosition = {
  shadowIndex: number;
  shadowSize: number;
  replicaIndex: number;
  replicaOffset: number;
  syncErrors: number;
};

/** Reads the position from Litestream's Prometheus text; null when a number is missing. */
export function readLitestreamPosition(text: string): LitestreamPosition | null {
  const value = (name: string): number | null => {
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text);
    const number = match ? Number(match[1]) : NaN;
    return Number.isFinite(number) ? number : null;
  };
  const position = {
    shadowIndex: value("litestream_shadow_wal_index"),
    shadowSize: value("litestream_shadow_wal_size"),
    replicaIndex: value("litestream_replica_wal_index"),
    replicaOffset: value("litestream_replica_wal_offset"),
    syncErrors: value("litestream_sync_error_count") ?? 0,
  };
  if (Object.values(position).some((entry) => entry === null)) return null;
  return position as LitestreamPosition;
}

/** Whether the replica holds everything the database has written. */
export function caughtUp(position: LitestreamPosition): boolean {
  if (position.replicaIndex !== position.shadowIndex) return position.replicaIndex > position.shadowIndex;
  return position.replicaOffset >= position.shadowSize;
}

export type ReplicaStatus = {
  /** Whether this server runs under Litestream at all (scripts/start.sh with a bucket). */
  replicating: boolean;
  /** Whether Litestream's numbers could be read at the last look. */
  reachable: boolean;
  /** Seconds since the replica was last seen holding every write (since start-up when never). */
  lagSeconds: number;
  /** When the replica last took new writes (null: not since start-up). */
  lastSyncAt: Date | null;
  /** Litestream's failed syncs since it started. */
  syncErrors: number;
};

type Watch = {
  startedAt: number;
  caughtUpAt: number;
  lastSyncAt: number | null;
  lastReplica: string | null;
  reachable: boolean;
  syncErrors: number;
  timer?: NodeJS.Timeout;
};

// Remembered, so a dev-server reload reuses the watch instead of starting a second one; empty when stopped.
const replica = remember("replicaWatch", (): { watch?: Watch } => ({}));

/** One look at Litestream's numbers, folded into the watch. */
export function noteLitestreamPosition(watch: Watch, position: LitestreamPosition | null, at: number): void {
  watch.reachable = position !== null;
  if (!position) return;
  watch.syncErrors = position.syncErrors;
  const replica = `${position.replicaIndex}/${position.replicaOffset}`;
  if (watch.lastReplica !== null && replica !== watch.lastReplica) watch.lastSyncAt = at;
  watch.lastReplica = replica;
  if (caughtUp(position)) watch.caughtUpAt = at;
}

export function newReplicaWatch(at: number): Watch {
  return { startedAt: at, caughtUpAt: at, lastSyncAt: null, lastReplica: null, reachable: false, syncErrors: 0 };
}

async function look(watch: Watch): Promise<void> {
  const text = await fetch(`http://127.0.0.1:${env().LITESTREAM_METRICS_PORT}/metrics`, {
    signal: AbortSignal.timeout(1_000),
  })
    .then((response) => (response.ok ? response.text() : ""))
    .catch(() => "");
  // The wall clock, not the shop's (tests move that): Litestream syncs in real time.
  // eslint-disable-next-line no-restricted-syntax
  noteLitestreamPosition(watch, readLitestreamPosition(text), Date.now());
}

/** Starts looking at Litestream's numbers (at start-up, under Litestream only). */
export function startReplicaWatch(): void {
  if (!env().LITESTREAM_REPLICATES || replica.watch) return;
  // eslint-disable-next-line no-restricted-syntax
  const watch = newReplicaWatch(Date.now());
  replica.watch = watch;
  void look(watch);
  watch.timer = setInterval(() => void look(watch), POLL_INTERVAL_MS);
  watch.timer.unref();
}

export function stopReplicaWatch(): void {
  clearInterval(replica.watch?.timer);
  replica.watch = undefined;
}

/** The replica as last seen, for /metrics and システム状態. */
// eslint-disable-next-line no-restricted-syntax
export function replicaStatus(at: number = Date.now()): ReplicaStatus {
  const watch = replica.watch;
  if (!watch) return { replicating: false, reachable: false, lagSeconds: 0, lastSyncAt: null, syncErrors: 0 };
  return {
    replicating: true,
    reachable: watch.reachable,
    lagSeconds: Math.max(0, (at - watch.caughtUpAt) / 1000),
    lastSyncAt: watch.lastSyncAt === null ? null : new Date(watch.lastSyncAt),
    syncErrors: watch.syncErrors,
  };
}
