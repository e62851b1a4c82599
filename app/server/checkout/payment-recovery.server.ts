import { eq } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { orders, strayPayments } from "../db/schema";
import { recordPayment } from "../orders/record-payment.server";
import { paymentProvider } from "../payments/index.server";
import { DAY_MS } from "~/lib/rules/tokyo-date";

/** How far back start-up looks for paid payments without an order. */
const LOOKBACK_MS = 7 * DAY_MS;

/**
 * A payment can succeed and its order still be missing: the server died between the
 * provider's answer and the order's transaction, and the webhook (if any) was lost too.
 * At start-up the shop asks the provider for the week's succeeded payments and makes
 * each missing order, once (recordPayment is idempotent per payment).
 */
export async function recoverUnrecordedPayments(): Promise<number> {
  const intents = await paymentProvider().succeededSince(new Date(now().getTime() - LOOKBACK_MS));
  let recovered = 0;
  for (const intent of intents) {
    if (db().select({ id: orders.id }).from(orders).where(eq(orders.paymentIntentId, intent.id)).get())
      continue;
    // Already in the ledger of stray payments: the admin has it (and its mail) once.
    if (
      db()
        .select({ id: strayPayments.id })
        .from(strayPayments)
        .where(eq(strayPayments.paymentIntentId, intent.id))
        .get()
    )
      continue;
    try {
      // A refused or second payment goes to the ledger of stray payments through recordPayment itself.
      const made = recordPayment(intent);
      if (made.ok && made.created) recovered++;
    } catch (error) {
      console.error(`[payments] could not recover the order of payment ${intent.id}`, error);
    }
  }
  if (recovered > 0) console.log(`[payments] 決済済みで注文のなかった ${recovered} 件の注文を作成しました`);
  return recovered;
}
