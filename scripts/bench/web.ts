// npm run bench:web — what each public page costs a parent on a slow phone: the gzip bytes of
// the JavaScript, CSS and HTML it loads (read from the build and the server's answer), and a
// Lighthouse mobile run (its default mobile emulation and simulated slow 4G / 4× CPU) driving
// Debian's chromium headless. /about, a page of text with the same shell, is the baseline
// measured in the same run. Budgets: ≤ 100 KB gzip of JavaScript per page, performance ≥ 95,
// CLS ≤ 0.02, accessibility ≥ 95.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { adminCookie, startServer } from "./lib.mjs";
import { Browser, prepareShop, purchase, root, StatusLog } from "../load/shop-client";
import { contestSlug } from "../../app/lib/rules/slug";

const BUDGET = { jsKb: 100, performance: 95, cls: 0.02, accessibility: 95 };

const shop = await prepareShop();
const server = await startServer(shop.env);
const log = new StatusLog();

// Sessions that reach the checkout pages: a draft (confirmation), then a confirmed order (code entry).
const contest = shop.fixtures.contests[0]!;
const slug = encodeURIComponent(contestSlug(contest.name));
const athlete = shop.fixtures.athletes.find((a) => a.contestId === contest.id)!;
const format = shop.fixtures.formats.find((f) => f.contestId === contest.id)!;
const customer = new Browser(server.base, "198.51.100.7", log);
await customer.request("POST", `/order-form/${slug}`, [
  ["intent", "next"],
  ["items[0].category", athlete.category],
  ["items[0].athleteId", String(athlete.id)],
  ["items[0].formatId", String(format.id)],
]);
const draftCookie = customer.cookie;

// A delivered order for the download page.
const bought = await purchase(shop, server.base, log, 1, { declined: false });
const admin = new Browser(server.base, "203.0.113.9", log);
admin.cookie = await adminCookie(shop.env.DATABASE_PATH, shop.fixtures.adminId);
const order = shop.db.prepare("select id from orders where customer_email = ?").get(bought.email) as {
  id: number;
};
const lines = shop.db.prepare("select id from order_lines where order_id = ?").all(order.id) as {
  id: number;
}[];
await admin.request("POST", "/admin/orders", [
  ["orderId", String(order.id)],
  ["intent", "deliver"],
  ...lines.map((l): [string, string] => [`url-${l.id}`, `https://videos.example.jp/${l.id}.mp4`]),
]);
const downloadId = (
  shop.db.prepare("select id from download_pages where order_id = ?").get(order.id) as { id: string }
).id;

type Page = { label: string; path: string; cookie?: string; before?: () => Promise<void> };
const pages: Page[] = [
  { label: "/about (baseline)", path: "/about" },
  { label: "/", path: "/" },
  { label: "/order-form/{slug}", path: `/order-form/${slug}` },
  { label: "/order-confirmation", path: "/order-confirmation", cookie: draftCookie },
  {
    label: "/email-verification",
    path: "/email-verification",
    before: async () => {
      await customer.request("POST", "/order-confirmation", [
        ["email", "bench-web@example.jp"],
        ["name", "計測 花子"],
      ]);
    },
  },
  { label: "/login", path: "/login" },
  { label: "/register", path: "/register" },
  { label: "/download/{id}", path: `/download/${downloadId}` },
];

const gzipBytes = (buffer: Buffer) => zlib.gzipSync(buffer, { level: 6 }).length;
const clientDir = path.join(root, "build", "client");

/** The JS and CSS a page's HTML makes the browser load (module preloads, scripts, styles), gzip-sized from the build. */
function assetWeights(html: string) {
  const urls = new Set([...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!));
  // Remix's entry imports the manifest and routes by absolute /assets/ paths inside an inline module too.
  for (const m of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/assets\/[^"]+\.js)"/g))
    urls.add(m[1]!);
  let js = 0;
  let css = 0;
  for (const url of urls) {
    const file = path.join(clientDir, url);
    if (!fs.existsSync(file)) continue;
    if (url.endsWith(".js")) js += gzipBytes(fs.readFileSync(file));
    else css += gzipBytes(fs.readFileSync(file));
  }
  return { js, css };
}

const chrome = await chromeLauncher.launch({
  chromePath: "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
type Row = {
  label: string;
  js: number;
  css: number;
  html: number;
  performance: number;
  accessibility: number;
  cls: number;
  lcp: number;
  tbt: number;
};
const rows: Row[] = [];
try {
  for (const page of pages) {
    await page.before?.();
    const cookie = page.cookie ?? (page.before ? customer.cookie : "");
    const response = await fetch(server.base + page.path, { headers: cookie ? { Cookie: cookie } : {} });
    const html = await response.text();
    if (response.status !== 200) throw new Error(`${page.path} answered ${response.status}`);
    const { js, css } = assetWeights(html);
    const result = await lighthouse(server.base + page.path, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      extraHeaders: cookie ? { Cookie: cookie } : undefined,
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`no Lighthouse result for ${page.path}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    rows.push({
      label: page.label,
      js,
      css,
      html: gzipBytes(Buffer.from(html)),
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      cls: audit("cumulative-layout-shift"),
      lcp: audit("largest-contentful-paint"),
      tbt: audit("total-blocking-time"),
    });
  }
} finally {
  await chrome.kill();
  await server.stop();
  await shop.close();
}

// Kilobytes here are KiB (1,024 bytes), as Lighthouse and browsers' devtools count them.
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const baseline = rows[0]!;
let failed = false;
console.log("Lighthouse mobile (simulated slow 4G, 4× CPU slowdown), gzip sizes from the build");
for (const row of rows) {
  const ok =
    row.js <= BUDGET.jsKb * 1024 &&
    row.performance >= BUDGET.performance &&
    row.cls <= BUDGET.cls &&
    row.accessibility >= BUDGET.accessibility;
  failed ||= !ok;
  console.log(
    `${ok ? "✓" : "✗"} ${row.label}: JS ${kb(row.js)}, CSS ${kb(row.css)}, HTML ${kb(row.html)} | performance ${row.performance} (${(row.performance / baseline.performance).toFixed(2)}× baseline), LCP ${(row.lcp / 1000).toFixed(2)} s (${(row.lcp / baseline.lcp).toFixed(2)}×), TBT ${row.tbt.toFixed(0)} ms, CLS ${row.cls.toFixed(3)}, accessibility ${row.accessibility}`,
  );
}
console.log(
  `budgets: JS ≤ ${BUDGET.jsKb} KiB gzip, performance ≥ ${BUDGET.performance}, CLS ≤ ${BUDGET.cls}, accessibility ≥ ${BUDGET.accessibility}`,
);
process.exitCode = failed ? 1 : 0;
