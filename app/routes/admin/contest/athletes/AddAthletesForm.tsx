import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field } from "~/components/forms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { addAthletesSchema, MAX_ADD_COUNT } from "~/lib/schemas/athlete-schemas";
import { validateWith } from "~/lib/schemas/validate-with";

/** 選手追加: how many athletes to add, numbered after the contest's highest number. */
export function AddAthletesForm({ lastResult }: { lastResult: SubmissionResult<string[]> | null }) {
  const [form, fields] = useShopForm({
    id: "add-athletes",
    lastResult,
    // Checked when the admin presses 選手を追加, not when leaving the one field beside its button.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
    onValidate: validateWith(addAthletesSchema),
  });
  const pending = useIsPending({ intent: "add" });
  return (
    <Form method="post" {...getFormProps(form)} className="rounded-xl bg-white p-4 shadow-sm">
      <Field
        label="追加する人数"
        meta={fields.count}
        type="number"
        announce
        inputProps={{
          min: 1,
          max: MAX_ADD_COUNT,
          step: 1,
          inputMode: "numeric",
          placeholder: "例: 30",
          className: "field-input w-40",
        }}
        beside={
          <button type="submit" name="intent" value="add" className="btn-primary" disabled={pending}>
            {pending ? "追加中..." : "選手を追加"}
          </button>
        }
      />
      <p className="mt-2 text-xs text-zinc-500">
        一度に{MAX_ADD_COUNT}人まで。番号は現在の最大番号の次から振られ、名前は「選手{"{番号}"}
        」、価格は各形式5,000円、ステータスは確認中で追加されます。
      </p>
    </Form>
  );
}
