import { contestFlagsSchema } from "~/lib/schemas/contest-schemas";
import {
  basicInfoSchema,
  publicationSchema,
  toTokyoDateTimeInput,
} from "~/lib/schemas/contest-settings-schemas";
import { positiveId } from "~/lib/rules/params";
import { requireApiAdmin } from "../auth/tokens/api-access.server";
import { now } from "../core/clock.server";
import { apiError, parseApiInput } from "../http/json-api.server";
import { findContest } from "./contest-list.server";
import { updateBasicInfo } from "./contest-settings.server";
import { setPhotoPublished, setPublication } from "./publication.server";

/**
 * The JSON API's doors onto a contest's settings (docs/api.md, "Contests" and "Categories,
 * video formats and the price description"): the same guard as every admin call, and PATCH's
 * field sets read with the 大会設定 tab's schemas and applied by its domain functions.
 */

export type Contest = NonNullable<ReturnType<typeof findContest>>;

/**
 * An admin (401 otherwise; a read-only API token only reads) and the contest the path names
 * (404, with the editor's 大会が見つかりません). The admin is checked first, so nobody else
 * learns which ids exist.
 */
export async function requireApiContest(request: Request, params: { id?: string }): Promise<Contest> {
  await requireApiAdmin(request);
  const id = positiveId(params.id);
  const contest = id ? findContest(id) : null;
  if (!contest) throw apiError(404, `大会が見つかりません (${params.id ?? ""})`);
  return contest;
}

/**
 * A name a settings rule refused (another contest's address, a category's or format's name
 * already in use): 409 with the screen's message under its field.
 */
export function nameRefused(refusal: { field: string; message: string }): Response {
  return apiError(409, refusal.message, { fields: { [refusal.field]: [refusal.message] } });
}

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Whether the written date and time exist (JavaScript reads 2月30日 as 3月2日, 24:00 as the next day). */
function isCalendarTime(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour <= 23 && minute <= 59;
}

/**
 * The API's scheduledPublishDate (ISO 8601 with its zone, as every time of the API) as the
 * 公開予約 field would hold it: Tokyo time to the minute, which publicationSchema reads. A
 * value without a zone is taken as the field's own (Tokyo) text; anything else is passed on
 * for the schema to refuse with the screen's message.
 */
function scheduleInput(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  const match = ISO_INSTANT.exec(text);
  if (match && isCalendarTime(match)) {
    const at = new Date(text);
    if (!Number.isNaN(at.getTime())) return toTokyoDateTimeInput(at);
  }
  return text;
}

const VIDEO_MATCHES_STATUS =
  "videoPublished は公開設定（sitePublicStatus）が「公開」のとき true、それ以外は false です";

/**
 * PATCH /api/video/contests/{id}: any of the spec's field sets, each by its screen's rule.
 * name and bibNumberLabel are 基本情報 (a field left out keeps its value); sitePublicStatus
 * and scheduledPublishDate are 公開設定, and videoPublished alone is the list's 動画 switch
 * (true is 公開, false 非公開); photoPublished is the 写真 switch. Everything is checked before
 * anything is written, and a name another contest's URL has is refused (409) before any change.
 * An empty body changes nothing.
 */
export function patchContest(contest: Contest, body: Record<string, unknown>): void {
  const given = (key: string) => body[key] !== undefined;
  const flags = parseApiInput(contestFlagsSchema, {
    videoPublished: body.videoPublished,
    photoPublished: body.photoPublished,
  });
  const basic =
    given("name") || given("bibNumberLabel")
      ? parseApiInput(basicInfoSchema, {
          intent: "basic",
          name: given("name") ? body.name : contest.name,
          bibNumberLabel: given("bibNumberLabel") ? body.bibNumberLabel : contest.bibNumberLabel,
        })
      : null;

  const scheduledAt = scheduleInput(body.scheduledPublishDate);
  let publication: ReturnType<typeof parsePublication> | null = null;
  if (given("sitePublicStatus") || flags.videoPublished !== undefined || scheduledAt !== undefined) {
    const status = given("sitePublicStatus")
      ? body.sitePublicStatus
      : flags.videoPublished !== undefined
        ? flags.videoPublished
          ? "公開"
          : "非公開"
        : contest.sitePublicStatus;
    const stored =
      contest.scheduledPublishDate === null ? undefined : toTokyoDateTimeInput(contest.scheduledPublishDate);
    // The settings screen's client sends every field with a name change: a publication sent as
    // it is stored is left as it is, so a 公開予約 whose time has passed is not refused as past.
    const unchanged =
      status === contest.sitePublicStatus && (status !== "公開予約" || scheduledAt === stored);
    if (!unchanged) publication = parsePublication(status, scheduledAt);
    const effective = publication?.status ?? contest.sitePublicStatus;
    if (flags.videoPublished !== undefined && flags.videoPublished !== (effective === "公開"))
      throw apiError(422, VIDEO_MATCHES_STATUS, { fields: { videoPublished: [VIDEO_MATCHES_STATUS] } });
  }

  if (basic) {
    const saved = updateBasicInfo(contest.id, basic);
    if (!saved.ok) throw nameRefused(saved);
  }
  if (publication) setPublication(contest.id, publication);
  if (flags.photoPublished !== undefined) setPhotoPublished(contest.id, flags.photoPublished);
}

function parsePublication(status: unknown, scheduledAt: string | undefined) {
  return parseApiInput(
    publicationSchema(now()),
    { intent: "publication", status, scheduledAt },
    { status: "sitePublicStatus", scheduledAt: "scheduledPublishDate" },
  );
}
