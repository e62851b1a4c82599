import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseForm } from "~/lib/schemas/parse-form";
import { konbiniTestSchema } from "~/lib/schemas/payment-schemas";
import { simulateKonbini } from "~/server/orders/konbini.server";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { readForm } from "~/server/http/form.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { notFoundResponse } from "~/server/http/not-found.server";

/**
 * テストモード only: the status page's buttons that play the store's till (paid) or the voucher's
 * deadline (expired), through the same code as Stripe's webhook events. 404 with Stripe configured.
 * Only a logged-in admin may press them: the status link is the customer's, and whoever holds it
 * must not be able to mark an order paid (anyone else goes to /admin-login, as for admin pages).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const token = params.token ?? "";
  const submission = parseForm(await readForm(request), { schema: konbiniTestSchema });
  if (submission.status !== "success") return new Response("操作が正しくありません", { status: 400 });
  const { event } = submission.value;
  const result = await simulateKonbini(token, event);
  if (!result.ok) return new Response(result.message, { status: result.status });
  return redirectWithToast(request, `/orders/${token}`, {
    kind: "success",
    title:
      event === "paid" ? "店頭でのお支払いを記録しました（テスト）" : "お支払い期限切れにしました（テスト）",
  });
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  return notFoundResponse();
}
