import { eq, or } from "drizzle-orm";
import type { PublicationChoice } from "~/lib/schemas/contest-settings-schemas";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { contests } from "../db/schema";
import { findContest } from "./contest-list.server";
import type { SettingsResult } from "./contest-settings.server";

/**
 * Publication: whether the storefront shows a contest and sells it, and the changes the
 * back-office makes to that (公開設定 on the settings tab, the 動画 / 写真 toggles of the list).
 * Decided at request time from the stored state and the clock, so a 公開予約 contest opens on
 * the minute without a job to flip it.
 */

type PublicationState = {
  videoPublished: boolean;
  sitePublicStatus: string;
  scheduledPublishDate: Date | null;
};

/** A contest is on sale when videoPublished, or when it is 公開予約 and its time has passed. */
export function isOnSale(contest: PublicationState, at: Date): boolean {
  if (contest.videoPublished) return true;
  return (
    contest.sitePublicStatus === "公開予約" &&
    contest.scheduledPublishDate !== null &&
    contest.scheduledPublishDate <= at
  );
}

/** The home page lists contests on sale, and 公開予約 ones (with the time their sales start). */
function isListed(contest: PublicationState): boolean {
  return (
    contest.videoPublished ||
    (contest.sitePublicStatus === "公開予約" && contest.scheduledPublishDate !== null)
  );
}

/** The rows that may be listed, narrowed in SQL before `storefrontPublication` decides. */
export const mayBeListed = or(eq(contests.videoPublished, true), eq(contests.sitePublicStatus, "公開予約"));

/** How the storefront shows a contest at a time: not at all, on sale, or listed with the time sales start. */
export function storefrontPublication(
  contest: PublicationState,
  at: Date,
): { listed: false } | { listed: true; onSale: boolean; salesStartAt: Date | null } {
  if (!isListed(contest)) return { listed: false };
  const onSale = isOnSale(contest, at);
  return { listed: true, onSale, salesStartAt: onSale ? null : contest.scheduledPublishDate };
}

/**
 * 公開 opens sales now (videoPublished), 非公開 closes them, 公開予約 keeps them closed and
 * stores the time from which the storefront treats the contest as on sale (isOnSale).
 */
export function setPublication(contestId: number, choice: PublicationChoice): SettingsResult {
  db()
    .update(contests)
    .set({
      sitePublicStatus: choice.status,
      videoPublished: choice.status === "公開",
      scheduledPublishDate: choice.status === "公開予約" ? choice.scheduledAt : null,
      updatedAt: now(),
    })
    .where(eq(contests.id, contestId))
    .run();
  return { ok: true };
}

/** 動画 toggle: flips videoPublished and sets the site status to match (公開 / 非公開). */
export function toggleVideo(id: number): boolean {
  const contest = findContest(id);
  if (!contest) return false;
  const videoPublished = !contest.videoPublished;
  db()
    .update(contests)
    .set({ videoPublished, sitePublicStatus: videoPublished ? "公開" : "非公開", updatedAt: now() })
    .where(eq(contests.id, id))
    .run();
  return true;
}

/** 写真 toggle: flips only photoPublished. */
export function togglePhoto(id: number): boolean {
  const contest = findContest(id);
  if (!contest) return false;
  return setPhotoPublished(id, !contest.photoPublished);
}

/** 写真 公開中 / 非公開: photoPublished alone (photos are not sold, so nothing else follows it). */
export function setPhotoPublished(id: number, photoPublished: boolean): boolean {
  const result = db()
    .update(contests)
    .set({ photoPublished, updatedAt: now() })
    .where(eq(contests.id, id))
    .run();
  return result.changes > 0;
}
