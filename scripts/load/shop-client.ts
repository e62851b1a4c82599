// What the load and fault tests share: a shop on loopback with a real SMTP server and a
// fresh database, a customer's browser without JavaScript, and the whole purchase.
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { contestSlug } from "../../app/lib/rules/slug";
import { startSmtpServer, type ReceivedMail } from "../../tests/helpers/smtp";

export const root = path.resolve(import.meta.dirname, "..", "..");
export const CONFIRMATION = /ご注文ありがとうございます/;
export const DELIVERY = /動画のご用意ができました/;

/** Every answer's status, and the 5xx ones in full: the shop must never answer 5xx. */
export class StatusLog {
  counts = new Map<number, number>();
  serverErrors: string[] = [];
  note(method: string, url: string, status: number) {
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    if (status >= 500) this.serverErrors.push(`${method} ${url} → ${status}`);
  }
  get total() {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
}

/**
 * A request that got no answer. `refused`: nothing listened (the server was down, or stopped
 * taking connections: the customer came too late, nothing was sent). Otherwise the connection was
 * cut after the request went out (reset, closed by the server): the customer saw an error page
 * for a request the server had, which a graceful stop must never do.
 */
export class RequestFailure extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly code: string,
  ) {
    super(`${method} ${url}: ${code}`);
  }
  get refused(): boolean {
    return this.code === "ECONNREFUSED";
  }
}

