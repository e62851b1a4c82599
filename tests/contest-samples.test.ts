import { describe, expect, it } from "vitest";
import { db } from "~/server/db/client.server";
import { contests, mediaItems } from "~/server/db/schema";
import { contestSamples } from "~/server/media/public-catalogue.server";

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
    const second = media(shown.id, { category: "sample", displayOrder: 2 });
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
        width: 1600,
        height: 900,
      },
      {
        id: second.id,
        kind: "video",
        url: `/media/${second.storedName}`,
        thumbnailUrl: null,
        width: null,
        height: null,
      },
    ]);
    expect(contestSamples(other.id)).toHaveLength(1);
    expect(contestSamples(hidden.id)).toEqual([]);
    expect(contestSamples(999_999)).toEqual([]);
  });
});
