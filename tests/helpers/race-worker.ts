// A second process for the race test: its own SQLite connection to the same file,
// making orders for the given payments through the webhook or the browser's path.
import fs from "node:fs";
import { recordPayment } from "~/server/orders/record-payment.server";
import type { PaymentIntentState } from "~/server/payments/types";
import { handleStripeWebhook } from "~/server/checkout/stripe-webhook.server";

const [mode, file] = process.argv.slice(2);
const jobs = JSON.parse(fs.readFileSync(file ?? "", "utf8")) as {
  intent: PaymentIntentState;
  payload: string;
  signature: string;
}[];
const results: string[] = [];
for (const job of jobs) {
  if (mode === "webhook") {
    const outcome = await handleStripeWebhook(job.payload, job.signature);
    results.push(String(outcome.status));
  } else {
    const made = recordPayment(job.intent);
    results.push(made.ok ? made.order.orderNumber : `refused: ${made.reason}`);
  }
}
process.stdout.write(JSON.stringify(results));
