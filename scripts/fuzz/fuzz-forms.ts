// npm run test:fuzz — every form action and JSON endpoint of the production build receives
// generated malformed bodies (wrong types, huge strings, control characters, SQL and HTML
// fragments, missing and repeated fields, non-UTF-8 bytes, the wrong content type), as an
// anonymous visitor, as a customer in the middle of a checkout and as an admin. The shop
// must never answer 5xx, never echo the HTML it was sent unescaped, and store nothing it
// should not (no order, no account, no blank contest, no negative price, no draft for a contest
// behind its 合言葉 posted without it).
//
//   npx tsx scripts/fuzz/fuzz-forms.ts [--runs 1000]
//
// The routes are read from the build itself, so a new action is fuzzed without being listed.
import http from "node:http";
import Database from "better-sqlite3";
import fc from "fast-check";
import { adminCookie, startServer } from "../bench/lib.mjs";
import { contestSlug } from "../../app/lib/rules/slug";
import { Browser, Checks, prepareShop, StatusLog, root } from "../load/shop-client";

const runsAt = process.argv.indexOf("--runs");
const RUNS = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 1000;
const PARALLEL = 4;

const shop = await prepareShop();
const server = await startServer(shop.env);
const log = new StatusLog();

// The route table of the build: every module with an action is a form or JSON endpoint.
process.env.NODE_ENV = "production";
Object.assign(process.env, shop.env, {
  SESSION_SECRET: "bench-session-secret-0123456789abcdefghijklmnop",
  ENCRYPTION_KEY: "bench-encryption-key-0123456789abcdefghijklmnop",
  PAYMENT_PROVIDER: "test",
});
type BuildRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: { action?: unknown };
};
const build = (await import(`${root}/build/server/index.js`)) as { routes: Record<string, BuildRoute> };
const fullPath = (id: string): string => {
  const route = build.routes[id];
  if (!route) return "";
  return [route.parentId ? fullPath(route.parentId) : "", route.path ?? ""].filter(Boolean).join("/");
};

// Real values for the path parameters, so the action's own checks are reached.
const contest = shop.fixtures.contests[0]!;
// A paid order whose receipt the bodies try to issue (its status page token is the receipt's address).
const statusToken = "f0".repeat(16);
const writable = new Database(shop.env.DATABASE_PATH);
writable
  .prepare(
    `insert into orders (order_number, checkout_id, payment_intent_id, contest_name, customer_email,
       customer_name, total_amount, paid_at, status_token, created_at)
     values ('99999999', 'fuzz-checkout', 'pi_fuzz', ?, 'fuzz-receipt@example.jp', 'ファズ 花子', 3000, ?, ?, ?)`,
  )
  .run(contest.name, Date.now(), statusToken, Date.now());
// Its download page, whose family link's buttons the bodies press (its :id is the page's, not the contest's).
const fuzzDownloadPage = "fuzzDownloadPage000000";
writable
  .prepare(
    "insert into download_pages (id, order_id, expires_at) select ?, id, ? from orders where order_number = '99999999'",
  )
  .run(fuzzDownloadPage, Date.now() + 30 * 86_400_000);
// A coupon for クーポン管理's calls to change: their :id is a coupon's, not the contest's.
const fuzzCoupon = (
  writable
    .prepare("insert into coupons (code, kind, value) values ('FUZZ-COUPON', 'yen', 100) returning id")
    .get() as {
    id: number;
  }
).id;
writable.close();
const params: Record<string, string> = {
  token: statusToken,
  id: String(contest.id),
  contestSlug: encodeURIComponent(contestSlug(contest.name)),
  lineId: "1",
  format: "vertical",
  mediaId: "1",
  formatId: "1",
  catId: "1",
  name: "x.webp",
  // The paid order above (it has no lines: a 納品 of it is refused, so nothing is delivered).
  orderNumber: "99999999",
};
const endpoints = Object.values(build.routes)
  .filter((route) => typeof route.module.action === "function")
  .map((route) => {
    const path = `/${fullPath(route.id)}`.replace(/:(\w+)/g, (_, key: string) => params[key] ?? "1");
    return route.index ? `${path === "/" ? "" : path}?index` : path;
  })
  .map((path) => path.replace(/^\/api\/admin\/coupons\/[^/]+/, `/api/admin/coupons/${fuzzCoupon}`))
  .map((path) => path.replace(/^\/download\/[^/]+$/, `/download/${fuzzDownloadPage}`));

