import { eq } from "drizzle-orm";
import { db } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import { sendQueuedMail } from "../mail/outbox.server";
import { orderConfirmationKey, type Order } from "./orders.server";

/**
 * The order confirmation mail, as the shop sends it: queued in the outbox with the order itself
 * (dedupe key `order-confirmation:{id}`), to the order's own address, and retried until the mail
 * server takes it. Asking for it again (the spec's `POST /api/send-payment-confirmation`) never
 * makes a second mail nor a mail to another address: a mail still waiting is tried now, one
 * already sent is left as it is.
 */

export type ConfirmationMail = { order: Order; status: "sent" | "queued" | "failed" };

export async function confirmOrderByMail(order: Order): Promise<ConfirmationMail> {
  const key = orderConfirmationKey(order.id);
  const row = () => db().select().from(mailOutbox).where(eq(mailOutbox.dedupeKey, key)).get();
  const queued = row();
  if (!queued) return { order, status: "failed" };
  // Claimed atomically by the outbox: a retry loop or a second call racing this one sends nothing twice.
  if (queued.status === "pending") await sendQueuedMail(queued.id);
  const after = row()?.status;
  return {
    order,
    status: after === "sent" ? "sent" : after === "failed" || after === "cancelled" ? "failed" : "queued",
  };
}
