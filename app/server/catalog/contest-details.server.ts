import { asc, eq } from "drizzle-orm";
import { db } from "../db/client.server";
import { contests } from "../db/schema";
import { newestCovers } from "./contests.server";

/**
 * A contest as the back-office sees it, every setting of the contests table (the JSON API's
 * admin answer): the storefront's view of a contest is `listStorefrontContests`.
 */
export type ContestDetails = {
  id: number;
  name: string;
  date: string;
  location: string;
  videoPublished: boolean;
  photoPublished: boolean;
  sitePublicStatus: string;
  scheduledPublishDate: Date | null;
  bibNumberLabel: string;
  /** The newest cover image, as the storefront shows it (960 pixels wide). */
  coverImage: string | null;
  createdAt: Date;
  updatedAt: Date | null;
};

const columns = {
  id: contests.id,
  name: contests.name,
  date: contests.date,
  location: contests.location,
  videoPublished: contests.videoPublished,
  photoPublished: contests.photoPublished,
  sitePublicStatus: contests.sitePublicStatus,
  scheduledPublishDate: contests.scheduledPublishDate,
  bibNumberLabel: contests.bibNumberLabel,
  createdAt: contests.createdAt,
  updatedAt: contests.updatedAt,
};

function withCovers(rows: Omit<ContestDetails, "coverImage">[]): ContestDetails[] {
  const covers = newestCovers(rows.map((row) => row.id));
  return rows.map((row) => ({ ...row, coverImage: covers.get(row.id)?.src ?? null }));
}

/** Every contest, in the order of 大会管理's table (oldest first), published or not. */
export function listContestDetails(): ContestDetails[] {
  return withCovers(db().select(columns).from(contests).orderBy(asc(contests.id)).all());
}

export function contestDetails(id: number): ContestDetails | null {
  const row = db().select(columns).from(contests).where(eq(contests.id, id)).get();
  return row ? (withCovers([row])[0] ?? null) : null;
}
