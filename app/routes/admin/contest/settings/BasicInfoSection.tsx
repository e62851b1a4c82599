import { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field, SubmitRow } from "~/components/forms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { basicInfoSchema } from "~/lib/schemas/contest-settings-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import { SettingsSection, type SettingsReply } from "./SettingsSection";

/** 基本情報: the contest's name (which moves its order form's address) and the number field's label. */
export function BasicInfoSection({
  contest,
  lastResult,
}: {
  contest: { name: string; bibNumberLabel: string };
  lastResult: SettingsReply;
}) {
  const [form, fields] = useShopForm({
    id: "basic-info",
    lastResult,
    defaultValue: { name: contest.name, bibNumberLabel: contest.bibNumberLabel },
    shouldValidate: "onSubmit",
    onValidate: validateWith(basicInfoSchema),
  });
  const busy = useIsPending({ intent: "basic" });
  return (
    <SettingsSection id="basic" title="基本情報">
      <Form
        method="post"
        {...getFormProps(form)}
        key={`${contest.name}\n${contest.bibNumberLabel}`}
        className="space-y-4"
      >
        <input type="hidden" name="intent" value="basic" />
        <Field label="大会名" meta={fields.name} type="text" announce />
        <Field
          label="番号欄の名前"
          meta={fields.bibNumberLabel}
          type="text"
          hint="注文フォームで選手の番号を選ぶ欄の見出しです（例: ゼッケン番号、エントリー番号）。"
          announce
        />
        <SubmitRow busy={busy} busyLabel="保存中...">
          基本情報を保存
        </SubmitRow>
      </Form>
    </SettingsSection>
  );
}
