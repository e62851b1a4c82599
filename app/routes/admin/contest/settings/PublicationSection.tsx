import { getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { Field, RadioGroupField, SubmitRow } from "~/components/forms";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { PUBLICATION_CHOICES, publicationSchema } from "~/lib/schemas/contest-settings-schemas";
import { validateWith } from "~/lib/schemas/validate-with";
import { SettingsSection, type SettingsReply } from "./SettingsSection";

const PUBLICATION_HINTS: Record<(typeof PUBLICATION_CHOICES)[number], string> = {
  非公開: "ショップに表示されません。",
  公開: "すぐにショップのトップページに表示され、注文を受け付けます。",
  公開予約:
    "指定した日時（日本時間）から注文を受け付けます。それまではトップページに販売開始日時とともに表示されます。",
};

const PUBLICATION_OPTIONS = PUBLICATION_CHOICES.map((choice) => ({
  value: choice,
  label: choice,
  description: PUBLICATION_HINTS[choice],
}));

/**
 * 公開設定: 非公開, 公開 or 公開予約 with its date and time. With JavaScript the date field shows
 * only for 公開予約; without it the field is always there and says when it is used.
 */
export function PublicationSection({
  contest,
  minScheduleInput,
  lastResult,
}: {
  contest: { sitePublicStatus: string; scheduledPublishDate: string };
  minScheduleInput: string;
  lastResult: SettingsReply;
}) {
  const hydrated = useHydrated();
  const [form, fields] = useShopForm({
    id: "publication-form",
    lastResult,
    defaultValue: { status: contest.sitePublicStatus, scheduledAt: contest.scheduledPublishDate },
    shouldValidate: "onSubmit",
    // The browser's clock here; the action checks again against the server's.
    onValidate: validateWith(publicationSchema(new Date())),
  });
  const [status, setStatus] = useState(
    typeof fields.status.initialValue === "string" ? fields.status.initialValue : contest.sitePublicStatus,
  );
  const busy = useIsPending({ intent: "publication" });
  const showSchedule = !hydrated || status === "公開予約";
  return (
    <SettingsSection id="publication" title="公開設定">
      <Form
        method="post"
        {...getFormProps(form)}
        key={`${contest.sitePublicStatus}-${contest.scheduledPublishDate}`}
        className="space-y-4"
      >
        <input type="hidden" name="intent" value="publication" />
        <RadioGroupField
          label="サイトの公開状態"
          meta={fields.status}
          options={PUBLICATION_OPTIONS}
          optionsClassName="grid gap-2 sm:grid-cols-3"
          inputProps={{ onChange: (event) => setStatus(event.currentTarget.value) }}
          announce
        />
        <div hidden={!showSchedule}>
          <Field
            label="公開予約の日時（日本時間）"
            meta={fields.scheduledAt}
            type="datetime-local"
            hint={hydrated ? undefined : "「公開予約」を選んだときだけ使われます。"}
            inputProps={{ min: minScheduleInput, className: "field-input sm:max-w-xs" }}
            announce
          />
        </div>
        <SubmitRow busy={busy} busyLabel="保存中...">
          公開設定を保存
        </SubmitRow>
      </Form>
    </SettingsSection>
  );
}
