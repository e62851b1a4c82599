import {
  BULK_UPDATE_FIELDS,
  bulkAthletesSchema,
  IS_DELETED_ALONE,
  isDeletedField,
  UNCATEGORISED,
  type BulkAthletesInput,
} from "~/lib/schemas/athlete-schemas";
import type { athletes } from "../db/schema";
import { apiError, parseApiInput } from "../http/json-api.server";
import type { AthleteChangeResult } from "./athlete-edits.server";

/**
 * The JSON API's side of the athletes (docs/api.md "Athletes"): how an athlete is answered, and
 * how the spec's bodies (`athleteIds`, `updates`) become the contest editor's own inputs, so
 * the calls run the screen's schemas and domain functions (athletes, athlete-edits and
 * athlete-bulk .server.ts) unchanged.
 */

/** An athlete with the spec's fields; an empty category reads 未分類, as everywhere in the shop. */
export function athleteAnswer(row: typeof athletes.$inferSelect) {
  return {
    id: row.id,
    contestId: row.contestId,
    athleteNumber: row.athleteNumber,
    name: row.name,
    category: row.category || UNCATEGORISED,
    videoStatus: row.videoStatus,
    photoStatus: row.photoStatus,
    verticalVideoPrice: row.verticalVideoPrice,
    horizontalVideoPrice: row.horizontalVideoPrice,
    isDeleted: row.isDeleted,
  };
}

/**
 * A refusal of the domain as an answer: one tied to a field (a number in use, a category the
 * contest lacks, a legacy status) is a 422 with the screen's message under that field; the
 * others keep their status (404 not this contest's or already deleted, 409 a restore's clash).
 */
export function refusalAnswer(result: Extract<AthleteChangeResult, { ok: false }>): Response {
  if (result.field) return apiError(422, result.message, { fields: { [result.field]: [result.message] } });
  return apiError(result.status, result.message);
}

/** The bulk schema's paths as the API names them: the form's `ids` is the spec's `athleteIds`. */
const BULK_NAMES: Record<string, string> = {
  ids: "athleteIds",
  "": "updates",
  ...Object.fromEntries(BULK_UPDATE_FIELDS.map((field) => [field, `updates.${field}`])),
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function invalid(field: string, message: string): Response {
  return apiError(422, message, { fields: { [field]: [message] } });
}

/**
 * `{ athleteIds, updates }` as the bulk bar's input: prices and sales statuses are 一括更新,
 * `isDeleted: true` alone is 削除 and `isDeleted: false` alone is 復元. A field the bar cannot
 * set for many athletes at once (a name, a number) is refused rather than silently dropped.
 */
export function bulkUpdateInput(body: Record<string, unknown>): BulkAthletesInput {
  const updates = body.updates ?? {};
  if (!isPlainObject(updates))
    throw invalid("updates", "updates は項目と値の組（オブジェクト）で送ってください");
  const { isDeleted, ...changes } = updates;
  const unknown = Object.keys(changes).find(
    (field) => !(BULK_UPDATE_FIELDS as readonly string[]).includes(field),
  );
  if (unknown !== undefined)
    throw invalid(`updates.${unknown}`, "一括で変更できるのは価格・ステータス・削除（isDeleted）だけです");
  let intent: BulkAthletesInput["intent"] = "bulk-update";
  if (isDeleted !== undefined) {
    const flag = parseApiInput(isDeletedField, isDeleted, { "": "updates.isDeleted" });
    if (Object.keys(changes).length > 0) throw invalid("updates.isDeleted", IS_DELETED_ALONE);
    intent = flag ? "bulk-delete" : "bulk-restore";
  }
  return parseApiInput(bulkAthletesSchema, { ...changes, intent, ids: body.athleteIds }, BULK_NAMES);
}

/**
 * `{ athleteIds }` as the bar's 完全に削除. The call itself is the confirmation the screen
 * asks for (its name says permanent), so the form's confirm box is answered here.
 */
export function bulkPurgeIds(body: Record<string, unknown>): number[] {
  return parseApiInput(
    bulkAthletesSchema,
    { intent: "bulk-purge", ids: body.athleteIds, confirm: "yes" },
    BULK_NAMES,
  ).ids;
}
