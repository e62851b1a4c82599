import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthCard, LinkProblemCard } from "~/components/AuthCard";
import { readForm } from "~/server/http/form.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { requireUser } from "~/server/auth/users.server";
import {
  checkEarlierOrdersLink,
  EARLIER_ORDERS_MESSAGES,
  joinEarlierOrders,
} from "~/server/accounts/earlier-orders.server";
import { useIsPending } from "~/lib/hooks/use-is-pending";

export const meta: MetaFunction = () => [{ title: "以前のご注文の追加 | コンテスト動画ショップ" }];

/**
 * The link of the earlier-orders mail (sent when the checkout's auto-login made the account).
 * It needs the account's login as well as the mail, and the orders join only when the button
 * is pressed, so a mail scanner opening the link changes nothing.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const token = new URL(request.url).searchParams.get("token");
  const link = checkEarlierOrdersLink(user, token);
  if (!link.ok) return data({ token: null, orderCount: 0, problem: link.message }, { status: link.status });
  return { token, orderCount: link.orderCount, problem: null };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const { user } = await requireUser(request);
  const joined = joinEarlierOrders(user, formData.get("token"));
  if (!joined.ok) return data({ problem: joined.message }, { status: joined.status });
  return redirectWithToast(request, "/purchase-history", {
    kind: "success",
    title: EARLIER_ORDERS_MESSAGES.joined,
  });
}

export default function EarlierOrders() {
  const { token, orderCount, problem: linkProblem } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useIsPending();
  const problem = actionData?.problem ?? linkProblem;

  if (problem || !token) {
    return (
      <LinkProblemCard
        title="以前のご注文を追加できません"
        problem={problem}
        advice="パスワードを再設定すると、メールアドレスの確認として以前のご注文も追加されます。"
        links={[
          { to: "/purchase-history", label: "購入履歴へ" },
          { to: "/forgot-password", label: "パスワードを再設定する" },
        ]}
      />
    );
  }

  return (
    <AuthCard
      title="以前のご注文の追加"
      lead={`このメールアドレスで、アカウント作成より前のご注文が${orderCount}件あります。追加すると、購入履歴からダウンロードページを開けるようになります。`}
    >
      <Form method="post">
        <input type="hidden" name="token" value={token} />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          以前のご注文をアカウントに追加する
        </button>
      </Form>
    </AuthCard>
  );
}
