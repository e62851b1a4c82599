import type { ActionFunctionArgs } from "@remix-run/node";
import { handleStripeWebhook } from "~/server/stripe-webhook.server";

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "method not allowed" }, { status: 405 });
  // The signature covers the exact bytes sent, so the body is read raw, never parsed first.
  const outcome = handleStripeWebhook(await request.text(), request.headers.get("Stripe-Signature"));
  return Response.json(outcome.body, { status: outcome.status });
}

export function loader() {
  return Response.json({ error: "method not allowed" }, { status: 405 });
}