// Sessions: nobody, a customer whose checkout is verified and waiting for payment, an admin.
async function customerAtPayment(): Promise<string> {
  const browser = new Browser(server.base, "198.51.100.200", log);
  const athlete = shop.fixtures.athletes.find((a) => a.contestId === contest.id)!;
  const format = shop.fixtures.formats.find((f) => f.contestId === contest.id)!;
  const email = "fuzz-customer@example.jp";
  await browser.request("POST", `/order-form/${params.contestSlug}`, [
    ["intent", "next"],
    ["items[0].category", athlete.category],
    ["items[0].athleteId", String(athlete.id)],
    ["items[0].formatId", String(format.id)],
  ]);
  await browser.request("POST", "/order-confirmation", [
    ["email", email],
    ["name", "ファズ 太郎"],
  ]);
  for (let i = 0; i < 200 && shop.mailsTo(email, /確認コード/).length === 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  const code = /\b(\d{6})\b/.exec(shop.mailsTo(email, /確認コード/)[0]?.text ?? "")?.[1] ?? "";
  const verified = await browser.request("POST", "/email-verification", [
    ["intent", "verify"],
    ["code", code],
  ]);
  if (verified.location !== "/payment")
    throw new Error("the fuzzing customer could not reach the payment step");
  return browser.cookie;
}
const admin = await adminCookie(shop.env.DATABASE_PATH, shop.fixtures.adminId);
const sessions = { anonymous: "", customer: await customerAtPayment(), admin };

/** The field names each endpoint's own page uses, so generated bodies look like near-misses. */
async function fieldNames(path: string, cookie: string): Promise<string[]> {
  try {
    const html = await (
      await fetch(server.base + path.replace(/\?index$/, ""), { headers: { Cookie: cookie } })
    ).text();
    return [...new Set([...html.matchAll(/\bname="([^"]{1,80})"/g)].map((m) => m[1]!))];
  } catch {
    return [];
  }
}

const MARK = "fz7q";
const hostile = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "\u0007\b\u001b[31m",
  "\r\n\r\nSet-Cookie: x=1",
  "' OR '1'='1' --",
  "1; DROP TABLE orders; --",
  `"><img src=x onerror=${MARK}()>`,
  `<script>${MARK}()</script>`,
  "-1",
  "0",
  "1e309",
  "NaN",
  "９９９９",
  "0x7fffffff",
  "99999999999999999999999",
  "true",
  "null",
  "[object Object]",
  "__proto__",
  "../../etc/passwd",
  "%FF%FE%00",
  "あ".repeat(70_000),
  "x".repeat(200_000),
);
const value = fc.oneof(
  hostile,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
);

function bodyArbitrary(names: string[]) {
  const name = fc.oneof(
    names.length ? fc.constantFrom(...names) : fc.constant("x"),
    fc.constantFrom(
      "intent",
      "__proto__",
      "constructor",
      "items[99999].athleteId",
      "items[-1].category",
      "a".repeat(300),
    ),
    fc.string({ maxLength: 12 }),
  );
  const pairs = fc.array(fc.tuple(name, value), { maxLength: 12 });
  return fc.oneof(
    pairs.map((p) => ({
      type: "application/x-www-form-urlencoded",
      body: new URLSearchParams(p).toString() as string | Uint8Array | FormData,
      pairs: p,
    })),
    pairs.map((p) => {
      const form = new FormData();
      for (const [k, v] of p) form.append(k, v);
      return { type: "", body: form as string | Uint8Array | FormData, pairs: p };
    }),
    fc.jsonValue().map((json) => ({
      type: "application/json",
      body: JSON.stringify(json) as string | Uint8Array | FormData,
      pairs: [] as [string, string][],
    })),
    fc
      .tuple(
        fc.uint8Array({ maxLength: 600 }),
        fc.constantFrom(
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=zz",
          "application/json",
          "text/plain",
          "",
        ),
      )
      .map(([bytes, type]) => ({
        type,
        body: bytes as string | Uint8Array | FormData,
        pairs: [] as [string, string][],
      })),
  );
}

const checks = new Checks();
const before = counts();
function counts() {
  const n = (sql: string) => (shop.db.prepare(sql).get() as { n: number }).n;
  return {
    orders: n("select count(*) as n from orders"),
    users: n("select count(*) as n from users"),
    lines: n("select count(*) as n from order_lines"),
  };
}

/**
 * One POST on a connection of its own (no keep-alive): a server may rightly close a connection
 * whose body it did not read (a refused visitor's), and a reused socket would then fail the
 * next request, which is the client's doing, not the shop's.
 */
async function send(
  method: Method,
  path: string,
  headers: Record<string, string>,
  body: string | Uint8Array | FormData,
): Promise<{ status: number; text: string }> {
  let bytes: Buffer;
  if (body instanceof FormData) {
    const encoded = new Response(body);
    headers["Content-Type"] = encoded.headers.get("Content-Type") ?? "";
    bytes = Buffer.from(await encoded.arrayBuffer());
  } else {
    bytes = Buffer.from(body);
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      server.base + path,
      {
        method,
        agent: false,
        headers: { ...headers, "Content-Length": String(bytes.length) },
        timeout: 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error("no answer within 30 s")));
    request.on("error", reject);
    request.end(bytes);
  });
}

