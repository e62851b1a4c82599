// Load for the backup test: another process with its own connection, inserting orders
// (each with two lines, in one transaction) as fast as it can until the stop file appears.
import fs from "node:fs";
import { db } from "~/server/db/client.server";
import { orderLines, orders } from "~/server/db/schema";

const [stopFile, prefix] = process.argv.slice(2);
let n = 0;
while (!fs.existsSync(stopFile ?? "")) {
  db().transaction(
    (tx) => {
      n++;
      const orderNumber = `${prefix}-${n}`;
      const order = tx
        .insert(orders)
        .values({
          orderNumber,
          checkoutId: orderNumber,
          paymentIntentId: orderNumber,
          contestName: "負荷テスト大会",
          customerEmail: `w${n}@example.jp`,
          customerName: "負荷 太郎",
          totalAmount: 7500,
          lineCount: 2,
        })
        .returning({ id: orders.id })
        .get();
      tx.insert(orderLines)
        .values(
          [1, 2].map((i) => ({
            orderId: order.id,
            lineNumber: `${orderNumber}-${i}`,
            contestName: "負荷テスト大会",
            category: "A",
            athleteNumber: i,
            athleteName: `選手${i}`,
            style: "縦",
            orientation: "vertical" as const,
            price: 3750,
          })),
        )
        .run();
    },
    { behavior: "immediate" },
  );
  // Yield now and then so the event loop (and the other process) get a turn.
  if (n % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
}
process.stdout.write(String(n));
