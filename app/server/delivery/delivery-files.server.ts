import fsp from "node:fs/promises";
import { and, count, eq, isNull } from "drizzle-orm";
import { formatBytes } from "~/lib/rules/format";
import type { Orientation } from "~/lib/rules/pricing";
import { now } from "../core/clock.server";
import { env } from "../core/env.server";
import { db, type Tx } from "../db/client.server";
import { athletes, deliveryFiles, orderLines } from "../db/schema";
import { CONTENT_TYPES, readHead, sniffVideo } from "../core/sniff.server";
import { spoolMultipartForm } from "../files/multipart.server";
import { cleanFileName, newStoredName, removeStoredFiles } from "../files/storage.server";
import { fileStore } from "../files/store.server";
import type { VideoProbe } from "~/lib/rules/video-versions";
import { dropJobsOf, queueMediaJobs } from "../media/jobs/queue.server";
import { checkUploadedVideo, notPlayableMessage } from "../media/probe.server";
import { deliveryPlan } from "./delivery-plan.server";

export type DeliveryFile = typeof deliveryFiles.$inferSelect;
export type DeliveryFileFailure = { ok: false; status: 400 | 404 | 409 | 413 | 415; message: string };

export const DELIVERY_FILE_MESSAGES = {
  noFile: "納品する動画ファイルを選択してください",
  unreadable: "送信内容を読み取れませんでした。もう一度お試しください。",
  notFound: "ファイルが見つかりません。画面を再読み込みしてください。",
  delivered:
    "納品済みのファイルは削除できません。差し替える場合は、正しいファイルをアップロードしてください。",
} as const;

const fail = (status: DeliveryFileFailure["status"], message: string): DeliveryFileFailure => ({
  ok: false,
  status,
  message,
});

/** A file of the plain form that was not kept, and why (the message names it). */
export type RefusedFile = { name: string; message: string };

type DeliveryMatch = { athleteId: number; orientation: Orientation } | null;

/**
 * Turns a complete file on this server's disk (a part of the plain form) into a delivery file of
 * the contest: its bytes must be a video; it is stored under a name the shop chooses. `match` is
 * an athlete and style already known (a replacement keeps the one it replaces). The file is
 * removed when it is refused.
 */
export async function storeDeliveryFile(
  contestId: number,
  file: string,
  originalName: string,
  match: DeliveryMatch = null,
): Promise<{ ok: true; file: DeliveryFile } | DeliveryFileFailure> {
  const refuse = async (message: string) => {
    await fsp.rm(file, { force: true });
    return fail(415, message);
  };
  const kind = sniffVideo(readHead(file));
  // No video's first bytes: refused in the words ffprobe's refusal uses, naming the file.
  if (!kind) return refuse(notPlayableMessage(cleanFileName(originalName)));
  // The first bytes say what a file claims to be; ffprobe reads, as that kind, whether it is a
  // video that plays.
  const checked = await checkUploadedVideo({ source: file, kind }, cleanFileName(originalName));
  if (!checked.ok) return refuse(checked.message);
  const { video } = checked;
  const size = (await fsp.stat(file)).size;
  const storedName = newStoredName("delivery", kind);
  await (await fileStore()).putFile(storedName, file, CONTENT_TYPES[kind], "private");
  return {
    ok: true,
    file: recordDeliveryFile(
      contestId,
      { storedName, contentType: CONTENT_TYPES[kind], size, video },
      originalName,
      match,
    ),
  };
}

/**
 * The row of a video already stored and probed (a finished chunked upload, or storeDeliveryFile's),
 * with its poster and phone version queued in the same transaction.
 */
export function recordDeliveryFile(
  contestId: number,
  stored: { storedName: string; contentType: string; size: number; video: VideoProbe },
  originalName: string,
  match: DeliveryMatch = null,
): DeliveryFile {
  return db().transaction((tx) => {
    const file = tx
      .insert(deliveryFiles)
      .values({
        contestId,
        ...stored,
        originalName: cleanFileName(originalName),
        athleteId: match?.athleteId ?? null,
        orientation: match?.orientation ?? null,
        uploadedAt: now(),
      })
      .returning()
      .get();
    queueMediaJobs("delivery", file.id, ["poster", "phone"], tx);
    return file;
  });
}

/**
 * The 納品ファイル tab's plain form (JavaScript off): one or several `files` parts, each
 * streamed to disk within the upload limit, then checked and stored as above. A file that
 * is not a video is refused with its reason, which names it; the others are kept.
 */
export async function receiveDeliveryForm(
  contestId: number,
  request: Request,
  match: DeliveryMatch = null,
): Promise<
  { ok: true; stored: DeliveryFile[]; refused: RefusedFile[]; fields: FormData } | DeliveryFileFailure
> {
  const limit = env().MAX_UPLOAD_BYTES;
  const spooled = await spoolMultipartForm(request, {
    directory: (await fileStore()).scratchDir(),
    isFile: (part) => part.name === "files",
    storedName: () => newStoredName("delivery", "upload"),
    maxFileBytes: limit,
    maxFieldBytes: 4 * 1024,
  });
  if (!spooled.ok) {
    if (spooled.reason === "no-room") return fail(413, spooled.refusal.message);
    return spooled.reason === "too-large"
      ? fail(413, `ファイルが大きすぎます（1 ファイル ${formatBytes(limit)} まで）`)
      : fail(400, DELIVERY_FILE_MESSAGES.unreadable);
  }
  const stored: DeliveryFile[] = [];
  const refused: RefusedFile[] = [];
  for (const part of spooled.files) {
    // An empty file input sends one empty part.
    if (part.size === 0) {
      await fsp.rm(part.path, { force: true });
      continue;
    }
    const result = await storeDeliveryFile(contestId, part.path, part.fileName, match);
    if (result.ok) stored.push(result.file);
    else refused.push({ name: cleanFileName(part.fileName), message: result.message });
  }
  if (stored.length === 0 && refused.length === 0) return fail(400, DELIVERY_FILE_MESSAGES.noFile);
  return { ok: true, stored, refused, fields: spooled.fields };
}

