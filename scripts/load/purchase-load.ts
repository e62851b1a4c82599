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
// per-address limits see 50 different people, as they would in the shop.
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { startSmtpServer, type ReceivedMail } from "../../tests/helpers/smtp";
import { contestSlug } from "../../app/lib/slug";
import { adminCookie, startServer } from "../bench/lib.mjs";

const argCustomers = process.argv.indexOf("--customers");
const CUSTOMERS = argCustomers > 0 ? Number(process.argv[argCustomers + 1]) : 50;
const DECLINED_EVERY = 10; // every tenth customer pays with the declined test card

type Athlete = { id: number; contestId: number; category: string; vertical: number | null; horizontal: number | null };
type Format = { id: number; contestId: number; orientation: "vertical" | "horizontal" };
type Outcome = { email: string; lines: { athleteId: number; price: number }[]; total: number; verified: boolean; paid: boolean; declined: boolean };

const statuses = new Map<number, number>();
const serverErrors: string[] = [];

function note(method: string, url: string, status: number) {
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  if (status >= 500) serverErrors.push(`${method} ${url} → ${status}`);
}

/** A customer's browser without JS: one cookie, manual redirects, form-encoded posts. */
class Browser {
  cookie = "";
  constructor(
    private base: string,
    private ip: string,
  ) {}

  async request(method: "GET" | "POST", url: string, form?: [string, string][]) {
    const response = await fetch(this.base + url, {
      method,
      redirect: "manual",
      headers: { Cookie: this.cookie, "X-Forwarded-For": this.ip, ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
      signal: AbortSignal.timeout(60_000),
    });
    note(method, url, response.status);
    const set = response.headers.getSetCookie().find((c) => c.startsWith("shop_session="));
    if (set) this.cookie = set.split(";")[0] ?? "";
    const body = await response.text();
    return { status: response.status, location: response.headers.get("Location"), body };
  }
}

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const root = path.resolve(import.meta.dirname, "..", "..");
if (!fs.existsSync(path.join(root, "build/server/index.js"))) execSync("npx remix vite:build", { cwd: root, stdio: "inherit" });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "load-"));
const dbFile = path.join(dir, "shop.db");
const smtp = await startSmtpServer();
const serverEnv = { DATABASE_PATH: dbFile, MEDIA_DIR: path.join(dir, "media"), SMTP_URL: smtp.url, MAIL_FROM: "shop@example.jp" };
execSync("npx tsx scripts/seed.ts", { cwd: root, env: { ...process.env, ...serverEnv }, stdio: "ignore" });
const server = await startServer(serverEnv);

const db = new Database(dbFile, { readonly: true });
const contests = db.prepare("select id, name from contests where video_published = 1 order by id").all() as { id: number; name: string }[];
const athletes = db
  .prepare("select id, contest_id as contestId, category, vertical_video_price as vertical, horizontal_video_price as horizontal from athletes where video_status = '販売中' and is_deleted = 0")
  .all() as Athlete[];
const formats: Format[] = [];
for (const contest of contests) {
  const rows = db.prepare("select id from video_formats where contest_id = ? order by display_order, id limit 2").all(contest.id) as { id: number }[];
  rows.forEach((row, index) => formats.push({ id: row.id, contestId: contest.id, orientation: index === 0 ? "vertical" : "horizontal" }));
}
const adminId = (db.prepare("select id from users where is_admin = 1 order by id limit 1").get() as { id: number }).id;

const mailsTo = (email: string, subject: RegExp): ReceivedMail[] => smtp.received.filter((m) => m.to.includes(email) && subject.test(m.subject));

async function customer(n: number): Promise<Outcome> {
  const email = `load${n}-${Math.random().toString(36).slice(2, 8)}@example.jp`;
  const browser = new Browser(server.base, `198.51.100.${n % 250}`);
  const contest = contests[n % contests.length]!;
  const slug = encodeURIComponent(contestSlug(contest.name));
  const pool = athletes.filter((a) => a.contestId === contest.id);
  const lineCount = 1 + (n % 3);
  const chosen = Array.from({ length: lineCount }, (_, i) => pool[(n * 7 + i * 3) % pool.length]!);
  const contestFormats = formats.filter((f) => f.contestId === contest.id);
  const outcome: Outcome = { email, lines: [], total: 0, verified: false, paid: false, declined: n % DECLINED_EVERY === DECLINED_EVERY - 1 };

  await browser.request("GET", "/");
  await browser.request("GET", `/order-form/${slug}`);
  const fields: [string, string][] = [["intent", "next"]];
  chosen.forEach((athlete, i) => {
    const format = contestFormats[(n + i) % contestFormats.length]!;
    fields.push([`items[${i}].category`, athlete.category], [`items[${i}].athleteId`, String(athlete.id)], [`items[${i}].formatId`, String(format.id)]);
    const price = (format.orientation === "vertical" ? athlete.vertical : athlete.horizontal) ?? 3500;
    outcome.lines.push({ athleteId: athlete.id, price });
  });
  outcome.total = outcome.lines.reduce((sum, line) => sum + line.price, 0);
  const form = await browser.request("POST", `/order-form/${slug}`, fields);
  if (form.location !== "/order-confirmation") throw new Error(`customer ${n}: order form answered ${form.status} ${form.location}`);
  await browser.request("GET", "/order-confirmation");
  const confirmed = await browser.request("POST", "/order-confirmation", [["email", email], ["name", `負荷 ${n}`]]);
  if (confirmed.location !== "/email-verification") throw new Error(`customer ${n}: confirmation answered ${confirmed.status}`);
  await browser.request("GET", "/email-verification");
  const codeMail = await waitFor(() => mailsTo(email, /確認コード/)[0], `the code mail of ${email}`);
  const code = /\b(\d{6})\b/.exec(codeMail.text)?.[1] ?? "";
  const verified = await browser.request("POST", "/email-verification", [["intent", "verify"], ["code", code]]);
  if (verified.location !== "/payment") throw new Error(`customer ${n}: verification answered ${verified.status}`);
  outcome.verified = true;
  await browser.request("GET", "/payment");
  const card = outcome.declined ? "4000000000000002" : "4242424242424242";
  const paid = await browser.request("POST", "/payment", [["cardholderName", "LOAD TEST"], ["cardNumber", card], ["expiry", "12/39"], ["cvc", "123"]]);
  if (outcome.declined) {
    if (paid.status !== 402) throw new Error(`customer ${n}: a declined card answered ${paid.status}`);
    return outcome;
  }
  if (paid.location !== "/payment-complete") throw new Error(`customer ${n}: payment answered ${paid.status} ${paid.body.slice(0, 200)}`);
  outcome.paid = true;
  await browser.request("GET", "/payment-complete");
  return outcome;
}

