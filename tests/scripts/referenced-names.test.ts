import { describe, expect, it } from "vitest";
import { env } from "~/server/core/env.server";
import { db } from "~/server/db/client.server";
import { contests, deliveryFiles, mediaItems } from "~/server/db/schema";
import { referencedNames } from "../../scripts/storage-migrate-lib";

/**
 * What a restore checks the bucket for and `storage:migrate` for MEDIA_DIR (scripts/bucket-manifest.ts,
 * storage-migrate-lib.ts): every file the database names, the videos' posters and phone
 * versions among them, else a restore would call a bucket whole that lacks them.
 */
describe("the files a database names", () => {
  it("are the media with their thumbnails and posters, and each live delivery file with its poster and phone version", () => {
    const contest = db().insert(contests).values({ name: "名前の大会", slugKey: "namae" }).returning().get();
    db()
      .insert(mediaItems)
      .values({
        contestId: contest.id,
        storedName: "sample-1.mp4",
        originalName: "sample.mp4",
        mediaType: "video",
        contentType: "video/mp4",
        size: 10,
        thumbnailStoredName: "thumb-1.webp",
        posterStoredName: "poster-1.jpg",
      })
      .run();
    const common = { contestId: contest.id, originalName: "1_縦.mp4", contentType: "video/mp4", size: 10 };
    db()
      .insert(deliveryFiles)
      .values([
        {
          ...common,
          storedName: "delivery-1.mp4",
          posterStoredName: "poster-2.jpg",
          phoneStoredName: "phone-1.mp4",
          uploadedAt: new Date(),
        },
        { ...common, storedName: "delivery-2.mp4", uploadedAt: new Date(), deletedAt: new Date() },
      ])
      .run();
    expect(referencedNames(env().DATABASE_PATH)).toEqual(
      [
        "delivery-1.mp4",
        "phone-1.mp4",
        "poster-1.jpg",
        "poster-2.jpg",
        "sample-1.mp4",
        "thumb-1.webp",
      ].sort(),
    );
  });
});
