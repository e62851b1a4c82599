import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

type Intent = {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  receipt_email: string | null;
  created: number;
  livemode: false;
};

/**
 * A local HTTP server that speaks the part of Stripe's API the shop uses
 * (create, retrieve, update and list PaymentIntents, idempotency keys), so the real
 * `stripe` SDK can be pointed at it with STRIPE_API_URL.
 */
export async function startFakeStripe() {
  const intents = new Map<string, Intent>();
  const idempotent = new Map<string, string>();
  const requests: { method: string; path: string; body: URLSearchParams }[] = [];

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      const body = new URLSearchParams(raw);
      const [path = "", query = ""] = (req.url ?? "").split("?");
      requests.push({ method: req.method ?? "", path, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, {
          "Content-Type": "application/json",
          "Request-Id": `req_${crypto.randomBytes(6).toString("hex")}`,
        });
        res.end(JSON.stringify(payload));
      };
      if (!req.headers.authorization?.startsWith("Bearer sk_test_"))
        return send(401, { error: { type: "invalid_request_error", message: "Invalid API Key" } });
      const metadata: Record<string, string> = {};
      for (const [key, value] of body) {
        const match = /^metadata\[(.+)\]$/.exec(key);
        if (match?.[1]) metadata[match[1]] = value;
      }
      if (req.method === "POST" && path === "/v1/payment_intents") {
        const key = req.headers["idempotency-key"];
        const replayed = typeof key === "string" ? idempotent.get(key) : undefined;
        if (replayed) return send(200, intents.get(replayed));
        const id = `pi_${crypto.randomBytes(12).toString("hex")}`;
        const intent: Intent = {
          id,
          object: "payment_intent",
          amount: Number(body.get("amount")),
          currency: body.get("currency") ?? "jpy",
          status: "requires_payment_method",
          client_secret: `${id}_secret_${crypto.randomBytes(8).toString("hex")}`,
          metadata,
          receipt_email: body.get("receipt_email"),
          created: Math.floor(Date.now() / 1000),
          livemode: false,
        };
        intents.set(id, intent);
        if (typeof key === "string") idempotent.set(key, id);
        return send(200, intent);
      }
      if (req.method === "GET" && path === "/v1/payment_intents") {
        // Newest first, one page of `limit` after `starting_after`, as Stripe lists them.
        const params = new URLSearchParams(query);
        const since = Number(params.get("created[gte]") ?? 0);
        const limit = Number(params.get("limit") ?? 10);
        const all = [...intents.values()].filter((intent) => intent.created >= since).reverse();
        const after = params.get("starting_after");
        const start = after ? all.findIndex((intent) => intent.id === after) + 1 : 0;
        const data = all.slice(start, start + limit);
        return send(200, {
          object: "list",
          url: "/v1/payment_intents",
          has_more: start + limit < all.length,
          data,
        });
      }
      const match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
      const intent = match?.[1] ? intents.get(match[1]) : undefined;
      if (match && !intent)
        return send(404, {
          error: {
            type: "invalid_request_error",
            code: "resource_missing",
            message: "No such payment_intent",
          },
        });
      if (intent && req.method === "GET") return send(200, intent);
      if (intent && req.method === "POST") {
        if (body.has("amount")) intent.amount = Number(body.get("amount"));
        return send(200, intent);
      }
      send(404, {
        error: {
          type: "invalid_request_error",
          message: `Unrecognized request URL (${req.method}: ${path})`,
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    requests,
    /** What the card step does on Stripe's side: the payment goes through. */
    succeed(id: string) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`no intent ${id}`);
      intent.status = "succeeded";
      return intent;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
