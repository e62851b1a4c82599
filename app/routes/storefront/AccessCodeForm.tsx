import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { FormError } from "~/components/form-messages";
import { FieldError, FieldLabel } from "~/components/field-label";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useCheckedSubmit } from "~/lib/hooks/use-checked-submit";
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
  // Checked at submit only, so the page needs no conform form state (see useCheckedSubmit).
  const { form, errorsOf, idsOf } = useCheckedSubmit({
    id: "access-code",
    lastResult,
    check: validation.validate,
  });
  const field = idsOf("accessCode");
  const errors = errorsOf("accessCode");
  const hintId = `${field.id}-hint`;
  // Refused without JS, the page comes back with the code as typed.
  const typed = lastResult?.initialValue?.accessCode;
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
        <Form method="post" {...form.props} onFocus={validation.load} className="mt-4 space-y-4">
          <input type="hidden" name="intent" value={ACCESS_CODE_INTENT} />
          <FormError id={form.errorId} errors={form.errors} />
          <div>
            <FieldLabel htmlFor={field.id}>合言葉</FieldLabel>
            <input
              id={field.id}
              name="accessCode"
              type="text"
              defaultValue={typeof typed === "string" ? typed : undefined}
              aria-invalid={errors ? true : undefined}
              aria-describedby={errors ? `${field.errorId} ${hintId}` : hintId}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              className="field-input"
            />
            <p id={hintId} className="mt-1 text-xs text-zinc-500">
              全角・半角、大文字・小文字は区別しません。
            </p>
            <FieldError id={field.errorId} errors={errors} announce />
          </div>
          <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
            {busy ? "確認中..." : "注文フォームを開く"}
          </button>
        </Form>
      </section>
    </div>
  );
}
