import { eq } from "drizzle-orm";
import { db } from "./db/client.server";
import { users } from "./db/schema";
import { env } from "./core/env.server";
import { remember } from "./core/remember.server";
import { startOutboxRetryLoop } from "./mail/outbox.server";
import { hashPassword } from "./auth/password.server";
import { recoverUnrecordedPayments } from "./checkout/payment-recovery.server";
import { resendRequestedRefunds } from "./refunds/refund-sending.server";
import { deleteExpiredDrafts } from "./checkout/draft.server";
import { deleteExpiredSessions } from "./http/session.server";
import { deleteOldRateLimitWindows, trustProxyNotice } from "./http/rate-limit.server";
import { paymentProviderNotice } from "./payments/index.server";
import { deleteUnneededDeliveryFiles } from "./delivery/file-cleanup.server";
import { reconcileKonbiniPayments } from "./orders/konbini.server";
import { cleanupStaleUploads } from "./media/upload-cleanup.server";
import { listingSweepDue } from "./files/store.server";
import { HOUR_MS } from "~/lib/rules/tokyo-date";
import { startMediaWorker } from "./media/jobs/worker.server";
import { startBackupLoop } from "./backups/scheduler.server";
import { startReplicaWatch } from "./backups/replica-status.server";
import { backupNotice } from "./backups/backup-notice.server";
import { ffmpegInstalled } from "./media/probe.server";
import { REMINDER_PASS_INTERVAL_MS, startReminderLoop } from "./reminders/reminder-pass.server";
import { offerDownloadRetries } from "./orders/customer/download-retry.server";

/**
 * Runs once when the server build is loaded: validates configuration (a bad value
 * stops start-up naming the variable), opens and migrates the database, and creates
 * the first admin from ADMIN_EMAIL / ADMIN_PASSWORD when the shop has none, makes the
 * orders of payments that succeeded while their order was never written, and starts the
 * loops that retry mail the SMTP server could not take, delete expired order drafts and queue
 * the reminder mails.
 */
export async function startUp(): Promise<void> {
  const config = env();
  if (config.NODE_ENV === "production") {
    console.log(`[startup] ${trustProxyNotice(config.TRUST_PROXY)}`);
    console.log(`[startup] ${paymentProviderNotice(config.PAYMENT_PROVIDER)}`);
  }
  const database = db();
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const email = config.ADMIN_EMAIL.toLowerCase();
    const anyAdmin = database.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).get();
    if (!anyAdmin) {
      const passwordHash = await hashPassword(config.ADMIN_PASSWORD);
      database
        .insert(users)
        .values({ email, name: "管理者", passwordHash, isAdmin: true })
        .onConflictDoUpdate({ target: users.email, set: { isAdmin: true, passwordHash } })
        .run();
      console.log(`[startup] 管理者アカウントを作成しました: ${email}`);
    }
  }
  // In the background: with Stripe this asks the network, and the shop should answer meanwhile.
  void recoverUnrecordedPayments()
    .catch((error: unknown) => console.error("[payments] reconciliation failed", error))
    // Refunds written but never answered (the server stopped, the provider was unreachable).
    .then(() => resendRequestedRefunds())
    .catch((error: unknown) => console.error("[refunds] resending failed", error));
  startOutboxRetryLoop();
  startCleanUpLoop();
  // Reminder mails before a voucher's deadline and a download page's end, by the clock (no cron);
  // the same pass offers again the downloads cut short whose 24 hours ended, and mails it.
  startReminderLoop(REMINDER_PASS_INTERVAL_MS, [
    { name: "downloads offered again", run: () => offerDownloadRetries() },
  ]);
  // Every uploaded video is read by ffprobe and its versions made by ffmpeg: without them uploads
  // of videos are refused, so the log says at once what the machine lacks.
  void ffmpegInstalled().then((found) => {
    if (!found)
      console.error(
        "[startup] ffmpeg / ffprobe が見つかりません。動画のアップロードには必要です: apt-get install ffmpeg",
      );
  });
  // Posters and phone versions: in this process unless a worker of their own runs them (npm run worker).
  if (config.MEDIA_WORKER === "server") startMediaWorker();
  if (config.NODE_ENV === "production") console.log(`[startup] ${backupNotice(config)}`);
  startBackupLoop();
  startReplicaWatch();
}

const CLEAN_UP_INTERVAL_MS = HOUR_MS;
// Remembered, so a dev-server reload reuses the loop instead of starting a second one.
const cleanUpLoop = remember("cleanUpLoop", (): { timer?: NodeJS.Timeout } => ({}));

/**
 * Hourly (and once now): unpaid drafts and sessions past their expiry, and rate-limit counters of
 * windows long over, are deleted, so anonymous posts cannot pile up; so are delivered videos no
 * download page offers any longer, so the disk does not fill with last year's contests. Waiting
 * konbini orders are checked with the provider (a lost webhook): paid, or past their deadline.
 * Uploads abandoned for 24 hours go too (in object storage, their multipart uploads are aborted).
 */
export function startCleanUpLoop(intervalMs = CLEAN_UP_INTERVAL_MS): void {
  if (cleanUpLoop.timer) return;
  const cleanUp = async () => {
    try {
      const drafts = deleteExpiredDrafts();
      if (drafts > 0) console.log(`[clean-up] deleted ${drafts} expired order draft(s)`);
      const sessions = deleteExpiredSessions();
      if (sessions > 0) console.log(`[clean-up] deleted ${sessions} expired session(s)`);
      deleteOldRateLimitWindows();
      const sweepLeftovers = await listingSweepDue();
      const files = await deleteUnneededDeliveryFiles({ sweepLeftovers });
      if (files > 0) console.log(`[clean-up] deleted ${files} delivery file(s) no download page needs`);
      const uploads = await cleanupStaleUploads({ sweepLeftovers });
      if (uploads > 0) console.log(`[clean-up] removed ${uploads} abandoned upload(s) and scratch file(s)`);
    } catch (error: unknown) {
      console.error("[clean-up] failed", error);
    }
  };
  const reconcile = () =>
    void reconcileKonbiniPayments()
      .then(({ paid, expired }) => {
        if (paid + expired > 0)
          console.log(`[payments] konbini: ${paid} order(s) paid, ${expired} expired by reconciliation`);
      })
      .catch((error: unknown) => console.error("[payments] konbini reconciliation failed", error));
  const hourly = () => {
    void cleanUp();
    reconcile();
  };
  hourly();
  const timer = setInterval(hourly, intervalMs);
  timer.unref();
  cleanUpLoop.timer = timer;
}

export function stopCleanUpLoop(): void {
  clearInterval(cleanUpLoop.timer);
  cleanUpLoop.timer = undefined;
}
