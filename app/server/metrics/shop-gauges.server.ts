import path from "node:path";
import { Gauge, type Registry } from "prom-client";
import { PAYMENT_STATUSES } from "~/lib/rules/order-statuses";
import { REFUND_STATUSES } from "~/lib/rules/refunds";
import { hashingQueue } from "../auth/password.server";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { db } from "../db/client.server";
import { databaseFolder, diskRoom } from "../core/disk.server";
import { backupStatus } from "../backups/backup-runs.server";
import { replicaStatus } from "../backups/replica-status.server";

/**
 * The shop's state, read when Prometheus scrapes (each gauge's collect()), one small indexed
 * query each. The orders, payments and refunds are gauges, not counters, on purpose: they are
 * read from the database, which outlives the process, and some go down (a konbini order leaves
 * 入金待ち for 期限切れ, a refund request ends failed). A counter must only ever grow within one
 * process and start at zero with it; rate() and increase() work on these gauges' changes instead.
 */

type Row<K extends string> = Record<K, string> & { n: number; amount: number | null };

function rowsBy<K extends string>(statement: string): Row<K>[] {
  return db().$client.prepare(statement).all() as Row<K>[];
}

const MEDIA_JOB_STATES = ["waiting", "running", "failed"] as const;

export function registerShopGauges(registry: Registry): void {
  const registers = [registry];

  new Gauge({
    name: "shop_password_hashing",
    help: "Password hashes (logins, new passwords) running and waiting for a slot",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const { running, waiting } = hashingQueue();
      this.set({ state: "running" }, running);
      this.set({ state: "waiting" }, waiting);
    },
  });

  // Each query runs once per scrape: the first gauge of a pair reads it and sets its sibling, which
  // has no collect() of its own and is registered after it, so a scrape reads both values fresh.
  const oldestUnsent = new Gauge({
    name: "shop_mail_outbox_oldest_unsent_age_seconds",
    help: "How long the oldest unsent mail has waited (0 when none waits)",
    // Registered below, after the gauge that sets it (prom-client would otherwise use its global registry).
    registers: [],
  });
  new Gauge({
    name: "shop_mail_outbox_backlog",
    help: "Mails in the outbox not yet sent (pending or being sent)",
    registers,
    collect() {
      const { n, oldest } = db()
        .$client.prepare(
          "select count(*) as n, min(created_at) as oldest from mail_outbox where status in ('pending', 'sending')",
        )
        .get() as { n: number; oldest: number | null };
      this.set(n);
      oldestUnsent.set(oldest === null ? 0 : Math.max(0, (now().getTime() - oldest) / 1000));
    },
  });
  registry.registerMetric(oldestUnsent);

  new Gauge({
    name: "shop_media_jobs",
    help: "Media jobs (posters, phone versions) waiting, running and failed for good",
    labelNames: ["status"] as const,
    registers,
    collect() {
      const rows = rowsBy<"status">(
        "select status, count(*) as n, null as amount from media_jobs where status in ('waiting', 'running', 'failed') group by status",
      );
      for (const status of MEDIA_JOB_STATES)
        this.set({ status }, rows.find((row) => row.status === status)?.n ?? 0);
    },
  });

  // Alert on free < reserve: uploads are refused there, and /readyz says not ready. Each gauge reads
  // the disks itself (statfs is microseconds): a scrape collects the gauges at once, so a sibling
  // set by another's asynchronous collect() would show the scrape before's value.
  const volumes = "of the file system of the database (volume=database) and of MEDIA_DIR (volume=media)";
  const diskGauges = [
    ["shop_disk_free_bytes", `Free space ${volumes}`, "freeBytes"],
    ["shop_disk_total_bytes", `Size ${volumes}`, "sizeBytes"],
    [
      "shop_disk_reserve_bytes",
      `Room kept for orders, which no upload may take (DISK_RESERVE_MB, at most a tenth), ${volumes}`,
      "reserveBytes",
    ],
  ] as const;
  for (const [name, help, field] of diskGauges)
    new Gauge({
      name,
      help,
      labelNames: ["volume"] as const,
      registers,
      async collect() {
        const folders = { database: databaseFolder(), media: path.resolve(env().MEDIA_DIR) };
        for (const [volume, folder] of Object.entries(folders)) {
          const room = await diskRoom(folder);
          if (room) this.set({ volume }, room[field]);
        }
      },
    });

  // Alert on the age: it grows when snapshots stop for any reason, failing or never started.
  const snapshotBytes = new Gauge({
    name: "shop_backup_last_success_bytes",
    help: "Size of the last good snapshot as stored (gzipped), 0 when there is none",
    // Registered below, after the gauge that sets it (prom-client would otherwise use its global registry).
    registers: [],
  });
  const snapshotFailures = new Gauge({
    name: "shop_backup_failures_since_last_success",
    help: "Snapshot tries that failed since the last good one (the back-office's システム状態 lists why)",
    registers: [],
  });
  new Gauge({
    name: "shop_backup_last_success_age_seconds",
    help: "How long ago the last good snapshot of the database was stored (+Inf when none ever was)",
    registers,
    collect() {
      const { lastGood, failures } = backupStatus();
      this.set(lastGood ? Math.max(0, (now().getTime() - lastGood.finishedAt.getTime()) / 1000) : Infinity);
      snapshotBytes.set(lastGood?.bytes ?? 0);
      snapshotFailures.set(failures);
    },
  });
  registry.registerMetric(snapshotBytes);
  registry.registerMetric(snapshotFailures);

  // Under Litestream only (its families are absent otherwise, so an alert on them cannot fire
  // on a shop that has no replica): alert on the lag.
  const replicaLastSync = new Gauge({
    name: "shop_backup_replica_last_sync_timestamp_seconds",
    help: "When the Litestream replica last took new writes (Unix seconds; 0: not since start-up)",
    registers: [],
  });
  const replicaErrors = new Gauge({
    name: "shop_backup_replica_sync_errors",
    help: "Litestream's failed syncs since it started",
    registers: [],
  });
  const replicaLag = new Gauge({
    name: "shop_backup_replica_lag_seconds",
    help: "Seconds since the Litestream replica was last seen holding every write (grows when it falls behind or stops)",
    registers: [],
    collect() {
      const status = replicaStatus();
      this.set(status.lagSeconds);
      replicaLastSync.set(status.lastSyncAt ? status.lastSyncAt.getTime() / 1000 : 0);
      replicaErrors.set(status.syncErrors);
    },
  });
  if (env().LITESTREAM_REPLICATES)
    for (const gauge of [replicaLag, replicaLastSync, replicaErrors]) registry.registerMetric(gauge);

  const paidAmount = new Gauge({
    name: "shop_orders_paid_amount_yen",
    help: "What the paid orders came to, in yen, before refunds",
    // Registered below, after the gauge that sets it (prom-client would otherwise use its global registry).
    registers: [],
  });
  new Gauge({
    name: "shop_orders",
    help: "Orders by payment status (paid, awaiting: a konbini voucher not yet paid, expired)",
    labelNames: ["payment_status"] as const,
    registers,
    collect() {
      const rows = rowsBy<"status">(
        "select payment_status as status, count(*) as n, sum(total_amount) as amount from orders group by payment_status",
      );
      for (const status of PAYMENT_STATUSES)
        this.set({ payment_status: status }, rows.find((row) => row.status === status)?.n ?? 0);
      paidAmount.set(rows.find((row) => row.status === "paid")?.amount ?? 0);
    },
  });
  registry.registerMetric(paidAmount);

  const refundAmounts = new Gauge({
    name: "shop_refunds_amount_yen",
    help: "Money refunded or on its way back, in yen, by status",
    labelNames: ["status"] as const,
    // Registered below, after the gauge that sets it (prom-client would otherwise use its global registry).
    registers: [],
  });
  new Gauge({
    name: "shop_refunds",
    help: "Refunds by status (requested, processing, succeeded, failed)",
    labelNames: ["status"] as const,
    registers,
    collect() {
      const rows = rowsBy<"status">(
        "select status, count(*) as n, sum(amount) as amount from refunds group by status",
      );
      for (const status of REFUND_STATUSES) {
        const row = rows.find((found) => found.status === status);
        this.set({ status }, row?.n ?? 0);
        refundAmounts.set({ status }, row?.amount ?? 0);
      }
    },
  });
  registry.registerMetric(refundAmounts);
}
