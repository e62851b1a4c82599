import { describe, expect, it } from "vitest";
import { db } from "~/server/db/client.server";
import { contests, deliveryFiles, mediaItems } from "~/server/db/schema";
import { contestSamples, storefrontAudience } from "~/server/media/public-catalogue.server";

let n = 0;
function contest(onSale: boolean) {
  const name = `サンプル大会${++n}`;
  return db()
    .insert(contests)
    .values({ name, slugKey: `samples-${n}`, videoPublished: onSale })
    .returning()
    .get();
}

function media(
  contestId: number,
  values: Partial<typeof mediaItems.$inferInsert> & Pick<typeof mediaItems.$inferInsert, "category">,
) {
  const stored = `m-${contestId}-${++n}`;
  return db()
    .insert(mediaItems)
    .values({
      contestId,
      storedName: `${stored}.mp4`,
      originalName: "clip.mp4",
      mediaType: "video",
      contentType: "video/mp4",
      size: 1000,
      ...values,
    })
    .returning()
    .get();
}

describe("a contest's samples on its order form", () => {
  it("only that contest's サンプル media, in display order, and only while it is on sale", () => {
    const shown = contest(true);
    const other = contest(true);
    const hidden = contest(false);
    const second = media(shown.id, {
      category: "sample",
      displayOrder: 2,
      posterStoredName: `poster-${shown.id}.jpg`,
    });
    const first = media(shown.id, {
      category: "sample",
      displayOrder: 1,
      mediaType: "image",
      contentType: "image/jpeg",
      storedName: `img-${shown.id}.jpg`,
      width: 1600,
      height: 900,
    });
    media(shown.id, { category: "others" });
    media(shown.id, {
      category: "cover-image",
      mediaType: "image",
      contentType: "image/jpeg",
      storedName: `cover-${shown.id}.jpg`,
    });
    media(other.id, { category: "sample" });
    media(hidden.id, { category: "sample" });

    expect(contestSamples(shown.id)).toEqual([
      {
        id: first.id,
        kind: "image",
        url: `/media/img-${shown.id}.jpg`,
        thumbnailUrl: null,
        posterUrl: null,
        width: 1600,
        height: 900,
      },
      {
        id: second.id,
        kind: "video",
        url: `/media/${second.storedName}`,
        thumbnailUrl: null,
        // No thumbnail set by hand: the tile and the player show the video's poster frame.
        posterUrl: `/media/poster-${shown.id}.jpg`,
        width: null,
        height: null,
      },
    ]);
    expect(contestSamples(other.id)).toHaveLength(1);
    expect(contestSamples(hidden.id)).toEqual([]);
    expect(contestSamples(999_999)).toEqual([]);
  });
});

describe("a sample's poster on the storefront", () => {
  it("is served as its sample is: public while the contest is on sale, not at all otherwise", async () => {
    const visitor = new Request("http://shop.test/media/x");
    const shown = contest(true);
    const hidden = contest(false);
    media(shown.id, { category: "sample", posterStoredName: `poster-shown${shown.id}.jpg` });
    media(shown.id, { category: "others", posterStoredName: `poster-others${shown.id}.jpg` });
    media(hidden.id, { category: "sample", posterStoredName: `poster-hidden${hidden.id}.jpg` });
    // A delivered video's poster is private to the admin and the parent: never served from /media.
    db()
      .insert(deliveryFiles)
      .values({
        contestId: shown.id,
        storedName: `delivery-${shown.id}.mp4`,
        originalName: "1.mp4",
        contentType: "video/mp4",
        size: 1000,
        uploadedAt: new Date(),
        posterStoredName: `poster-delivery${shown.id}.jpg`,
      })
      .run();

    expect(await storefrontAudience(visitor, `poster-shown${shown.id}.jpg`)).toBe("public");
    expect(await storefrontAudience(visitor, `poster-others${shown.id}.jpg`)).toBeNull();
    expect(await storefrontAudience(visitor, `poster-hidden${hidden.id}.jpg`)).toBeNull();
    expect(await storefrontAudience(visitor, `poster-delivery${shown.id}.jpg`)).toBeNull();
  });
});
