import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { Field } from "~/components/forms";
import { MailedLinkRequestCard } from "~/components/MailedLinkRequestCard";
import { MailHelpLinks } from "~/components/MailHelpLinks";
import { orderLookupSchema } from "~/lib/schemas/order-lookup-schemas";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { useStorefrontForm } from "~/lib/hooks/use-storefront-form";
import { answerMailedLinkRequest } from "~/server/auth/codes/mailed-link-request.server";
import { ORDER_LOOKUP_MESSAGES, requestOrderLookup } from "~/server/orders/customer/order-lookup.server";

export const meta: MetaFunction = () => [{ title: "注文状況の確認 | コンテスト動画ショップ" }];

/**
 * 注文状況の確認: a guest types the order number and the address; the status page's link is
 * mailed to the order's address. The answer is the same page, text and status whether or not
 * an order matched.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answerMailedLinkRequest(
    request,
    orderLookupSchema,
    (values) => requestOrderLookup(request, values),
    ORDER_LOOKUP_MESSAGES.requested,
  );
}

export default function OrderLookup() {
  const actionData = useActionData<typeof action>();
  const validation = useDeferredValidation("orderLookup");
  const [form, fields] = useStorefrontForm({
    id: "order-lookup",
    lastResult: actionData?.result,
    validate: validation.validate,
  });

  return (
    <MailedLinkRequestCard
      title="注文状況の確認"
      lead="注文番号（8桁）と、ご注文時のメールアドレスを入力してください。注文状況のページのリンクを、ご注文時のメールアドレスへお送りします。注文確認メールをお持ちの場合は、メール内の「注文状況の確認」のリンクからもご覧いただけます。"
      footer={<MailHelpLinks contact />}
      sent={actionData?.sent}
      form={form}
      onFocus={validation.load}
      submitLabel="注文状況のリンクを送信"
    >
      <Field
        label="注文番号"
        meta={fields.orderNumber}
        type="text"
        hint="注文確認メールの件名と本文に記載の8桁の数字です"
        inputProps={{ inputMode: "numeric", autoComplete: "off", maxLength: 20 }}
      />
      <Field
        label="メールアドレス"
        meta={fields.email}
        type="email"
        inputProps={{ autoComplete: "email", inputMode: "email" }}
      />
    </MailedLinkRequestCard>
  );
}
