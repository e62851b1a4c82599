import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { Field, SelectField } from "~/components/forms";
import { FormError } from "~/components/form-messages";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { fileMatchSchema } from "~/lib/schemas/delivery-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import type { DeliveryScreen, ScreenFile } from "~/server/delivery/delivery-screen.server";

/**
 * 割り当て: the athlete's number and a style; the server finds the athlete. Checked on submit, as
 * the row's other buttons are; the errors are announced, since the focus stays on the button.
 */
export function MatchForm({
  file,
  screen,
  lastResult,
}: {
  file: ScreenFile;
  screen: Pick<DeliveryScreen, "numberLabel" | "styles">;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useShopForm({
    id: `match-${file.id}`,
    lastResult,
    defaultValue: {
      athleteNumber: file.athlete?.athleteNumber.toString() ?? "",
      orientation: file.orientation ?? screen.styles[0]?.orientation ?? "vertical",
    },
    shouldValidate: "onSubmit",
    onValidate: validateWith(fileMatchSchema),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      aria-label={`${file.originalName} を手動で割り当て`}
      className="mt-3 flex flex-wrap items-start gap-2 rounded-lg bg-zinc-50 p-3 lg:col-start-2"
    >
      <input type="hidden" name="intent" value="match" />
      <input type="hidden" name="fileId" value={file.id} />
      <Field
        label={screen.numberLabel}
        meta={fields.athleteNumber}
        type="text"
        inputProps={{ inputMode: "numeric", className: "field-input w-28" }}
        announce
      />
      <SelectField
        label="スタイル"
        meta={fields.orientation}
        options={screen.styles.map((style) => ({ value: style.orientation, label: style.name }))}
        announce
      />
      {/* Level with the fields' boxes (below their labels), whether or not an error shows under them. */}
      <button type="submit" className="mt-6 btn-secondary min-h-10">
        割り当て
      </button>
      <Link to="." className="mt-6 inline-flex min-h-10 items-center text-sm text-zinc-600 underline">
        閉じる
      </Link>
      <div className="basis-full empty:hidden">
        <FormError id={form.errorId} errors={form.errors} />
      </div>
    </Form>
  );
}