type Method = "POST" | "PUT" | "PATCH" | "DELETE";
let sent = 0;
async function fuzz(method: Method, path: string, sessionName: keyof typeof sessions) {
  const cookie = sessions[sessionName];
  const names = await fieldNames(path, cookie);
  let ip = 0;
  await fc.assert(
    fc.asyncProperty(bodyArbitrary(names), async ({ type, body }) => {
      const headers: Record<string, string> = { "X-Forwarded-For": `192.0.2.${ip++ % 250}` };
      if (cookie) headers.Cookie = cookie;
      if (type) headers["Content-Type"] = type;
      const response = await send(method, path, headers, body);
      sent++;
      log.note(method, path, response.status);
      const text = response.text;
      if (response.status >= 500) throw new Error(`${response.status}: ${text.slice(0, 300)}`);
      if (text.includes(`<img src=x onerror=${MARK}()>`) || text.includes(`<script>${MARK}()</script>`))
        throw new Error("the posted HTML came back unescaped");
    }),
    { numRuns: RUNS, endOnFailure: true },
  );
}

/** fast-check's report, without the (possibly huge) counterexample body. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause =
    error.cause instanceof Error ? error.cause.message : (/Got error: (.*)/.exec(error.message)?.[1] ?? "");
  const example = /Counterexample: (.*)/.exec(error.message)?.[1] ?? "";
  return `${cause} — seed ${/seed: (-?\d+)/.exec(error.message)?.[1] ?? "?"}, counterexample ${example.slice(0, 300)}`;
}

const started = performance.now();
const jobs: [Method, string, keyof typeof sessions][] = [];
for (const path of endpoints) {
  // Admin endpoints are fuzzed as an admin (anyone else is turned away before reading the body,
  // which the access matrix tests); the rest as a visitor and as a customer mid-checkout.
  // The media and athlete APIs also take PATCH and DELETE bodies.
  const methods: Method[] = /^\/api\/video\/(contests|athletes)\//.test(path)
    ? ["POST", "PATCH", "DELETE"]
    : /^\/api\/admin\/coupons\/\d+$/.test(path)
      ? ["POST", "PATCH"]
      : ["POST"];
  const who: (keyof typeof sessions)[] =
    path.startsWith("/admin") ||
    path.startsWith("/api/admin/coupons") ||
    path.startsWith("/api/video") ||
    /^\/api\/(orders|setup-2fa|verify-2fa)\//.test(`${path}/`)
      ? ["admin", "anonymous"]
      : ["anonymous", "customer"];
  for (const method of methods) for (const session of who) jobs.push([method, path, session]);
}
// A contest's PATCH renames and unpublishes it, and its DELETE removes it with everything of
// it at the first body: each is fuzzed on a contest of its own, so the other endpoints (the
// order form, the settings, the media) keep theirs. The settings' PUT calls are fuzzed too.
{
  const spare = new Database(shop.env.DATABASE_PATH);
  const own = (label: string) =>
    (
      spare
        .prepare("insert into contests (name, slug_key) values (?, ?) returning id")
        .get(`ファズ用の大会（${label}）`, `fuzz${label}`) as { id: number }
    ).id;
  const ownContest = { PATCH: own("patch"), DELETE: own("delete") };
  spare.close();
  for (const job of jobs)
    if ((job[0] === "PATCH" || job[0] === "DELETE") && job[1] === `/api/video/contests/${contest.id}`)
      job[1] = `/api/video/contests/${ownContest[job[0]]}`;
  for (const path of endpoints)
    if (/^\/api\/video\/contests\/[^/]+\/(video-formats\/[^/]+|price-description)$/.test(path))
      for (const session of ["admin", "anonymous"] as const) jobs.push(["PUT", path, session]);
}
// A contest behind its 合言葉: the right code opens it, and the bodies posted to its order form
// without the code (onto the code's form: its field names are the page's) save no draft.
const coded = shop.fixtures.contests.at(-1)!;
const codedPath = `/order-form/${encodeURIComponent(contestSlug(coded.name))}`;
{
  const codedDb = new Database(shop.env.DATABASE_PATH);
  codedDb.prepare("update contests set access_code = 'Aoba-2025' where id = ?").run(coded.id);
  codedDb.close();
  const parent = new Browser(server.base, "198.51.100.201", log);
  const opened = await parent.request("POST", codedPath, [
    ["intent", "unlock"],
    ["accessCode", "aoba-2025"],
  ]);
  checks.check(opened.status === 303, `the right 合言葉 answered ${opened.status}`);
  const form = await parent.request("GET", codedPath);
  checks.check(form.status === 200, `the order form opened by its 合言葉 answered ${form.status}`);
  jobs.push(["POST", codedPath, "anonymous"]);
}
const codedDrafts = () =>
  (shop.db.prepare("select count(*) as n from checkouts where contest_id = ?").get(coded.id) as { n: number })
    .n;
const queue = [...jobs];
await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const [method, path, session] = job;
      try {
        await fuzz(method, path, session);
        checks.check(true, "");
      } catch (error) {
        checks.check(false, `${method} ${path} as ${session}: ${describeFailure(error)}`);
      }
    }
  }),
);
const seconds = (performance.now() - started) / 1000;

const after = counts();
checks.check(
  after.orders === before.orders && after.lines === before.lines,
  `orders changed: ${JSON.stringify(before)} → ${JSON.stringify(after)}`,
);
checks.check(after.users === before.users, `accounts were created: ${before.users} → ${after.users}`);
checks.check(codedDrafts() === 0, `${codedDrafts()} drafts saved for a contest behind its 合言葉 without it`);
const blankContests = (
  shop.db.prepare("select count(*) as n from contests where trim(name) = ''").get() as { n: number }
).n;
checks.check(blankContests === 0, `${blankContests} contests with a blank name`);
const badPrices = (
  shop.db
    .prepare(
      "select count(*) as n from athletes where vertical_video_price < 0 or horizontal_video_price < 0",
    )
    .get() as { n: number }
).n;
checks.check(badPrices === 0, `${badPrices} athletes with a negative price`);
const healthy = (await fetch(`${server.base}/healthz`)).ok;
checks.check(healthy, "the server does not answer /healthz after the run");
await server.stop();
await shop.close();

console.log(
  `${endpoints.length} endpoints, ${jobs.length} endpoint×method×session runs of ${RUNS} bodies: ${sent} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(log.counts))}`,
);
process.exitCode = checks.report();
process.exit();