/** The innermost code of a failed fetch (undici wraps the socket's error in `cause`). */
function failureCode(error: unknown): string {
  let at: unknown = error;
  for (let depth = 0; depth < 5 && at instanceof Error; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR_SOCKET") return code;
    if (code === "UND_ERR_SOCKET") return `${code} (${at.message})`;
    at = (at as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A customer's browser without JS: one cookie, manual redirects, form-encoded posts. */
export class Browser {
  cookie = "";
  constructor(
    private base: string,
    private ip: string,
    private log: StatusLog,
  ) {}

  async request(method: "GET" | "POST", url: string, form?: [string, string][]) {
    const response = await fetch(this.base + url, {
      method,
      redirect: "manual",
      headers: {
        Cookie: this.cookie,
        "X-Forwarded-For": this.ip,
        ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
      signal: AbortSignal.timeout(60_000),
    }).catch((error: unknown) => {
      throw new RequestFailure(method, url, failureCode(error));
    });
    this.log.note(method, url, response.status);
    const set = response.headers.getSetCookie().find((c) => c.startsWith("shop_session="));
    if (set) this.cookie = set.split(";")[0] ?? "";
    const body = await response.text();
    return { status: response.status, location: response.headers.get("Location"), body };
  }
}

/** A fresh data folder with the demo data, and a real SMTP server that keeps what it receives. */
export async function prepareShop() {
  if (!fs.existsSync(path.join(root, "server-build/index.js")))
    execSync("npm run build", { cwd: root, stdio: "inherit" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "load-"));
  const dbFile = path.join(dir, "shop.db");
  const smtp = await startSmtpServer();
  const env = {
    DATABASE_PATH: dbFile,
    MEDIA_DIR: path.join(dir, "media"),
    SMTP_URL: smtp.url,
    MAIL_FROM: "shop@example.jp",
    // As behind one proxy: each simulated customer names its address in X-Forwarded-For.
    TRUST_PROXY: "1",
  };
  execSync("npx tsx scripts/seed.ts", { cwd: root, env: { ...process.env, ...env }, stdio: "ignore" });
  const db = new Database(dbFile, { readonly: true });
  const fixtures = loadFixtures(db);
  return {
    dir,
    env,
    smtp,
    db,
    fixtures,
    mailsTo: (email: string, subject: RegExp): ReceivedMail[] =>
      smtp.received.filter((m) => m.to.includes(email) && subject.test(m.subject)),
    async close() {
      db.close();
      await smtp.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type Shop = Awaited<ReturnType<typeof prepareShop>>;

type Athlete = {
  id: number;
  contestId: number;
  category: string;
  vertical: number | null;
  horizontal: number | null;
};
type Format = { id: number; contestId: number; orientation: "vertical" | "horizontal" };

/** What customers can choose: the contests on sale, their athletes on sale and their first two formats. */
function loadFixtures(db: Database.Database) {
  const contests = db
    .prepare("select id, name from contests where video_published = 1 order by id")
    .all() as { id: number; name: string }[];
  const athletes = db
    .prepare(
      "select id, contest_id as contestId, category, vertical_video_price as vertical, horizontal_video_price as horizontal from athletes where video_status = '販売中' and is_deleted = 0",
    )
    .all() as Athlete[];
  const formats: Format[] = [];
  for (const contest of contests) {
    const rows = db
      .prepare("select id from video_formats where contest_id = ? order by display_order, id limit 2")
      .all(contest.id) as { id: number }[];
    rows.forEach((row, index) =>
      formats.push({
        id: row.id,
        contestId: contest.id,
        orientation: index === 0 ? "vertical" : "horizontal",
      }),
    );
  }
  const adminId = (
    db.prepare("select id from users where is_admin = 1 order by id limit 1").get() as { id: number }
  ).id;
  return { contests, athletes, formats, adminId };
}

export type Purchase = {
  email: string;
  lines: { athleteId: number; price: number }[];
  total: number;
  verified: boolean;
  /** The shop answered the payment with its completion page: the order is acknowledged. */
  paid: boolean;
  declined: boolean;
};

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Customer n buys 1–3 videos of one contest, step by step as the pages' forms post them.
 * `progress` sees the purchase as it goes, so a caller whose server died mid-way still
 * knows how far it got. Throws when a step answers unexpectedly (or the server is gone).
 */
export async function purchase(
  shop: Shop,
  base: string,
  log: StatusLog,
  n: number,
  options: { declined: boolean; mailTimeoutMs?: number },
  progress: (p: Purchase) => void = () => {},
): Promise<Purchase> {
  const { contests, athletes, formats } = shop.fixtures;
  const email = `load${n}-${Math.random().toString(36).slice(2, 8)}@example.jp`;
  const browser = new Browser(base, `198.51.100.${n % 250}`, log);
  const contest = contests[n % contests.length]!;
  const slug = encodeURIComponent(contestSlug(contest.name));
  const pool = athletes.filter((a) => a.contestId === contest.id);
  const contestFormats = formats.filter((f) => f.contestId === contest.id);
  const chosen = Array.from({ length: 1 + (n % 3) }, (_, i) => pool[(n * 7 + i * 3) % pool.length]!);
  const outcome: Purchase = {
    email,
    lines: [],
    total: 0,
    verified: false,
    paid: false,
    declined: options.declined,
  };
  progress(outcome);

  await browser.request("GET", "/");
  await browser.request("GET", `/order-form/${slug}`);
  const fields: [string, string][] = [["intent", "next"]];
  chosen.forEach((athlete, i) => {
    const format = contestFormats[(n + i) % contestFormats.length]!;
    fields.push(
      [`items[${i}].category`, athlete.category],
      [`items[${i}].athleteId`, String(athlete.id)],
      [`items[${i}].formatId`, String(format.id)],
    );
    outcome.lines.push({
      athleteId: athlete.id,
      price: (format.orientation === "vertical" ? athlete.vertical : athlete.horizontal) ?? 3500,
    });
  });
  outcome.total = outcome.lines.reduce((sum, line) => sum + line.price, 0);
  const form = await browser.request("POST", `/order-form/${slug}`, fields);
  if (form.location !== "/order-confirmation")
    throw new Error(`customer ${n}: order form answered ${form.status} ${form.location}`);
  await browser.request("GET", "/order-confirmation");
  const confirmed = await browser.request("POST", "/order-confirmation", [
    ["email", email],
    ["name", `負荷 ${n}`],
  ]);
  if (confirmed.location !== "/email-verification")
    throw new Error(`customer ${n}: confirmation answered ${confirmed.status}`);
  await browser.request("GET", "/email-verification");
  const codeMail = await waitFor(
    () => shop.mailsTo(email, /確認コード/)[0],
    `the code mail of ${email}`,
    options.mailTimeoutMs ?? 30_000,
  );
  const code = /\b(\d{6})\b/.exec(codeMail.text)?.[1] ?? "";
  const verified = await browser.request("POST", "/email-verification", [
    ["intent", "verify"],
    ["code", code],
  ]);
  if (verified.location !== "/payment")
    throw new Error(`customer ${n}: verification answered ${verified.status}`);
  outcome.verified = true;
  await browser.request("GET", "/payment");
  const card = options.declined ? "4000000000000002" : "4242424242424242";
  const paid = await browser.request("POST", "/payment", [
    ["cardholderName", "LOAD TEST"],
    ["cardNumber", card],
    ["expiry", "12/39"],
    ["cvc", "123"],
  ]);
  if (options.declined) {
    if (paid.status !== 402) throw new Error(`customer ${n}: a declined card answered ${paid.status}`);
    return outcome;
  }
  if (paid.location !== "/payment-complete")
    throw new Error(`customer ${n}: payment answered ${paid.status} ${paid.body.slice(0, 200)}`);
  outcome.paid = true;
  await browser.request("GET", "/payment-complete");
  return outcome;
}

/** Collects check results and prints the closing line (`N passed, M failed`). */
export class Checks {
  passed = 0;
  failures: string[] = [];
  check(ok: boolean, what: string) {
    if (ok) this.passed++;
    else this.failures.push(what);
  }
  report(): number {
    for (const failure of this.failures) console.log(`✗ ${failure}`);
    console.log(`${this.passed} passed, ${this.failures.length} failed`);
    return this.failures.length === 0 ? 0 : 1;
  }
}
