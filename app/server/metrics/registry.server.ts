import { Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { registerShopGauges } from "./shop-gauges.server";
import { requestGroup, statusClass } from "./request-groups.server";

/**
 * The numbers `/metrics` shows (Prometheus' text format, scraped by fly.io into its Grafana):
 * Node's own (memory, event loop, garbage collection), the requests the edge saw, and the
 * shop's state read when scraped (shop-gauges.server.ts). One registry per process, kept on
 * globalThis so the dev server's reloads do not register everything twice.
 */
type ShopMetrics = { registry: Registry; requests: Histogram<"group" | "status"> };

const globalForMetrics = globalThis as unknown as { __shopMetrics?: ShopMetrics };

function shopMetrics(): ShopMetrics {
  if (globalForMetrics.__shopMetrics) return globalForMetrics.__shopMetrics;
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
  globalForMetrics.__shopMetrics = { registry, requests };
  return globalForMetrics.__shopMetrics;
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
