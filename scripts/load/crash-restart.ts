// npm run test:faults — the server is killed with SIGKILL at random moments while customers
// buy, and restarted, again and again (with --signal SIGTERM it is stopped as fly.io and docker
// stop it: it must finish the requests and payments in flight, exit 0, and lose nothing). Afterwards the database must pass integrity_check,
// no order the shop acknowledged (the customer saw the completion page) may be lost or
// doubled, and every payment that succeeded must have exactly one order — payments whose
// order was never written are recovered when the server starts (payment-recovery.server.ts).
// Meanwhile the server's own worker transcodes a delivered video's phone version: the stops cut
// it off, each life takes the job back at once (its last worker is a dead process), and after the
// last one it must finish, with no ffmpeg of a killed server left running on.
//
//   npx tsx scripts/load/crash-restart.ts [--restarts 30] [--workers 6] [--signal SIGKILL|SIGTERM]
import { startServer, freePort } from "../bench/lib.mjs";
import {
  CONFIRMATION,
  Checks,
  RequestFailure,
  prepareShop,
  purchase,
  StatusLog,
  type Purchase,
} from "./shop-client";
import { queueTranscode } from "./transcode-under-faults";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const RESTARTS = arg("--restarts", 30);
const WORKERS = arg("--workers", 6);
const SIGNAL = process.argv.includes("--signal")
  ? process.argv[process.argv.indexOf("--signal") + 1]
  : "SIGKILL";
if (SIGNAL !== "SIGKILL" && SIGNAL !== "SIGTERM")
  throw new Error("--signal SIGKILL か SIGTERM を指定してください");
/** How each stopped server ended: a SIGTERM must end in exit 0 (graceful shutdown), never by a signal. */
const exits: string[] = [];

const shop = await prepareShop();
const transcode = queueTranscode(shop.env);
const port = await freePort();
let server = await startServer(shop.env, port);
const base = `http://127.0.0.1:${port}`;
const log = new StatusLog();
const purchases: Purchase[] = [];
let interrupted = 0;
/** Requests whose connection was cut after they went out (not refused: nothing listened). */
const cut: string[] = [];
let next = 0;
let loadRunning = true;

