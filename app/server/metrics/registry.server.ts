import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { remember } from "../core/remember.server";
import { registerShopGauges } from "./shop-gauges.server";
import { requestGroup, statusClass } from "./request-groups.server";
import { REMINDER_KINDS } from "../reminders/reminders.server";
import { sentReminderCounts } from "../reminders/reminder-pass.server";

/**
 * The numbers `/metrics` shows (Prometheus' text format, scraped by fly.io into its Grafana):
 * Node's own (memory, event loop, garbage collection), the requests the edge saw, and the
 * shop's state read when scraped (shop-gauges.server.ts). One registry per process, remembered
 * (core/remember.server.ts) so the dev server's reloads do not register everything twice.
 */
type ShopMetrics = {
  registry: Registry;
  requests: Histogram<"group" | "status">;
  /** The edge's caller gate, read when scraped (set by the edge once it has one). */
  readCallerGate?: () => CallerGateReading;
};

/** What the edge's caller gate (server/caller-gate.ts) tells /metrics. */
export type CallerGateReading = {
  /** Requests refused with 429 since start. */
  refused: number;
  /** Turns taken back after TURN_MAX_MS since start. */
  takenBack: number;
  /** Requests waiting in a line now, and the longest line. */
  waiting: number;
  longestLine: number;
  /** The longest a request waited in its caller's line since the last reading, in ms. */
  longestWaitMs: number;
};

function shopMetrics(): ShopMetrics {
  return remember("metrics", makeShopMetrics);
}

function makeShopMetrics(): ShopMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: "shop_http_request_duration_seconds",
    help: "Requests answered, by part of the shop (group) and status class, with how long each took",
    labelNames: ["group", "status"] as const,
    // Pages answer in milliseconds; downloads and uploads take as long as the file does.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
    registers: [registry],
  });
  registerShopGauges(registry);
  registerSentReminders(registry);
  const metrics: ShopMetrics = { registry, requests };
  registerCallerGate(registry, () => metrics.readCallerGate?.());
  return metrics;
}

/**
 * The caller gate's numbers. Not per caller: a label per address would grow without end and put
 * every visitor's address in Grafana; the longest wait and the longest line say whether any caller
 * is being held back, and the log names a turn taken back.
 */
function registerCallerGate(registry: Registry, read: () => CallerGateReading | undefined): void {
  const registers = [registry];
  let reading: CallerGateReading | undefined;
  // One reading per scrape, taken by the first family and shared (the longest wait resets when read).
  new Counter({
    name: "shop_caller_gate_refusals_total",
    help: "Requests refused with 429 because their caller already had a full line",
    registers,
    collect() {
      reading = read();
      this.reset();
      this.inc(reading?.refused ?? 0);
    },
  });
  new Counter({
    name: "shop_caller_gate_turns_taken_back_total",
    help: "Turns held longer than any request's work (TURN_MAX_MS) and taken back",
    registers,
    collect() {
      this.reset();
      this.inc(reading?.takenBack ?? 0);
    },
  });
  new Gauge({
    name: "shop_caller_gate_waiting",
    help: "Requests waiting in their caller's line now, in all (line=all) and in the longest line (line=longest)",
    labelNames: ["line"] as const,
    registers,
    collect() {
      this.set({ line: "all" }, reading?.waiting ?? 0);
      this.set({ line: "longest" }, reading?.longestLine ?? 0);
    },
  });
  new Gauge({
    name: "shop_caller_gate_longest_wait_seconds",
    help: "The longest any request waited in its caller's line since the previous scrape",
    registers,
    collect() {
      this.set((reading?.longestWaitMs ?? 0) / 1000);
    },
  });
}

/**
 * The reminder mails sent, by kind (reminders/). A counter read from the outbox when scraped: its
 * rows are kept, so the count only grows, and it goes on after a restart where it stood.
 */
function registerSentReminders(registry: Registry): void {
  new Counter({
    name: "shop_reminders_sent_total",
    help: "Reminder mails the SMTP server took: konbini (a voucher's deadline), download_7d and download_1d (a download page's end)",
    labelNames: ["kind"] as const,
    registers: [registry],
    collect() {
      const sent = sentReminderCounts();
      this.reset();
      for (const kind of REMINDER_KINDS) this.inc({ kind }, sent[kind]);
    },
  });
}

/** Called by the edge once, with the gate it keeps (server/index.ts). */
export function reportCallerGate(read: () => CallerGateReading): void {
  shopMetrics().readCallerGate = read;
}

/** Called by the edge (server/index.ts) when an answer has gone out, static files and refusals too. */
export function observeRequest(pathname: string, status: number, seconds: number): void {
  shopMetrics().requests.observe({ group: requestGroup(pathname), status: statusClass(status) }, seconds);
}

/** Everything, in Prometheus' text format, with the shop's state read now. */
export async function metricsText(): Promise<{ body: string; contentType: string }> {
  const { registry } = shopMetrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
