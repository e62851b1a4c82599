import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { FormError } from "~/components/form-messages";
import { Field } from "~/components/forms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { ACCESS_CODE_INTENT } from "~/lib/rules/access-code";
import { useDeferredValidation } from "~/lib/hooks/use-deferred-validation";
import { OrderFormHeading } from "./OrderFormHeading";

/**
 * The order form of a contest with a 合言葉, before the code is entered: the contest's name and
 * a small form. The server keeps the entry for the session and draws the order form after it.
 */
export function AccessCodeForm({
  contestName,
  lastResult,
}: {
  contestName: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  // Checked in the browser once the form is touched: zod stays out of the page's first load.
  const validation = useDeferredValidation("accessCode");
  const [form, fields] = useShopForm({
    id: "access-code",
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: validation.validate,
  });
  const busy = useIsPending();
  return (
    <div className="mx-auto max-w-xl px-4 py-6 sm:py-10">
      <OrderFormHeading contestName={contestName} />
      <section
        aria-labelledby="access-code-title"
        className="mt-6 rounded-2xl border border-zinc-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <h2 id="access-code-title" className="text-lg font-bold">
          合言葉を入力してください
        </h2>
        <p className="mt-2 text-sm leading-relaxed text-zinc-600">
          出場される選手のプライバシーを守るため、この大会の注文フォームは合言葉を入力した方だけがご覧いただけます。合言葉は会場や主催者からお配りした案内に記載しています。
        </p>
        <Form method="post" {...getFormProps(form)} onFocus={validation.load} className="mt-4 space-y-4">
          <input type="hidden" name="intent" value={ACCESS_CODE_INTENT} />
          <FormError id={form.errorId} errors={form.errors} />
          <Field
            label="合言葉"
            meta={fields.accessCode}
            type="text"
            hint="全角・半角、大文字・小文字は区別しません。"
            inputProps={{ autoComplete: "off", autoCapitalize: "none", spellCheck: false }}
            announce
          />
          <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
            {busy ? "確認中..." : "注文フォームを開く"}
          </button>
        </Form>
      </section>
    </div>
  );
}
