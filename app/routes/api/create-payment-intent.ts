import type { ActionFunctionArgs } from "@remix-run/node";
import { pricedCheckout } from "~/server/checkout/steps.server";
import { preparePayment } from "~/server/checkout/payment.server";
import { getSession } from "~/server/http/session.server";

/**
 * The spec's call. Whatever amount the client sends is ignored: the amount is the
 * session's checkout total as the server computes it.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "method not allowed" }, { status: 405 });
  const session = await getSession(request);
  const priced = pricedCheckout(session);
  const { customerEmail, customerName, emailVerifiedAt } = priced?.checkout ?? {};
  if (!priced || !customerEmail || !customerName || !emailVerifiedAt) {
    return Response.json({ error: "注文情報が見つかりません" }, { status: 409 });
  }
  const prepared = await preparePayment({ ...priced, email: customerEmail, name: customerName });
  if (!prepared.ok) return Response.json({ error: prepared.message }, { status: 400 });
  return Response.json({ clientSecret: prepared.intent.clientSecret, amount: prepared.intent.amount });
}

export function loader() {
  return Response.json({ error: "method not allowed" }, { status: 405 });
}
