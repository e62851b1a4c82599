import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/schemas/parse-form";
import {
  addAthletesSchema,
  athleteRowSchema,
  BULK_DONE,
  bulkAthletesSchema,
  singleAthleteSchema,
} from "~/lib/schemas/athlete-schemas";
import { positiveId } from "~/lib/rules/params";
import { applyBulk, applySingle } from "./athlete-bulk.server";
import { addAthletes, updateAthlete } from "./athlete-edits.server";

/**
 * The 選手管理 tab's posts, one named step per intent: 選手追加, a row's 保存, the bulk bar, and a
 * row's 削除 / 復元 / 完全に削除. Each reads its form with the schema the page checks with and
 * answers what the route sends back: a refusal (4xx, shown beside what was posted) or a change
 * done, with the toast a plain form post gets on its way back to the list.
 */

/** What the athlete tab's action answers a script (and, on bad input, a plain form post). */
export type AthleteActionResult = {
  kind: "add" | "row" | "bulk" | "single";
  ok: boolean;
  id?: number;
  ids?: number[];
  message?: string;
  reply?: SubmissionResult<string[]>;
};

export type AthleteTabOutcome =
  | { done: false; status: 400 | 404 | 409; result: AthleteActionResult }
  | {
      done: true;
      result: AthleteActionResult;
      toast: { title: string; description?: string };
      /** 選手追加 always goes back to the first page of the active list, where the new athletes are. */
      toFirstPage?: true;
    };

const SINGLE_DONE = {
  delete: { title: "削除完了", message: "選手を削除しました（削除済みから復元できます）。" },
  restore: { title: "復元完了", message: "選手を復元しました。" },
  purge: { title: "完全削除完了", message: "選手を完全に削除しました。" },
} as const;

/** The step the form's intent names; anything not add, update or bulk-… is a single row's. */
export function athleteTabStep(contestId: number, form: FormData): AthleteTabOutcome {
  const intent = String(form.get("intent") ?? "");
  if (intent === "add") return addStep(contestId, form);
  if (intent === "update") return saveRowStep(contestId, form);
  if (intent.startsWith("bulk-")) return bulkStep(contestId, form);
  return singleRowStep(contestId, form);
}

/** The first message a failed parse holds, wherever it stands (a field or the form). */
function firstError(error: Record<string, string[] | null> | null | undefined, fallback: string): string {
  return (
    Object.values(error ?? {})
      .flat()
      .filter(Boolean)[0] ?? fallback
  );
}

/** 選手追加: N athletes numbered after the contest's highest number. */
function addStep(contestId: number, form: FormData): AthleteTabOutcome {
  const submission = parseForm(form, { schema: addAthletesSchema });
  if (submission.status !== "success")
    return { done: false, status: 400, result: { kind: "add", ok: false, reply: submission.reply() } };
  const added = addAthletes(contestId, submission.value.count);
  return {
    done: true,
    result: { kind: "add", ok: true },
    toast: {
      title: "追加完了",
      description: `${submission.value.count}人の選手を追加しました（${added.first}〜${added.last}）。`,
    },
    toFirstPage: true,
  };
}

/** A row's 保存: a refusal of one field (a number another athlete has) stands under that field. */
function saveRowStep(contestId: number, form: FormData): AthleteTabOutcome {
  const submission = parseForm(form, { schema: athleteRowSchema });
  const id = positiveId(form.get("id")) ?? 0;
  if (submission.status !== "success")
    return {
      done: false,
      status: 400,
      result: {
        kind: "row",
        ok: false,
        id,
        message: "入力内容を確認してください。",
        reply: submission.reply(),
      },
    };
  const saved = updateAthlete(contestId, submission.value);
  if (!saved.ok) {
    const reply = submission.reply(
      saved.field ? { fieldErrors: { [saved.field]: [saved.message] } } : { formErrors: [saved.message] },
    );
    return {
      done: false,
      status: saved.status,
      result: { kind: "row", ok: false, id, message: saved.message, reply },
    };
  }
  const message = `${submission.value.name}を保存しました。`;
  return {
    done: true,
    result: { kind: "row", ok: true, id, message },
    toast: { title: "保存完了", description: message },
  };
}

/** The bulk bar: all of the selection changes or none of it. */
function bulkStep(contestId: number, form: FormData): AthleteTabOutcome {
  const submission = parseForm(form, { schema: bulkAthletesSchema });
  if (submission.status !== "success") {
    const message = firstError(submission.error, "入力内容を確認してください。");
    return {
      done: false,
      status: 400,
      result: { kind: "bulk", ok: false, message, reply: submission.reply() },
    };
  }
  const applied = applyBulk(contestId, submission.value);
  if (!applied.ok)
    return {
      done: false,
      status: applied.status,
      result: {
        kind: "bulk",
        ok: false,
        message: applied.message,
        reply: submission.reply({ formErrors: [applied.message] }),
      },
    };
  const message = BULK_DONE[submission.value.intent](applied.count);
  // The reply clears any earlier messages of the bulk form when scripts show this outcome.
  return {
    done: true,
    result: { kind: "bulk", ok: true, ids: submission.value.ids, message, reply: submission.reply() },
    toast: { title: "一括操作完了", description: message },
  };
}

/** A row's 削除 / 復元 / 完全に削除: the bulk rule with one id. */
function singleRowStep(contestId: number, form: FormData): AthleteTabOutcome {
  const submission = parseForm(form, { schema: singleAthleteSchema });
  if (submission.status !== "success") {
    const message = firstError(submission.error, "操作を選んでください");
    return {
      done: false,
      status: 400,
      result: { kind: "single", ok: false, id: positiveId(form.get("id")) ?? 0, message },
    };
  }
  const { intent, id } = submission.value;
  const applied = applySingle(contestId, intent, id);
  if (!applied.ok)
    return {
      done: false,
      status: applied.status,
      result: { kind: "single", ok: false, id, message: applied.message },
    };
  const { title, message } = SINGLE_DONE[intent];
  return {
    done: true,
    result: { kind: "single", ok: true, id, message },
    toast: { title, description: message },
  };
}
