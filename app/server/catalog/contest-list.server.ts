import { asc, eq } from "drizzle-orm";
import { db } from "../db/client.server";
import { contests } from "../db/schema";

export type AdminContestRow = {
  id: number;
  name: string;
  videoPublished: boolean;
  photoPublished: boolean;
  sitePublicStatus: string;
};

export function listContestsForAdmin(): AdminContestRow[] {
  return db()
    .select({
      id: contests.id,
      name: contests.name,
      videoPublished: contests.videoPublished,
      photoPublished: contests.photoPublished,
      sitePublicStatus: contests.sitePublicStatus,
    })
    .from(contests)
    .orderBy(asc(contests.id))
    .all();
}

export function findContest(id: number) {
  return db().select().from(contests).where(eq(contests.id, id)).get() ?? null;
}
