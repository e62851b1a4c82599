import { DAY_MS } from "~/lib/rules/tokyo-date";
import { now } from "../core/clock.server";
import { recoverPaymentsSince } from "./payments-after-snapshot.server";

/** How far back start-up looks for paid payments without an order. */
const LOOKBACK_MS = 7 * DAY_MS;

/**
 * A payment can succeed and its order still be missing: the server died between the
 * provider's answer and the order's transaction, and the webhook (if any) was lost too; or a
 * restore put back a database from before it. At start-up the shop asks the provider for the
 * week's succeeded payments and makes each missing order, once, the way a restore does
 * (payments-after-snapshot.server.ts: its checkout from what the payment carries when the
 * database lacks it, then recordPayment, idempotent per payment). Answers how many it made.
 */
export async function recoverUnrecordedPayments(): Promise<number> {
  const report = await recoverPaymentsSince(new Date(now().getTime() - LOOKBACK_MS));
  const made = report.recreated.length;
  if (made > 0) console.log(`[payments] 決済済みで注文のなかった ${made} 件の注文を作成しました`);
  // Already in the ledger of stray payments: the admin has it (and its mail) once. Refunded in
  // full: the money went back, nothing is left to do.
  const refused = report.unrecovered.filter(
    (payment) => payment.reason !== "already_stray" && payment.reason !== "refunded",
  );
  for (const payment of refused)
    console.error(
      `[payments] 決済 ${payment.paymentIntentId} からは注文を作成できませんでした: ${payment.message}`,
    );
  return made;
}
