import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/schemas/parse-form";
import type { ZodTypeAny } from "zod";
import { positiveId } from "~/lib/rules/params";
import {
  accessSchema,
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
import { now } from "../core/clock.server";
import type { contests } from "../db/schema";
import {
  addCategory,
  addFormat,
  contestSettings,
  deleteCategory,
  deleteFormat,
  moveFormat,
  renameFormat,
  saveAccessSettings,
  savePriceDescription,
  updateBasicInfo,
  type SettingsResult,
} from "./contest-settings.server";
import { setPublication } from "./publication.server";

/**
 * The 大会設定 tab's page and posts. Each form of the tab posts its own intent; each intent is a
 * named step that reads its form with the schema the page checks with and answers either a
 * refusal (4xx, with which form and row it was, so the mistake stays beside its field) or what
 * was saved, for the toast on the way back to the form's section.
 */

/** What the settings action answers when a form needs correcting: which form (and which row) it was. */
export type SettingsActionData = { intent: string; target: number | null; reply: SubmissionResult<string[]> };

export type SettingsTabOutcome =
  | { saved: false; status: 400 | 404 | 409; data: SettingsActionData }
  | { saved: true; section: string; description: string };

/** What the tab shows: the contest's own fields as the forms edit them, and its settings. */
export function settingsTabPage(
  contest: Pick<
    typeof contests.$inferSelect,
    | "id"
    | "name"
    | "bibNumberLabel"
    | "sitePublicStatus"
    | "scheduledPublishDate"
    | "accessCode"
    | "namesHidden"
  >,
) {
  return {
    contest: {
      id: contest.id,
      name: contest.name,
      bibNumberLabel: contest.bibNumberLabel,
      sitePublicStatus: contest.sitePublicStatus,
      scheduledPublishDate: contest.scheduledPublishDate
        ? toTokyoDateTimeInput(contest.scheduledPublishDate)
        : "",
      accessCode: contest.accessCode ?? "",
      namesHidden: contest.namesHidden,
    },
    ...contestSettings(contest.id),
    // The earliest time 公開予約 may choose (past times are disabled in the picker too).
    minScheduleInput: toTokyoDateTimeInput(now()),
  };
}

export function settingsTabStep(contestId: number, form: FormData): SettingsTabOutcome {
  const intent = String(form.get("intent") ?? "");
  // Own keys only: an intent such as "toString" must not find Object's methods.
  const step = Object.hasOwn(STEPS, intent) ? STEPS[intent] : undefined;
  if (!step)
    return refused(intent, {
      status: "error",
      error: { "": ["不明な操作です。ページを再読み込みしてください。"] },
    });
  return step(contestId, form, intent);
}

type Step = (contestId: number, form: FormData, intent: string) => SettingsTabOutcome;

const STEPS: Record<string, Step> = {
  basic: (contestId, form, intent) =>
    nameStep(form, intent, basicInfoSchema, (value) => updateBasicInfo(contestId, value), {
      section: "basic",
      description: () => "大会名と番号欄の名前を保存しました。",
    }),
  "category-add": (contestId, form, intent) =>
    nameStep(form, intent, categoryAddSchema, (value) => addCategory(contestId, value.name), {
      section: "categories",
      description: (value) => `部門「${value.name}」を追加しました。`,
    }),
  "category-delete": deleteCategoryStep,
  "format-add": (contestId, form, intent) =>
    nameStep(form, intent, formatAddSchema, (value) => addFormat(contestId, value.name), {
      section: "formats",
      description: (value) => `動画形式「${value.name}」を追加しました。`,
    }),
  "format-rename": (contestId, form, intent) =>
    nameStep(
      form,
      intent,
      formatRenameSchema,
      (value) => renameFormat(contestId, value.formatId, value.name),
      {
        section: "formats",
        description: (value) => `動画形式の名前を「${value.name}」に変更しました。`,
      },
      // The row the mistake belongs to, even when the post is refused before its id is read.
      positiveId(form.get("formatId")) ?? undefined,
    ),
  "format-delete": formatListStep,
  "format-move": formatListStep,
  price: priceStep,
  publication: publicationStep,
  access: accessStep,
};

function refused(
  intent: string,
  reply: SubmissionResult<string[]>,
  status: 400 | 404 | 409 = 400,
  target?: number,
): SettingsTabOutcome {
  return { saved: false, status, data: { intent, target: target ?? null, reply } };
}

/** What a parsed form can answer with: conform's reply, with the rule's message added. */
type Submission = {
  reply: (options?: {
    fieldErrors?: Record<string, string[]>;
    formErrors?: string[];
  }) => SubmissionResult<string[]>;
};

/** A rule's refusal: under the name field when it is about the name, else for the whole form (409). */
function ruleRefusal(
  submission: Submission,
  intent: string,
  result: SettingsResult,
  target?: number,
): SettingsTabOutcome | null {
  if (result.ok) return null;
  const reply =
    result.field === "name"
      ? submission.reply({ fieldErrors: { name: [result.message] } })
      : submission.reply({ formErrors: [result.message] });
  return refused(intent, reply, 409, target);
}

/** A form whose rule may refuse its name (basic info, category and format names): parse, apply, report. */
function nameStep<Schema extends ZodTypeAny>(
  form: FormData,
  intent: string,
  schema: Schema,
  apply: (value: Schema["_output"]) => SettingsResult,
  done: { section: string; description: (value: Schema["_output"]) => string },
  target?: number,
): SettingsTabOutcome {
  const submission = parseForm(form, { schema });
  if (submission.status !== "success") return refused(intent, submission.reply(), 400, target);
  const refusal = ruleRefusal(submission, intent, apply(submission.value), target);
  if (refusal) return refusal;
  return { saved: true, section: done.section, description: done.description(submission.value) };
}

/** A category goes; its athletes become 未分類, which the toast says. */
function deleteCategoryStep(contestId: number, form: FormData, intent: string): SettingsTabOutcome {
  const submission = parseForm(form, { schema: categoryDeleteSchema });
  const notFound = () => submission.reply({ formErrors: ["部門が見つかりません"] });
  if (submission.status !== "success") return refused(intent, notFound());
  const result = deleteCategory(contestId, submission.value.categoryId);
  if (!result.ok) return refused(intent, notFound(), 404);
  const moved =
    result.movedAthletes > 0 ? `この部門の選手${result.movedAthletes}人は未分類になりました。` : "";
  return {
    saved: true,
    section: "categories",
    description: `部門「${result.name}」を削除しました。${moved}`,
  };
}

/** 削除 and 上へ / 下へ of a format: errors are the list's, above it. */
function formatListStep(contestId: number, form: FormData, intent: string): SettingsTabOutcome {
  const submission = parseForm(form, {
    schema: intent === "format-delete" ? formatDeleteSchema : formatMoveSchema,
  });
  if (submission.status !== "success")
    return refused(intent, submission.reply({ formErrors: ["動画形式が見つかりません"] }));
  const value = submission.value;
  const result =
    value.intent === "format-delete"
      ? deleteFormat(contestId, value.formatId)
      : moveFormat(contestId, value.formatId, value.direction);
  const refusal = ruleRefusal(submission, intent, result);
  if (refusal) return refusal;
  return {
    saved: true,
    section: "formats",
    description:
      value.intent === "format-delete" ? "動画形式を削除しました。" : "動画形式の順番を変更しました。",
  };
}

/** 料金説明: the filled rows, in order, and the notes. */
function priceStep(contestId: number, form: FormData, intent: string): SettingsTabOutcome {
  const submission = parseForm(form, { schema: priceDescriptionSchema });
  if (submission.status !== "success") return refused(intent, submission.reply());
  savePriceDescription(contestId, filledPriceItems(submission.value.items), submission.value.notes);
  return { saved: true, section: "price", description: "料金説明を保存しました。" };
}

/** 公開設定, 公開予約 checked against the server's clock. */
function publicationStep(contestId: number, form: FormData, intent: string): SettingsTabOutcome {
  const submission = parseForm(form, { schema: publicationSchema(now()) });
  if (submission.status !== "success") return refused(intent, submission.reply());
  setPublication(contestId, submission.value);
  return {
    saved: true,
    section: "publication",
    description: `公開設定を「${submission.value.status}」にしました。`,
  };
}

/** 合言葉と選手名: the code (empty removes it) and whether names are shown. */
function accessStep(contestId: number, form: FormData, intent: string): SettingsTabOutcome {
  const submission = parseForm(form, { schema: accessSchema });
  if (submission.status !== "success") return refused(intent, submission.reply());
  saveAccessSettings(contestId, submission.value);
  const { accessCode, namesHidden } = submission.value;
  const code = accessCode ? `合言葉「${accessCode}」を設定しました。` : "合言葉なしにしました。";
  return {
    saved: true,
    section: "access",
    description: `${code}${namesHidden ? "注文フォームには番号のみ表示します。" : ""}`,
  };
}
