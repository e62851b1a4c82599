// npm run test:load — customers buying at the same time through plain form posts (as a
// browser without JS would), while an admin lists and delivers orders. Then it checks that
// nothing was lost or doubled: every successful payment has exactly one order with the
// right lines and total, every verified customer got one confirmation mail, every
// delivered order one delivery mail, and no request answered 5xx.
//
//   npx tsx scripts/load/purchase-load.ts [--customers 50]
//
// Everything runs on this machine: the production build on loopback, a real SMTP server on
// loopback, a fresh SQLite file. Each customer sends its own X-Forwarded-For so the shop's
// per-address limits see different people, as they would in the shop.
import { adminCookie, startServer } from "../bench/lib.mjs";
import {
  Browser,
  CONFIRMATION,
  Checks,
  DELIVERY,
  prepareShop,
  purchase,
  StatusLog,
  type Shop,
} from "./shop-client";

const argCustomers = process.argv.indexOf("--customers");
const CUSTOMERS = argCustomers > 0 ? Number(process.argv[argCustomers + 1]) : 50;
const DECLINED_EVERY = 10; // every tenth customer pays with the declined test card

/** The admin works while customers buy: lists the 未対応 tab and delivers what is there. */
async function adminAtWork(shop: Shop, base: string, log: StatusLog, stop: () => boolean) {
  const admin = new Browser(base, "203.0.113.1", log);
  admin.cookie = await adminCookie(shop.env.DATABASE_PATH, shop.fixtures.adminId);
  const delivered = new Set<number>();
  const deliverPending = async () => {
    await admin.request("GET", "/admin/orders");
    const pending = shop.db.prepare("select id from orders where status = '未対応' order by id").all() as {
      id: number;
    }[];
    for (const order of pending) {
      const lines = shop.db.prepare("select id from order_lines where order_id = ?").all(order.id) as {
        id: number;
      }[];
      const form: [string, string][] = [
        ["orderId", String(order.id)],
        ["intent", "deliver"],
      ];
      for (const line of lines) form.push([`url-${line.id}`, `https://videos.example.jp/${line.id}.mp4`]);
      if ((await admin.request("POST", "/admin/orders", form)).status === 303) delivered.add(order.id);
    }
  };
  while (!stop()) {
    await deliverPending();
    await new Promise((r) => setTimeout(r, 250));
  }
  await deliverPending();
  return delivered;
}

const shop = await prepareShop();
const server = await startServer(shop.env);
const log = new StatusLog();
const started = performance.now();
let customersDone = false;
const adminRun = adminAtWork(shop, server.base, log, () => customersDone);
const results = await Promise.allSettled(
  Array.from({ length: CUSTOMERS }, (_, n) =>
    purchase(shop, server.base, log, n, { declined: n % DECLINED_EVERY === DECLINED_EVERY - 1 }),
  ),
);
customersDone = true;
const delivered = await adminRun;
const seconds = (performance.now() - started) / 1000;
await new Promise((r) => setTimeout(r, 500)); // the last delivery mails

const checks = new Checks();
for (const [n, result] of results.entries()) {
  if (result.status === "rejected") {
    checks.check(false, `customer ${n} could not finish: ${String(result.reason)}`);
    continue;
  }
  const outcome = result.value;
  const orders = shop.db
    .prepare("select id, total_amount from orders where customer_email = ?")
    .all(outcome.email) as { id: number; total_amount: number }[];
  const confirmations = shop.mailsTo(outcome.email, CONFIRMATION).length;
  if (!outcome.paid) {
    checks.check(orders.length === 0, `customer ${n}: a declined payment left ${orders.length} orders`);
    checks.check(confirmations === 0, `customer ${n}: a declined payment got a confirmation mail`);
    continue;
  }
  checks.check(orders.length === 1, `customer ${n}: ${orders.length} orders for one payment`);
  const order = orders[0];
  if (!order) continue;
  const prices = (
    shop.db.prepare("select price from order_lines where order_id = ? order by id").all(order.id) as {
      price: number;
    }[]
  ).map((l) => l.price);
  checks.check(
    JSON.stringify(prices) === JSON.stringify(outcome.lines.map((l) => l.price)),
    `customer ${n}: line prices ${JSON.stringify(prices)} instead of ${JSON.stringify(outcome.lines)}`,
  );
  checks.check(
    order.total_amount === outcome.total,
    `customer ${n}: total ${order.total_amount} instead of ${outcome.total}`,
  );
  checks.check(confirmations === 1, `customer ${n}: ${confirmations} confirmation mails`);
  if (delivered.has(order.id)) {
    const deliveries = shop.mailsTo(outcome.email, DELIVERY).length;
    checks.check(deliveries === 1, `customer ${n}: ${deliveries} delivery mails`);
  }
}
const orderCount = (shop.db.prepare("select count(*) as n from orders").get() as { n: number }).n;
const paid = results.filter((r) => r.status === "fulfilled" && r.value.paid).length;
checks.check(orderCount === paid, `${orderCount} orders in the database for ${paid} successful payments`);
checks.check(
  log.serverErrors.length === 0,
  `${log.serverErrors.length} answers were 5xx: ${log.serverErrors.slice(0, 5).join(", ")}`,
);
await server.stop();
await shop.close();

const declined = results.filter((r) => r.status === "fulfilled" && r.value.declined).length;
console.log(
  `${CUSTOMERS} customers (${paid} paid, ${declined} declined), ${delivered.size} orders delivered by the admin meanwhile`,
);
console.log(
  `${log.total} requests in ${seconds.toFixed(1)} s (${(log.total / seconds).toFixed(0)} req/s); statuses ${JSON.stringify(Object.fromEntries(log.counts))}`,
);
process.exitCode = checks.report();
