import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  BasicInfoSection,
  CategoriesSection,
  FormatsSection,
  PriceDescriptionSection,
  PublicationSection,
  type SettingsActionData,
} from "~/routes/admin/contest/ContestSettingsSections";
import {
  basicInfoSchema,
  categoryAddSchema,
  categoryDeleteSchema,
  filledPriceItems,
  formatAddSchema,
  formatDeleteSchema,
  formatMoveSchema,
  formatRenameSchema,
  priceDescriptionSchema,
  publicationSchema,
  toTokyoDateTimeInput,
} from "~/lib/schemas/contest-settings-schemas";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { now } from "~/server/core/clock.server";
import { requireEditableContest } from "~/server/catalog/contest-editing.server";
import {
  addCategory,
  addFormat,
  contestSettings,
  deleteCategory,
  deleteFormat,
  moveFormat,
  renameFormat,
  savePriceDescription,
  updateBasicInfo,
  type SettingsResult,
} from "~/server/catalog/contest-settings.server";
import { setPublication } from "~/server/catalog/publication.server";
import { readForm } from "~/server/http/form.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { positiveId } from "~/lib/rules/params";

export const meta: MetaFunction = () => [{ title: "大会設定 | 管理画面" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  return {
    contest: {
      id: contest.id,
      name: contest.name,
      bibNumberLabel: contest.bibNumberLabel,
      sitePublicStatus: contest.sitePublicStatus,
      scheduledPublishDate: contest.scheduledPublishDate
        ? toTokyoDateTimeInput(contest.scheduledPublishDate)
        : "",
    },
    ...contestSettings(contest.id),
    // The earliest time 公開予約 may choose (past times are disabled in the picker too).
    minScheduleInput: toTokyoDateTimeInput(now()),
  };
}

/** Each form of the tab posts its own intent; success goes back to its section (PRG), a mistake stays with its field. */
export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const contest = requireEditableContest(params);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const page = `/admin/contest/${contest.id}/settings`;
  const saved = (section: string, description: string) =>
    redirectWithToast(
      request,
      `${page}#${section}`,
      { kind: "success", title: "保存しました", description },
      { status: 303 },
    );

  const invalid = (reply: SubmissionResult<string[]>, target?: number, status = 400) =>
    data<SettingsActionData>({ intent, target: target ?? null, reply }, { status });
  function outcome(
    submission: {
      reply: (options?: {
        fieldErrors?: Record<string, string[]>;
        formErrors?: string[];
      }) => SubmissionResult<string[]>;
    },
    result: SettingsResult,
    target?: number,
  ) {
    if (result.ok) return null;
    const reply =
      result.field === "name"
        ? submission.reply({ fieldErrors: { name: [result.message] } })
        : submission.reply({ formErrors: [result.message] });
    return invalid(reply, target, 409);
  }

  switch (intent) {
    case "basic": {
      const submission = parseWithZod(form, { schema: basicInfoSchema });
      if (submission.status !== "success") return invalid(submission.reply());
      const failed = outcome(submission, updateBasicInfo(contest.id, submission.value));
      if (failed) return failed;
      return saved("basic", "大会名と番号欄の名前を保存しました。");
    }
    case "category-add": {
      const submission = parseWithZod(form, { schema: categoryAddSchema });
      if (submission.status !== "success") return invalid(submission.reply());
      const failed = outcome(submission, addCategory(contest.id, submission.value.name));
      if (failed) return failed;
      return saved("categories", `部門「${submission.value.name}」を追加しました。`);
    }
    case "category-delete": {
      const submission = parseWithZod(form, { schema: categoryDeleteSchema });
      if (submission.status !== "success")
        return invalid(submission.reply({ formErrors: ["部門が見つかりません"] }));
      const result = deleteCategory(contest.id, submission.value.categoryId);
      if (!result.ok)
        return invalid(submission.reply({ formErrors: ["部門が見つかりません"] }), undefined, 404);
      const moved =
        result.movedAthletes > 0 ? `この部門の選手${result.movedAthletes}人は未分類になりました。` : "";
      return saved("categories", `部門「${result.name}」を削除しました。${moved}`);
    }
    case "format-add": {
      const submission = parseWithZod(form, { schema: formatAddSchema });
      if (submission.status !== "success") return invalid(submission.reply());
      const failed = outcome(submission, addFormat(contest.id, submission.value.name));
      if (failed) return failed;
      return saved("formats", `動画形式「${submission.value.name}」を追加しました。`);
    }
    case "format-rename": {
      const submission = parseWithZod(form, { schema: formatRenameSchema });
      const target = positiveId(form.get("formatId")) ?? undefined;
      if (submission.status !== "success") return invalid(submission.reply(), target);
      const failed = outcome(
        submission,
        renameFormat(contest.id, submission.value.formatId, submission.value.name),
        target,
      );
      if (failed) return failed;
      return saved("formats", `動画形式の名前を「${submission.value.name}」に変更しました。`);
    }
    case "format-delete":
    case "format-move": {
      const submission = parseWithZod(form, {
        schema: intent === "format-delete" ? formatDeleteSchema : formatMoveSchema,
      });
      if (submission.status !== "success")
        return invalid(submission.reply({ formErrors: ["動画形式が見つかりません"] }));
      const value = submission.value;
      const result =
        value.intent === "format-delete"
          ? deleteFormat(contest.id, value.formatId)
          : moveFormat(contest.id, value.formatId, value.direction);
      const failed = outcome(submission, result);
      if (failed) return failed;
      return saved(
        "formats",
        value.intent === "format-delete" ? "動画形式を削除しました。" : "動画形式の順番を変更しました。",
      );
    }
    case "price": {
      const submission = parseWithZod(form, { schema: priceDescriptionSchema });
      if (submission.status !== "success") return invalid(submission.reply());
      const items = filledPriceItems(submission.value.items);
      savePriceDescription(contest.id, items, submission.value.notes);
      return saved("price", "料金説明を保存しました。");
    }
    case "publication": {
      const submission = parseWithZod(form, { schema: publicationSchema(now()) });
      if (submission.status !== "success") return invalid(submission.reply());
      setPublication(contest.id, submission.value);
      return saved("publication", `公開設定を「${submission.value.status}」にしました。`);
    }
    default:
      return data<SettingsActionData>(
        {
          intent,
          target: null,
          reply: { status: "error", error: { "": ["不明な操作です。ページを再読み込みしてください。"] } },
        },
        { status: 400 },
      );
  }
}

export default function ContestSettings() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const resultFor = (intent: string, target: number | null = null) =>
    actionData && actionData.intent === intent && actionData.target === target ? actionData.reply : null;
  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <div className="grid gap-6">
        <BasicInfoSection contest={loaded.contest} lastResult={resultFor("basic")} />
        <PublicationSection
          key={`${loaded.contest.sitePublicStatus}-${loaded.contest.scheduledPublishDate}`}
          contest={loaded.contest}
          minScheduleInput={loaded.minScheduleInput}
          lastResult={resultFor("publication")}
        />
        <PriceDescriptionSection
          key={JSON.stringify(loaded.priceDescription)}
          description={loaded.priceDescription}
          lastResult={resultFor("price")}
        />
      </div>
      <div className="grid gap-6">
        <CategoriesSection
          categories={loaded.categories}
          lastResult={resultFor("category-add")}
          deleteResult={resultFor("category-delete")}
        />
        <FormatsSection
          formats={loaded.formats}
          addResult={resultFor("format-add")}
          listResult={resultFor("format-delete") ?? resultFor("format-move")}
          renameResult={(id) => resultFor("format-rename", id)}
        />
      </div>
    </div>
  );
}
