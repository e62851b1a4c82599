import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recoverUnrecordedPayments } from "~/server/checkout/payment-recovery.server";
import { takeScheduledSnapshot } from "~/server/backups/scheduler.server";
import { env } from "~/server/core/env.server";
import { db, openDatabase, useDatabase } from "~/server/db/client.server";
import { deliverContest } from "~/server/delivery/batch-delivery.server";
import { storeDeliveryFile } from "~/server/delivery/delivery-files.server";
import { deliveryFiles, orderLines, orders } from "~/server/db/schema";
import { fileStore } from "~/server/files/store.server";
import { pendingMailCount } from "~/server/mail/outbox.server";
import { recordPayment } from "~/server/orders/record-payment.server";
import { paymentProvider } from "~/server/payments/index.server";
import { seedContest } from "../../helpers/shop";
import { intentOfVerifiedCheckout } from "../../helpers/stripe-checkout";
import { withStripeShop } from "../../helpers/stripe-events";
import { videoBytes } from "../../helpers/test-videos";

/**
 * The restore drill: a shop with paid orders (one delivered) takes its scheduled
 * snapshot; more orders are paid; the volume is lost (the database file deleted); `npm run restore
 * -- --latest` brings the snapshot back from where the shop keeps them (BACKUP_DIR here, the
 * bucket's backups/ in the s3 project) and the orders paid after it from the payment provider
 * (the local Stripe, through the real SDK). Every paid order is back exactly once with its lines,
 * and every delivered file is reachable.
 */
const fake = withStripeShop();
const run = promisify(execFile);
const root = path.resolve(__dirname, "../../..");

/** A checkout of the contest's athlete (縦 and 横) up to its PaymentIntent at the local Stripe. */
async function startedPayment(shop: ReturnType<typeof seedContest>) {
  return (await intentOfVerifiedCheckout(fake, { shop })).intent!.id;
}

/** The card goes through at Stripe and the shop records it, as the browser's return does. */
async function pay(intentId: string) {
  fake.stripe.succeed(intentId);
  const made = recordPayment((await paymentProvider().retrieveIntent(intentId))!);
  if (!made.ok) throw new Error(made.detail);
  return made.order;
}

/** What a paid order is, to compare after the restore: its payment, total, customer and lines. */
function shape(order: typeof orders.$inferSelect) {
  const lines = db()
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .all()
    .map((line) => [line.athleteName, line.style, line.price])
    .sort();
  return {
    payment: order.paymentIntentId,
    total: order.totalAmount,
    email: order.customerEmail,
    name: order.customerName,
    paymentStatus: order.paymentStatus,
    // The delivered one stays delivered (納品済み), the others 未対応.
    status: order.status,
    lines,
  };
}

describe("restore drill", () => {
  it("after the volume is lost, the latest snapshot and the provider's payments bring back every paid order once and every delivered file", async () => {
    // Before the snapshot: two paid orders, the first delivered (its video stored where the shop
    // keeps files), and a third whose payment was started but not yet made.
    const shop = seedContest();
    const first = await pay(await startedPayment(shop));
    const second = await pay(await startedPayment(shop));
    const startedBefore = await startedPayment(shop);
    const line = db().select().from(orderLines).where(eq(orderLines.orderId, first.id)).all();
    for (const { athleteNumber, orientation } of line) {
      const file = path.join(env().MEDIA_DIR, `incoming-${athleteNumber}-${orientation}`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, videoBytes(undefined, `${first.orderNumber}-${orientation}`));
      const stored = await storeDeliveryFile(
        first.contestId!,
        file,
        `${athleteNumber}_${orientation === "vertical" ? "縦" : "横"}.mp4`,
      );
      if (!stored.ok) throw new Error(stored.message);
    }
    expect(deliverContest(first.contestId!)?.delivered.map((order) => order.id)).toContain(first.id);

    const snapshot = await takeScheduledSnapshot();
    if (!snapshot.ok) throw new Error(snapshot.error);

    // After it: the payment started before is made, and a whole checkout is made and paid.
    const third = await pay(startedBefore);
    const fourth = await pay(await startedPayment(shop));
    const paid = [first, second, third, fourth].map((order) =>
      shape(db().select().from(orders).where(eq(orders.id, order.id)).get()!),
    );
    const deliveredNames = db()
      .select({ name: deliveryFiles.storedName })
      .from(deliveryFiles)
      .all()
      .map((row) => row.name);
    expect(deliveredNames.length).toBe(line.length);

    // The volume is lost: the database and its log are gone (once the mails of the orders are out).
    for (let i = 0; i < 250 && pendingMailCount() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    const file = env().DATABASE_PATH;
    db().$client.close();
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });

    // Exit 0: restored, and every payment after the snapshot made its order (3 would say some did not).
    const { stdout } = await run("npx", ["tsx", "scripts/restore.ts", "--latest"], {
      cwd: root,
      // No server answers on this port: the restore goes ahead.
      env: { ...process.env, PORT: "9" },
      timeout: 120_000,
    }).catch((error: { stdout?: string; stderr?: string; code?: number }) => {
      throw new Error(`npm run restore exited ${error.code}:\n${error.stdout}\n${error.stderr}`);
    });
    expect(stdout).toContain(`復元しました: ${path.resolve(file)}`);
    expect(stdout).toContain(snapshot.name);
    expect(stdout).toMatch(/注文を作り直しました: 2 件/);
    expect(stdout).toMatch(/注文を作れなかった決済: 0 件/);

    useDatabase(openDatabase(file));
    const restored = db().select().from(orders).all();
    // Every paid order exactly once, with its lines, total and customer (the two after the
    // snapshot made again: their order numbers are new, said in the restore's output).
    expect(restored).toHaveLength(4);
    expect(restored.map(shape).sort((a, b) => a.payment.localeCompare(b.payment))).toEqual(
      paid.sort((a, b) => a.payment.localeCompare(b.payment)),
    );
    for (const { paymentIntentId } of [third, fourth]) {
      const made = restored.find((order) => order.paymentIntentId === paymentIntentId)!;
      expect(stdout).toContain(`${paymentIntentId} → 注文 ${made.orderNumber}`);
      // The customer is told the new number (and status link) by the confirmation mail, sent by the restore.
      const mail = fake.smtp.received.find((received) => received.subject.includes(made.orderNumber));
      expect(mail?.to).toEqual([made.customerEmail]);
    }

    // Every delivered file the restored database names is where the shop keeps files.
    const store = await fileStore();
    for (const name of deliveredNames) expect(await store.stat(name), name).not.toBeNull();

    // No doubles: start-up's reconciliation (the same path) and a second recovery make nothing.
    expect(await recoverUnrecordedPayments()).toBe(0);
    expect(db().select().from(orders).all()).toHaveLength(4);
  }, 180_000);
});
