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
  allowed_payment_method_types: string[];
  payment_method_options: Record<string, Record<string, string>>;
  /** Set once paid: the charge whose payment_method_details say how (card or konbini). */
  latest_charge: string | null;
  next_action: null | {
    type: "konbini_display_details";
    konbini_display_details: {
      expires_at: number;
      hosted_voucher_url: string;
      stores: Record<string, { confirmation_number: string; payment_code: string }>;
    };
  };
};

type Refund = {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string | null;
  status: "succeeded" | "pending" | "requires_action" | "failed" | "canceled";
  metadata: Record<string, string>;
  instructions_email?: string;
  failure_reason?: string;
  next_action?: { type: "display_details"; display_details: { email_sent: { email_sent_to: string } } };
  created: number;
};

/**
 * A local HTTP server that speaks the part of Stripe's API the shop uses
 * (create, retrieve, update, cancel and list PaymentIntents with their metadata, idempotency keys, konbini's
 * next_action with its voucher; refunds, created and listed by payment, with Stripe's rules: never
 * more than the payment left unrefunded, a konbini refund only with instructions_email and then
 * requires_action until the customer's bank account is given), so the real `stripe` SDK can be
 * pointed at it with STRIPE_API_URL.
 */
export async function startFakeStripe() {
  const intents = new Map<string, Intent>();
  const idempotent = new Map<string, string>();
  const refunds = new Map<string, Refund>();
  /** How each paid intent was paid, by its latest_charge id. */
  const chargeMethods = new Map<string, "card" | "konbini">();
  const requests: { method: string; path: string; body: URLSearchParams; idempotencyKey: string | null }[] =
    [];

  function createRefund(
    body: URLSearchParams,
    idempotencyKey: string | null,
    send: (status: number, payload: unknown) => void,
  ) {
    const replayed = idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
    if (replayed) return send(200, refunds.get(replayed));
    const refused = (message: string) => send(400, { error: { type: "invalid_request_error", message } });
    const intent = intents.get(body.get("payment_intent") ?? "");
    if (!intent) return refused("No such payment_intent");
    if (intent.status !== "succeeded" || !intent.latest_charge)
      return refused("This PaymentIntent does not have a successful charge to refund.");
    const refunded = [...refunds.values()]
      .filter(
        (refund) =>
          refund.payment_intent === intent.id && refund.status !== "failed" && refund.status !== "canceled",
      )
      .reduce((sum, refund) => sum + refund.amount, 0);
    const amount = body.has("amount") ? Number(body.get("amount")) : intent.amount - refunded;
    if (amount > intent.amount - refunded)
      return refused(
        `Refund amount (¥${amount}) is greater than unrefunded amount on charge (¥${intent.amount - refunded})`,
      );
    const konbini = chargeMethods.get(intent.latest_charge) === "konbini";
    const email = body.get("instructions_email");
    if (konbini && !email) return refused("instructions_email is required to refund a konbini payment.");
    const metadata: Record<string, string> = {};
    for (const [key, value] of body) {
      const found = /^metadata\[(.+)\]$/.exec(key);
      if (found?.[1]) metadata[found[1]] = value;
    }
    const id = `re_${crypto.randomBytes(12).toString("hex")}`;
    const refund: Refund = {
      id,
      object: "refund",
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      charge: intent.latest_charge,
      status: konbini ? "requires_action" : "succeeded",
      metadata,
      ...(email ? { instructions_email: email } : {}),
      ...(konbini && email
        ? {
            next_action: {
              type: "display_details" as const,
              display_details: { email_sent: { email_sent_to: email } },
            },
          }
        : {}),
      created: Math.floor(Date.now() / 1000),
    };
    refunds.set(id, refund);
    if (idempotencyKey) idempotent.set(idempotencyKey, id);
    return send(200, refund);
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      const body = new URLSearchParams(raw);
      const [path = "", query = ""] = (req.url ?? "").split("?");
      const idempotencyKey =
        typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : null;
      requests.push({ method: req.method ?? "", path, body, idempotencyKey });
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
      const methodOptions: Record<string, Record<string, string>> = {};
      const allowedTypes: string[] = [];
      for (const [key, value] of body) {
        const match = /^metadata\[(.+)\]$/.exec(key);
        if (match?.[1]) metadata[match[1]] = value;
        const option = /^payment_method_options\[(\w+)\]\[(\w+)\]$/.exec(key);
        if (option?.[1] && option[2])
          methodOptions[option[1]] = { ...methodOptions[option[1]], [option[2]]: value };
        if (/^allowed_payment_method_types\[\d+\]$/.test(key)) allowedTypes.push(value);
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
          // A key given as "" is not set (Stripe's unset).
          metadata: Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== "")),
          receipt_email: body.get("receipt_email"),
          created: Math.floor(Date.now() / 1000),
          livemode: false,
          allowed_payment_method_types: allowedTypes,
          payment_method_options: methodOptions,
          latest_charge: null,
          next_action: null,
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
      if (req.method === "POST" && path === "/v1/refunds") return createRefund(body, idempotencyKey, send);
      if (req.method === "GET" && path === "/v1/refunds") {
        // A payment's refunds, newest first, one page as Stripe lists them (payment_intent=, limit).
        const params = new URLSearchParams(query);
        const paymentIntent = params.get("payment_intent");
        const limit = Number(params.get("limit") ?? 10);
        const all = [...refunds.values()]
          .filter((refund) => !paymentIntent || refund.payment_intent === paymentIntent)
          .reverse();
        const after = params.get("starting_after");
        const start = after ? all.findIndex((refund) => refund.id === after) + 1 : 0;
        return send(200, {
          object: "list",
          url: "/v1/refunds",
          has_more: start + limit < all.length,
          data: all.slice(start, start + limit),
        });
      }
      const match = /^\/v1\/payment_intents\/([^/]+?)(\/cancel)?$/.exec(path);
      const intent = match?.[1] ? intents.get(match[1]) : undefined;
      if (match && !intent)
        return send(404, {
          error: {
            type: "invalid_request_error",
            code: "resource_missing",
            message: "No such payment_intent",
          },
        });
      if (intent && req.method === "GET") {
        // expand[]=latest_charge: the charge with how it was paid (the shop asks before a refund).
        const expand = new URLSearchParams(query)
          .getAll("expand[0]")
          .concat(new URLSearchParams(query).getAll("expand[]"));
        if (expand.includes("latest_charge") && intent.latest_charge)
          return send(200, {
            ...intent,
            latest_charge: {
              id: intent.latest_charge,
              object: "charge",
              payment_method_details: { type: chargeMethods.get(intent.latest_charge) ?? "card" },
            },
          });
        return send(200, intent);
      }
      if (intent && req.method === "POST" && match?.[2]) {
        // As Stripe: only an intent that is not final can be canceled.
        if (intent.status === "succeeded" || intent.status === "canceled")
          return send(400, {
            error: {
              type: "invalid_request_error",
              code: "payment_intent_unexpected_state",
              message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
            },
          });
        intent.status = "canceled";
        intent.next_action = null;
        return send(200, intent);
      }
      if (intent && req.method === "POST") {
        if (body.has("amount")) intent.amount = Number(body.get("amount"));
        // As Stripe: the update's keys are merged into the intent's, a key set to "" is removed.
        for (const [key, value] of Object.entries(metadata)) {
          if (value === "") delete intent.metadata[key];
          else intent.metadata[key] = value;
        }
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
      intent.latest_charge = `ch_${crypto.randomBytes(12).toString("hex")}`;
      chargeMethods.set(intent.latest_charge, "card");
      return intent;
    },
    /**
     * What the Payment Element does when konbini is chosen: the intent waits for the store
     * payment, with a voucher due `days` after today (23:59:59 JST, as Stripe's expires_after_days).
     */
    showKonbiniVoucher(id: string, expiresAt: Date) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`no intent ${id}`);
      const number = String(10_000_000_000 + crypto.randomInt(0, 89_999_999_999));
      intent.status = "requires_action";
      intent.next_action = {
        type: "konbini_display_details",
        konbini_display_details: {
          expires_at: Math.floor(expiresAt.getTime() / 1000),
          hosted_voucher_url: `https://payments.stripe.com/konbini/voucher/test_${intent.id}`,
          stores: {
            familymart: { confirmation_number: number, payment_code: "123456" },
            lawson: { confirmation_number: number, payment_code: "123456" },
            ministop: { confirmation_number: number, payment_code: "123456" },
            seicomart: { confirmation_number: number, payment_code: "123456" },
          },
        },
      };
      return intent;
    },
    /** The store's till: a waiting konbini intent is paid. */
    payKonbini(id: string) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`no intent ${id}`);
      intent.status = "succeeded";
      intent.next_action = null;
      intent.latest_charge = `ch_${crypto.randomBytes(12).toString("hex")}`;
      chargeMethods.set(intent.latest_charge, "konbini");
      return intent;
    },
    refunds,
    /** The customer gave a bank account and the transfer went out: a konbini refund succeeds. */
    completeRefund(id: string) {
      const refund = refunds.get(id);
      if (!refund) throw new Error(`no refund ${id}`);
      refund.status = "succeeded";
      delete refund.next_action;
      return refund;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
