import type { ActionFunctionArgs } from "@remix-run/node";
import { readText } from "~/server/http/form.server";
import { handleStripeWebhook } from "~/server/checkout/stripe-webhook.server";

/** Stripe's events are a few kilobytes; nothing bigger is one of them. */
const MAX_EVENT_BYTES = 1024 * 1024;

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "method not allowed" }, { status: 405 });
  // The signature covers the exact bytes sent, so the body is read raw, never parsed first.
  const rawBody = await readText(request, MAX_EVENT_BYTES);
  if (rawBody === null)
    return Response.json({ received: false, error: "payload too large" }, { status: 413 });
  const outcome = await handleStripeWebhook(rawBody, request.headers.get("Stripe-Signature"));
  return Response.json(outcome.body, { status: outcome.status });
}

export function loader() {
  return Response.json({ error: "method not allowed" }, { status: 405 });
}