/** The admin works while customers buy: lists the 未対応 tab and delivers what is there. */
async function adminAtWork(stop: () => boolean) {
  const admin = new Browser(server.base, "203.0.113.1");
  admin.cookie = await adminCookie(adminId);
  const delivered = new Set<number>();
  const deliverPending = async () => {
    await admin.request("GET", "/admin/orders");
    const pending = db.prepare("select id from orders where status = '未対応' order by id").all() as { id: number }[];
    for (const order of pending) {
      const lines = db.prepare("select id from order_lines where order_id = ?").all(order.id) as { id: number }[];
      const form: [string, string][] = [["orderId", String(order.id)], ["intent", "deliver"]];
      for (const line of lines) form.push([`url-${line.id}`, `https://videos.example.jp/${line.id}.mp4`]);
      const result = await admin.request("POST", "/admin/orders", form);
      if (result.status === 303) delivered.add(order.id);
    }
  };
  while (!stop()) {
    await deliverPending();
    await new Promise((r) => setTimeout(r, 250));
  }
  await deliverPending();
  return delivered;
}

const started = performance.now();
let customersDone = false;
const adminRun = adminAtWork(() => customersDone);
const results = await Promise.allSettled(Array.from({ length: CUSTOMERS }, (_, n) => customer(n)));
customersDone = true;
const delivered = await adminRun;
const seconds = (performance.now() - started) / 1000;
await new Promise((r) => setTimeout(r, 500)); // the last delivery mails

let passed = 0;
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (ok) passed++;
  else failures.push(what);
};

for (const [n, result] of results.entries()) {
  if (result.status === "rejected") {
    check(false, `customer ${n} could not finish: ${String(result.reason)}`);
    continue;
  }
  const outcome = result.value;
  const orders = db.prepare("select id, order_number, total_amount from orders where customer_email = ?").all(outcome.email) as { id: number; order_number: string; total_amount: number }[];
  if (!outcome.paid) {
    check(orders.length === 0, `customer ${n}: a declined payment left ${orders.length} orders`);
    check(mailsTo(outcome.email, /ご注文ありがとうございます/).length === 0, `customer ${n}: a declined payment got a confirmation mail`);
    continue;
  }
  check(orders.length === 1, `customer ${n}: ${orders.length} orders for one payment`);
  const order = orders[0];
  if (!order) continue;
  const lines = db.prepare("select price from order_lines where order_id = ? order by id").all(order.id) as { price: number }[];
  check(
    JSON.stringify(lines.map((l) => l.price)) === JSON.stringify(outcome.lines.map((l) => l.price)),
    `customer ${n}: lines ${JSON.stringify(lines)} instead of ${JSON.stringify(outcome.lines)}`,
  );
  check(order.total_amount === outcome.total, `customer ${n}: total ${order.total_amount} instead of ${outcome.total}`);
  check(mailsTo(outcome.email, /ご注文ありがとうございます/).length === 1, `customer ${n}: ${mailsTo(outcome.email, /ご注文ありがとうございます/).length} confirmation mails`);
  if (delivered.has(order.id)) {
    check(mailsTo(outcome.email, /動画のご用意ができました/).length === 1, `customer ${n}: ${mailsTo(outcome.email, /動画のご用意ができました/).length} delivery mails`);
  }
}
const paymentRows = (db.prepare("select count(*) as n from orders").get() as { n: number }).n;
const paidCustomers = results.filter((r) => r.status === "fulfilled" && r.value.paid).length;
check(paymentRows === paidCustomers, `${paymentRows} orders in the database for ${paidCustomers} successful payments`);
check(serverErrors.length === 0, `${serverErrors.length} answers were 5xx: ${serverErrors.slice(0, 5).join(", ")}`);
db.close();
await server.stop();
await smtp.close();
fs.rmSync(dir, { recursive: true, force: true });

const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
console.log(`${CUSTOMERS} customers (${paidCustomers} paid, ${results.filter((r) => r.status === "fulfilled" && r.value.declined).length} declined), ${delivered.size} orders delivered by the admin meanwhile`);
console.log(`${requests} requests in ${seconds.toFixed(1)} s (${(requests / seconds).toFixed(0)} req/s); statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
for (const failure of failures) console.log(`✗ ${failure}`);
console.log(`${passed} passed, ${failures.length} failed`);
process.exitCode = failures.length === 0 ? 0 : 1;