/** A file of the contest's pool (not retired), or null. */
export function poolFile(contestId: number, fileId: number): DeliveryFile | null {
  return (
    db()
      .select()
      .from(deliveryFiles)
      .where(
        and(
          eq(deliveryFiles.id, fileId),
          eq(deliveryFiles.contestId, contestId),
          isNull(deliveryFiles.retiredAt),
        ),
      )
      .get() ?? null
  );
}

/** How many order lines a file serves: none means it is still waiting for 一括納品. */
export function linesServedBy(fileId: number): number {
  return (
    db().select({ n: count() }).from(orderLines).where(eq(orderLines.deliveryFileId, fileId)).get()?.n ?? 0
  );
}

/**
 * Removes a file that serves no order line yet (a wrong upload), with its poster, phone version
 * and jobs; a delivered one is replaced instead.
 */
export async function removeWaitingFile(
  contestId: number,
  fileId: number,
): Promise<{ ok: true } | DeliveryFileFailure> {
  const file = poolFile(contestId, fileId);
  if (!file) return fail(404, DELIVERY_FILE_MESSAGES.notFound);
  if (linesServedBy(file.id) > 0) return fail(409, DELIVERY_FILE_MESSAGES.delivered);
  db().transaction((tx) => {
    tx.delete(deliveryFiles).where(eq(deliveryFiles.id, file.id)).run();
    dropJobsOf("delivery", [file.id], tx);
  });
  await removeStoredFiles(file.storedName, file.posterStoredName, file.phoneStoredName);
  return { ok: true };
}

export type HandMatch = { athleteNumber: number; orientation: Orientation } | null;

/**
 * The admin's own match for a waiting file (null: back to matching by its name). The number
 * is the athlete's as the contest shows it; a deleted athlete cannot be chosen.
 */
export function matchFileByHand(
  contestId: number,
  fileId: number,
  match: HandMatch,
  numberLabel: string,
): { ok: true } | DeliveryFileFailure {
  const file = poolFile(contestId, fileId);
  if (!file) return fail(404, DELIVERY_FILE_MESSAGES.notFound);
  if (linesServedBy(file.id) > 0)
    return fail(
      409,
      "納品済みのファイルの割り当ては変えられません。正しいファイルをアップロードすると差し替えられます。",
    );
  let athleteId: number | null = null;
  if (match) {
    const athlete = db()
      .select({ id: athletes.id })
      .from(athletes)
      .where(
        and(
          eq(athletes.contestId, contestId),
          eq(athletes.athleteNumber, match.athleteNumber),
          eq(athletes.isDeleted, false),
        ),
      )
      .get();
    if (!athlete) return fail(400, `${numberLabel} ${match.athleteNumber} の選手がいません`);
    athleteId = athlete.id;
  }
  db()
    .update(deliveryFiles)
    .set({ athleteId, orientation: match?.orientation ?? null })
    .where(eq(deliveryFiles.id, file.id))
    .run();
  return { ok: true };
}

/** Files replaced, removed or past their pages' expiry leave the pool; the order lines they serve keep them. */
export function retireFile(tx: Tx, fileId: number, at: Date): void {
  tx.update(deliveryFiles).set({ retiredAt: at }).where(eq(deliveryFiles.id, fileId)).run();
}

/** What the media API answers for a finished delivery upload. */
export function toDeliveryFileJson(file: DeliveryFile) {
  return {
    id: file.id,
    contestId: file.contestId,
    originalName: file.originalName,
    contentType: file.contentType,
    size: file.size,
    uploadedAt: file.uploadedAt.toISOString(),
  };
}

/**
 * 差し替え: a corrected video for a file of the pool keeps that file's athlete and style. A
 * waiting file is simply swapped; a delivered one stays in place until 一括納品 hands its order
 * lines to the new file (so the customers' page changes when the admin says so).
 */
export async function replaceFile(
  contestId: number,
  fileId: number,
  request: Request,
): Promise<{ ok: true; file: DeliveryFile; delivered: boolean } | DeliveryFileFailure> {
  const old = poolFile(contestId, fileId);
  if (!old) return fail(404, DELIVERY_FILE_MESSAGES.notFound);
  const delivered = linesServedBy(old.id) > 0;
  const match =
    old.athleteId !== null && old.orientation !== null
      ? { athleteId: old.athleteId, orientation: old.orientation }
      : matchedKeyOf(contestId, old.id);
  const received = await receiveDeliveryForm(contestId, request, match);
  if (!received.ok) return received;
  const [file, ...extra] = received.stored;
  for (const more of extra) await removeWaitingFile(contestId, more.id);
  // Nothing stored means the one file sent was refused: say why, as the upload does.
  if (!file) return fail(415, received.refused[0]?.message ?? DELIVERY_FILE_MESSAGES.noFile);
  if (!delivered) await removeWaitingFile(contestId, old.id);
  return { ok: true, file, delivered };
}

/** The athlete and style a waiting file's name matched, if it matched one for sure. */
function matchedKeyOf(contestId: number, fileId: number) {
  const match = deliveryPlan(contestId)?.waiting.find((file) => file.id === fileId)?.match;
  return match?.kind === "matched" ? { athleteId: match.athleteId, orientation: match.orientation } : null;
}
