import { describe, expect, it, vi } from "vitest";
import { loader as metricsLoader } from "~/routes/system/metrics";
import { loader as readyLoader } from "~/routes/system/readyz";
import { setClock } from "~/server/core/clock.server";
import { readDiskSpaceWith } from "~/server/core/disk.server";
import { db } from "~/server/db/client.server";
import { queueMail } from "~/server/mail/outbox.server";
import { mayReadMetrics } from "~/server/metrics/access.server";
import { requestGroup } from "~/server/metrics/request-groups.server";
import { readiness } from "~/server/metrics/readiness.server";
import { observeRequest, reportCallerGate } from "~/server/metrics/registry.server";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text";

const TOKEN = vi.hoisted(() => {
  const token = "metrics-token-for-tests-0123456789abcdef";
  // Read by env() on its first call, after the imports.
  process.env.METRICS_TOKEN = token;
  return token;
});

function scrape(address: string | null, headers: Record<string, string> = {}): Request {
  const request = new Request("http://localhost/metrics", { headers });
  if (address !== null) request.headers.set("X-Shop-Client-Address", address);
  return request;
}

async function metrics(request: Request = scrape("127.0.0.1")) {
  const response = await metricsLoader({ request, params: {}, context: {} });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

async function families() {
  const { status, text } = await metrics();
  expect(status).toBe(200);
  return parsePrometheusText(text);
}

describe("/metrics", () => {
  it("is Prometheus' text format with the shop's families and Node's own", async () => {
    const { headers } = await metrics();
    expect(headers.get("Content-Type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(headers.get("Cache-Control")).toBe("no-store");
    const parsed = await families();
    const types = Object.fromEntries([...parsed.values()].map((family) => [family.name, family.type]));
    expect(types).toMatchObject({
      shop_http_request_duration_seconds: "histogram",
      shop_password_hashing: "gauge",
      shop_mail_outbox_backlog: "gauge",
      shop_mail_outbox_oldest_unsent_age_seconds: "gauge",
      shop_media_jobs: "gauge",
      shop_disk_free_bytes: "gauge",
      shop_disk_total_bytes: "gauge",
      shop_disk_reserve_bytes: "gauge",
      shop_backup_last_success_age_seconds: "gauge",
      shop_backup_last_success_bytes: "gauge",
      shop_backup_failures_since_last_success: "gauge",
      shop_orders: "gauge",
      shop_orders_paid_amount_yen: "gauge",
      shop_refunds: "gauge",
      shop_refunds_amount_yen: "gauge",
      process_cpu_user_seconds_total: "counter",
      nodejs_eventloop_lag_seconds: "gauge",
    });
    expect(sampleValue(parsed, "shop_password_hashing", { state: "running" })).toBe(0);
    expect(sampleValue(parsed, "shop_media_jobs", { status: "waiting" })).toBe(0);
    expect(sampleValue(parsed, "shop_orders", { payment_status: "paid" })).toBe(0);
    expect(sampleValue(parsed, "shop_refunds", { status: "succeeded" })).toBe(0);
    expect(sampleValue(parsed, "shop_disk_free_bytes", { volume: "database" })).toBeGreaterThan(0);
    expect(sampleValue(parsed, "shop_disk_total_bytes", { volume: "database" })).toBeGreaterThan(0);
    expect(sampleValue(parsed, "shop_disk_reserve_bytes", { volume: "database" })).toBeGreaterThan(0);
  });

  it("a queued mail is the outbox's backlog, and its wait grows with the clock", async () => {
    const before = await families();
    expect(sampleValue(before, "shop_mail_outbox_backlog")).toBe(0);
    expect(sampleValue(before, "shop_mail_outbox_oldest_unsent_age_seconds")).toBe(0);
    const queuedAt = Date.now();
    setClock(() => queuedAt);
    queueMail({ to: "parent@example.jp", mail: { subject: "件名", text: "本文", html: "<p>本文</p>" } });
    setClock(() => queuedAt + 90_000);
    const after = await families();
    expect(sampleValue(after, "shop_mail_outbox_backlog")).toBe(1);
    expect(sampleValue(after, "shop_mail_outbox_oldest_unsent_age_seconds")).toBeCloseTo(90, 0);
  });

  it("a request the edge observed is counted in its group and status class, with its duration", async () => {
    const series = { group: "admin", status: "2xx" };
    const count = (parsed: Awaited<ReturnType<typeof families>>) =>
      sampleValue(parsed, "shop_http_request_duration_seconds_count", series) ?? 0;
    const before = count(await families());
    observeRequest("/admin/orders/12345678", 200, 0.02);
    const after = await families();
    expect(count(after)).toBe(before + 1);
    expect(
      sampleValue(after, "shop_http_request_duration_seconds_bucket", { ...series, le: "0.025" }),
    ).toBeGreaterThanOrEqual(1);
  });

  it("the caller gate's refusals, turns taken back, lines and longest wait, as the edge reads them", async () => {
    const readings = [
      { refused: 3, takenBack: 1, waiting: 5, longestLine: 4, longestWaitMs: 2_500 },
      { refused: 4, takenBack: 1, waiting: 0, longestLine: 0, longestWaitMs: 0 },
    ];
    reportCallerGate(() => readings.shift()!);
    let found = await families();
    expect(sampleValue(found, "shop_caller_gate_refusals_total")).toBe(3);
    expect(sampleValue(found, "shop_caller_gate_turns_taken_back_total")).toBe(1);
    expect(sampleValue(found, "shop_caller_gate_waiting", { line: "all" })).toBe(5);
    expect(sampleValue(found, "shop_caller_gate_waiting", { line: "longest" })).toBe(4);
    expect(sampleValue(found, "shop_caller_gate_longest_wait_seconds")).toBe(2.5);
    // One reading per scrape: the next scrape shows the next one.
    found = await families();
    expect(sampleValue(found, "shop_caller_gate_refusals_total")).toBe(4);
    expect(sampleValue(found, "shop_caller_gate_longest_wait_seconds")).toBe(0);
  });

  it("groups paths into a few words, never the path itself", () => {
    expect(requestGroup("/")).toBe("storefront");
    expect(requestGroup("/_root.data")).toBe("storefront");
    expect(requestGroup("/order-form/tokyo-cup-2026.data")).toBe("storefront");
    expect(requestGroup("/orders/abc/receipt.pdf")).toBe("storefront");
    expect(requestGroup("/admin")).toBe("admin");
    expect(requestGroup("/admin-login")).toBe("admin");
    expect(requestGroup("/api/orders/12/delivery")).toBe("api");
    expect(requestGroup("/download/x/1/original")).toBe("download");
    expect(requestGroup("/media/a.jpg")).toBe("media");
    expect(requestGroup("/assets/entry-abc.js")).toBe("static");
    expect(requestGroup("/metrics")).toBe("system");
    expect(requestGroup("/wp-login.php")).toBe("other");
    expect(requestGroup("/constructor")).toBe("other");
  });
});

describe("who may read /metrics", () => {
  it("this machine and fly.io's private network (fdaa::/16) read it without a token", async () => {
    for (const address of ["127.0.0.1", "::1", "fdaa:0:1a2b:a7b:b6:3c1d:8f2e:2"])
      expect((await metrics(scrape(address))).status, address).toBe(200);
  });

  it("a caller from a public address is told it does not exist (the shop's 404), with the token let in", async () => {
    for (const address of ["203.0.113.7", "2001:db8::1", "fdab::1", "10.0.0.5", null]) {
      const refused = await metrics(scrape(address));
      expect(refused, String(address)).toMatchObject({ status: 404, text: "Not Found" });
    }
    const allowed = await metrics(scrape("203.0.113.7", { Authorization: `Bearer ${TOKEN}` }));
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain("shop_mail_outbox_backlog");
  });

  it("*metrics read by a stranger*: a wrong or no token from the internet gets the 404 and no numbers", async () => {
    const wrong = [
      `Bearer ${TOKEN.slice(0, -1)}x`,
      "Bearer guess",
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN} extra`,
    ];
    for (const authorization of wrong) {
      const answer = await metrics(scrape("198.51.100.23", { Authorization: authorization }));
      expect(answer, authorization).toMatchObject({ status: 404, text: "Not Found" });
    }
    // A wrong token is refused on the private network too: it is checked wherever it comes from.
    expect((await metrics(scrape("127.0.0.1", { Authorization: "Bearer guess" }))).status).toBe(404);
    // Without METRICS_TOKEN set, no bearer token opens it.
    const noToken = { token: undefined, trustProxy: 1 };
    expect(mayReadMetrics(scrape("198.51.100.23", { Authorization: "Bearer undefined" }), noToken)).toBe(
      false,
    );
  });

  it("on fly.io a scrape over the private network (no Fly-Client-IP, so no client address) is its socket's peer", () => {
    const fly = { token: undefined, trustProxy: "fly" as const };
    expect(mayReadMetrics(scrape(null, { "X-Shop-Peer-Address": "fdaa:0:1a2b::3" }), fly)).toBe(true);
    // Through fly.io's edge the caller is what Fly-Client-IP said, whichever proxy address the peer is.
    expect(mayReadMetrics(scrape("203.0.113.7", { "X-Shop-Peer-Address": "fdaa:0:1a2b::3" }), fly)).toBe(
      false,
    );
    // A malformed or doubled Fly-Client-IP (the edge named nobody) is nobody, not the peer.
    for (const flyClientIp of ["not-an-address", "203.0.113.7, 198.51.100.2"])
      expect(
        mayReadMetrics(scrape(null, { "Fly-Client-IP": flyClientIp, "X-Shop-Peer-Address": "fdaa::3" }), fly),
        flyClientIp,
      ).toBe(false);
    // Behind other proxies a request without their word is nobody, whatever its peer.
    expect(
      mayReadMetrics(scrape(null, { "X-Shop-Peer-Address": "127.0.0.1" }), {
        token: undefined,
        trustProxy: 1,
      }),
    ).toBe(false);
  });

  it("*metrics behind an unannounced proxy*: with TRUST_PROXY=none, a request carrying a proxy's word needs the token", () => {
    const none = { token: TOKEN, trustProxy: "none" as const };
    // A proxy on this machine: every request's peer is loopback.
    expect(mayReadMetrics(scrape("127.0.0.1"), none)).toBe(true);
    for (const header of ["X-Forwarded-For", "Forwarded", "Fly-Client-IP", "X-Real-IP"]) {
      expect(mayReadMetrics(scrape("127.0.0.1", { [header]: "203.0.113.7" }), none), header).toBe(false);
      const withToken = { [header]: "203.0.113.7", Authorization: `Bearer ${TOKEN}` };
      expect(mayReadMetrics(scrape("127.0.0.1", withToken), none), header).toBe(true);
    }
  });
});

describe("/readyz", () => {
  // Its disk check on a disk of the test's own (tests/server/core/disk-reserve.test.ts has the reserve's cases).
  const roomy = () =>
    readDiskSpaceWith(async () => ({ freeBytes: 8 * 1024 ** 3, sizeBytes: 10 * 1024 ** 3 }));
  const readyz = () => readyLoader({ request: scrape("203.0.113.7"), params: {}, context: {} });

  it("200 ready when the database takes a write and the volume has room; never cached", async () => {
    const restore = roomy();
    const response = await readyz().finally(restore);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ready");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("not ready when the database is read-only, and says so", async () => {
    const sqlite = db().$client;
    sqlite.pragma("query_only = ON");
    const restore = roomy();
    try {
      expect(await readiness()).toEqual({
        ready: false,
        failed: ["database does not take a write (SQLITE_READONLY)"],
      });
      const response = await readyz();
      expect(response.status).toBe(503);
      // The public answer names the check; SQLite's error code goes to the log only.
      expect(await response.text()).toBe("not ready: database does not take a write");
    } finally {
      sqlite.pragma("query_only = OFF");
      restore();
    }
    expect(sqlite.inTransaction).toBe(false);
  });
});
