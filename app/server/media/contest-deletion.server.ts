import { eq } from "drizzle-orm";
import { db } from "../db/client.server";
import { contests, mediaItems } from "../db/schema";
import { coverFileNames, removeStoredFiles } from "../files/storage.server";
import { dropJobsOf } from "./jobs/queue.server";

/**
 * Deletes a contest with its athletes, categories, formats and media files (posters too). Orders
 * stay: they carry their own copy of the contest name and prices (contest_id is set null).
 */
export async function deleteContest(id: number): Promise<boolean> {
  const media = db()
    .select({
      id: mediaItems.id,
      storedName: mediaItems.storedName,
      thumb: mediaItems.thumbnailStoredName,
      poster: mediaItems.posterStoredName,
      category: mediaItems.category,
    })
    .from(mediaItems)
    .where(eq(mediaItems.contestId, id))
    .all();
  const result = db().transaction((tx) => {
    // The media rows go with the contest (cascade); their jobs are named by id only.
    dropJobsOf(
      "sample",
      media.map((item) => item.id),
      tx,
    );
    return tx.delete(contests).where(eq(contests.id, id)).run();
  });
  if (result.changes === 0) return false;
  for (const item of media)
    await removeStoredFiles(
      ...(item.category === "cover-image" ? coverFileNames(item.storedName) : [item.storedName]),
      item.thumb,
      item.poster,
    );
  return true;
}
