import { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { CheckboxField, Field, SubmitRow } from "~/components/forms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { ACCESS_CODE_MAX, ACCESS_CODE_MIN } from "~/lib/rules/access-code";
import { accessSchema } from "~/lib/schemas/contest-settings-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import { SettingsSection, type SettingsReply } from "./SettingsSection";

/**
 * 合言葉と選手名: the code handed out at the venue, which opens the contest's order form (shown
 * here as typed, so the admin can read it back for the flyer), and whether the order form shows
 * athletes' numbers without their names.
 */
export function AccessSection({
  contest,
  lastResult,
}: {
  contest: { accessCode: string; namesHidden: boolean };
  lastResult: SettingsReply;
}) {
  const [form, fields] = useShopForm({
    id: "access-form",
    lastResult,
    defaultValue: { accessCode: contest.accessCode, namesHidden: contest.namesHidden ? "on" : undefined },
    shouldValidate: "onSubmit",
    onValidate: validateWith(accessSchema),
  });
  const busy = useIsPending({ intent: "access" });
  return (
    <SettingsSection
      id="access"
      title="合言葉と選手名"
      description="合言葉を設定すると、トップページには大会名と表紙だけが表示され、注文フォーム（選手の番号・名前・サンプル動画）は合言葉を入力した方だけが開けます。"
    >
      <Form
        method="post"
        {...getFormProps(form)}
        key={`${contest.accessCode}\n${contest.namesHidden}`}
        className="space-y-4"
      >
        <input type="hidden" name="intent" value="access" />
        <Field
          label="合言葉"
          meta={fields.accessCode}
          type="text"
          hint={`${ACCESS_CODE_MIN}〜${ACCESS_CODE_MAX}文字の文字・数字（空白なし）。会場でお配りください。空欄にすると誰でも注文フォームを開けます。全角・半角、大文字・小文字は区別しません。`}
          inputProps={{ autoComplete: "off", spellCheck: false, className: "field-input sm:max-w-xs" }}
          announce
        />
        <CheckboxField
          label="番号のみ表示（氏名を出さない）"
          meta={fields.namesHidden}
          hint="注文フォームの番号一覧に選手の氏名を表示しません（合言葉があっても）。"
        />
        <SubmitRow busy={busy} busyLabel="保存中...">
          合言葉と選手名を保存
        </SubmitRow>
      </Form>
    </SettingsSection>
  );
}
