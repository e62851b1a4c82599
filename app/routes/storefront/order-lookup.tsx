import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { AuthCard, FormAlert } from "~/components/AuthCard";
import { Field } from "~/components/forms";
import { orderLookupSchema } from "~/lib/schemas/order-lookup-schemas";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { readForm } from "~/server/http/form.server";
import { ORDER_LOOKUP_MESSAGES, requestOrderLookup } from "~/server/orders/order-lookup.server";

export const meta: MetaFunction = () => [{ title: "注文状況の確認 | コンテスト動画ショップ" }];

/**
 * 注文状況の確認: a guest types the order number and the address; the status page's link is
 * mailed to the order's address. The answer is the same page, text and status whether or not
 * an order matched.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: orderLookupSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), sent: null }, { status: 400 });
  const requested = requestOrderLookup(request, submission.value);
  if (!requested.ok)
    return data(
      { result: submission.reply({ formErrors: [requested.message] }), sent: null },
      { status: 429 },
    );
  return data({ result: submission.reply(), sent: ORDER_LOOKUP_MESSAGES.requested });
}

export default function OrderLookup() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const validation = useDeferredValidation("orderLookup");
  const [form, fields] = useForm({
    id: "order-lookup",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: validation.validate,
  });
  const busy = navigation.state !== "idle";

  return (
    <AuthCard
      title="注文状況の確認"
      lead="注文番号（8桁）と、ご注文時のメールアドレスを入力してください。注文状況のページのリンクを、ご注文時のメールアドレスへお送りします。注文確認メールをお持ちの場合は、メール内の「注文状況の確認」のリンクからもご覧いただけます。"
      footer={
        <p>
          <Link to="/email-support" className="text-brand-700 underline">
            メールが届かない場合
          </Link>
          ・
          <Link to="/contact" className="text-brand-700 underline">
            お問い合わせ
          </Link>
        </p>
      }
    >
      {actionData?.sent ? (
        <div className="mb-5">
          <FormAlert kind="success">{actionData.sent}</FormAlert>
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} onFocus={validation.load} className="space-y-5">
        {form.errors ? <FormAlert id={form.errorId}>{form.errors.join(" ")}</FormAlert> : null}
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
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "送信中..." : "注文状況のリンクを送信"}
        </button>
      </Form>
    </AuthCard>
  );
}
