import { readText } from "~/server/http/form.server";
import { handleStripeWebhook } from "~/server/checkout/stripe-webhook.server";
import { apiError, jsonApi, apiJson } from "~/server/http/json-api.server";

/** Stripe's events are a few kilobytes; nothing bigger is one of them. */
const MAX_EVENT_BYTES = 1024 * 1024;

export const loader = jsonApi({
  async POST({ request }) {
    // The signature covers the exact bytes sent, so the body is read raw, never parsed first.
    const rawBody = await readText(request, MAX_EVENT_BYTES);
    if (rawBody === null) return apiError(413, "payload too large", { received: false });
    const outcome = await handleStripeWebhook(rawBody, request.headers.get("Stripe-Signature"));
    return apiJson(outcome.body, { status: outcome.status });
  },
});
export const action = loader;