/** Customers come back once the shop answers again; a refused connection is not a purchase. */
async function shopIsUp() {
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // still down
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function customerLoop() {
  while (loadRunning) {
    await shopIsUp();
    const n = next++;
    try {
      await purchase(shop, base, log, n, { declined: n % 10 === 9, mailTimeoutMs: 8_000 }, (p) =>
        purchases.push(p),
      );
    } catch (error) {
      // The server died under this customer (or answered unexpectedly, which the checks below catch).
      interrupted++;
      if (error instanceof RequestFailure && !error.refused) cut.push(error.message);
    }
  }
}

const started = performance.now();
const workers = Array.from({ length: WORKERS }, () => customerLoop());
for (let i = 0; i < RESTARTS; i++) {
  await new Promise((r) => setTimeout(r, 500 + Math.random() * 2000));
  const exited = new Promise<void>((resolve) =>
    server.child.once("exit", (code, signal) => {
      exits.push(signal ?? `exit ${code}`);
      resolve();
    }),
  );
  server.child.kill(SIGNAL);
  await exited;
  server = await startServer(shop.env, port);
}
// Let the last life of the server take some orders too, then stop the customers.
await new Promise((r) => setTimeout(r, 1500));
loadRunning = false;
await Promise.all(workers);

// Start-up reconciliation runs in the background: wait until it has caught up.
const unrecorded = () =>
  (
    shop.db
      .prepare(
        "select count(*) as n from test_payment_intents i where i.status = 'succeeded' and not exists (select 1 from orders o where o.payment_intent_id = i.id)",
      )
      .get() as { n: number }
  ).n;
for (let i = 0; i < 100 && unrecorded() > 0; i++) await new Promise((r) => setTimeout(r, 100));
await new Promise((r) => setTimeout(r, 500)); // the last confirmation mails
const transcodeDone = await transcode.finished(120_000);
await server.stop();
const seconds = (performance.now() - started) / 1000;

const checks = new Checks();
const integrity = (shop.db.prepare("pragma integrity_check").all() as { integrity_check: string }[]).map(
  (row) => row.integrity_check,
);
checks.check(integrity.length === 1 && integrity[0] === "ok", `integrity_check: ${integrity.join("; ")}`);
checks.check(unrecorded() === 0, `${unrecorded()} succeeded payments have no order`);
const orphans = (
  shop.db
    .prepare(
      "select count(*) as n from orders o where not exists (select 1 from test_payment_intents i where i.id = o.payment_intent_id and i.status = 'succeeded')",
    )
    .get() as { n: number }
).n;
checks.check(orphans === 0, `${orphans} orders without a succeeded payment`);
const badTotals = (
  shop.db
    .prepare(
      "select count(*) as n from orders o join test_payment_intents i on i.id = o.payment_intent_id where o.total_amount != i.amount or o.total_amount != (select sum(price) from order_lines l where l.order_id = o.id)",
    )
    .get() as { n: number }
).n;
checks.check(badTotals === 0, `${badTotals} orders whose total differs from their payment or their lines`);

let acknowledged = 0;
let stillQueued = 0;
let recovered = 0;
for (const p of purchases) {
  const orders = (
    shop.db.prepare("select count(*) as n from orders where customer_email = ?").get(p.email) as { n: number }
  ).n;
  if (p.paid) {
    acknowledged++;
    checks.check(orders === 1, `${p.email}: an acknowledged order is there ${orders} times`);
  } else {
    if (orders === 1) recovered++;
    checks.check(orders <= 1, `${p.email}: ${orders} orders for one unfinished purchase`);
    if (p.declined) checks.check(orders === 0, `${p.email}: a declined card made an order`);
  }
  // The confirmation is queued in the order's own transaction: received, or still in the outbox
  // (a send cut off by a kill is taken over when its lease ends), never lost and never doubled.
  const received = shop.mailsTo(p.email, CONFIRMATION).length;
  checks.check(received <= 1, `${p.email}: confirmation mail sent ${received} times`);
  if (orders === 1 && received === 0) {
    const queued = (
      shop.db
        .prepare(
          "select count(*) as n from mail_outbox where to_address = ? and subject like '%ご注文ありがとうございます%' and status in ('pending', 'sending')",
        )
        .get(p.email) as { n: number }
    ).n;
    checks.check(queued === 1, `${p.email}: the order's confirmation mail is neither received nor queued`);
    if (queued === 1) stillQueued++;
  }
}
if (SIGNAL === "SIGTERM") {
  const unclean = exits.filter((exit) => exit !== "exit 0");
  checks.check(
    unclean.length === 0,
    `a SIGTERM ended the server otherwise than exit 0: ${unclean.join(", ")}`,
  );
  // A graceful stop answers every request it had: a customer may find it closed, never cut off.
  checks.check(
    cut.length === 0,
    `${cut.length} requests cut off by a SIGTERM without an answer: ${cut.slice(0, 5).join(", ")}`,
  );
}
checks.check(transcodeDone.status === "done", `the phone version's job ended ${transcodeDone.status}`);
checks.check(transcodeDone.phone, "the phone version was not stored");
checks.check(
  transcodeDone.orphans.length === 0,
  `ffmpeg left running by a stopped server: ${transcodeDone.orphans}`,
);
checks.check(
  log.serverErrors.length === 0,
  `${log.serverErrors.length} answers were 5xx: ${log.serverErrors.slice(0, 5).join(", ")}`,
);
const orderCount = (shop.db.prepare("select count(*) as n from orders").get() as { n: number }).n;
await shop.close();

console.log(
  `${RESTARTS} ${SIGNAL}s and restarts in ${seconds.toFixed(1)} s; ${purchases.length} purchases started, ${interrupted} interrupted by a stop (${cut.length} with a request cut off after it went out)`,
);
console.log(
  `a phone version made across the stops in ${transcodeDone.attempts} tries (${transcodeDone.status}); no ffmpeg left running`,
);
console.log(
  `${orderCount} orders: ${acknowledged} acknowledged to the customer, ${recovered} made for customers whose page never came back (paid before the kill); ${stillQueued} confirmations still queued for retry; ${log.total} answers ${JSON.stringify(Object.fromEntries(log.counts))}`,
);
process.exitCode = checks.report();
