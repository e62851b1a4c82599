import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { completePayment } from "~/server/checkout/payment.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { redirectToPage } from "~/server/http/security-headers.server";
import { redirectWithToast } from "~/server/http/toast.server";

/** Stripe sends the browser here after the card step (and 3-D Secure). The provider is asked what happened. */
export async function loader({ request }: LoaderFunctionArgs) {
  const intentId = new URL(request.url).searchParams.get("payment_intent");
  if (!intentId || !/^pi_[A-Za-z0-9_]{1,200}$/.test(intentId)) return redirectToPage("/payment");
  const session = await getSession(request);
  const completed = await completePayment(session, intentId);
  if (!completed.ok)
    return redirectWithToast(request, "/payment", {
      kind: "error",
      title: "決済エラー",
      description: completed.message,
    });
  session.flash("toast", completed.toast);
  return redirect("/payment-complete", { headers: { "Set-Cookie": await commitSession(session) } });
}
