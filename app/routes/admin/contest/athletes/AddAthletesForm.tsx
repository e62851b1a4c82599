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
    onValidate: validateWith(addAthletesSchema),
  });
  const pending = useIsPending({ intent: "add" });
  return (
    <Form method="post" {...getFormProps(form)} className="rounded-xl bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start gap-3">
        <div className="w-40">
          <Field
            label="追加する人数"
            meta={fields.count}
            type="number"
            announce
            inputProps={{ min: 1, max: MAX_ADD_COUNT, step: 1, inputMode: "numeric", placeholder: "例: 30" }}
          />
        </div>
        {/* Level with the input: below the label's line (field-label: text-sm and mb-1). */}
        <button type="submit" name="intent" value="add" className="mt-6 btn-primary" disabled={pending}>
          {pending ? "追加中..." : "選手を追加"}
        </button>
      </div>
      <p className="mt-2 text-xs text-zinc-500">
        一度に{MAX_ADD_COUNT}人まで。番号は現在の最大番号の次から振られ、名前は「選手{"{番号}"}
        」、価格は各形式5,000円、ステータスは確認中で追加されます。
      </p>
    </Form>
  );
}
