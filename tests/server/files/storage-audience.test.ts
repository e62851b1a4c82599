// An unpublished contest's cover kept off the CDN, in both storage modes: run by the "local"
// vitest project and, against the fake S3, by the "s3" one (STORAGE_TESTS in vitest.config.ts).
// Delivered videos stored private: private-delivery-bucket.test.ts (the bucket alone keeps the
// header); storage:migrate's: tests/scripts/delivered-files-private.test.ts.
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { loader as publicMediaLoader } from "~/routes/storefront/media-file";
import { env } from "~/server/core/env.server";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { contests, mediaItems } from "~/server/db/schema";
import { coverFileNames } from "~/server/files/storage.server";
import { receiveCover } from "~/server/media/cover.server";

const MODE = process.env.SHOP_TEST_STORAGE === "s3" ? "s3" : "local";
const CDN = "https://media.example.jp";
// A CDN in front of the run's bucket; env() reads it on first use.
if (MODE === "s3") process.env.S3_PUBLIC_BASE_URL = CDN;

const PUBLIC = "public, max-age=31536000, immutable";

let contestId = 0;

beforeAll(() => {
  contestId = createContest("公開範囲テスト大会");
});

describe(`covers (${MODE})`, () => {
  async function uploadCover(): Promise<string> {
    const image = await sharp({
      create: { width: 1920, height: 1080, channels: 3, background: "#2e7d32" },
    })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.set("cover", new Blob([new Uint8Array(image)], { type: "image/jpeg" }), "表紙.jpg");
    const received = await receiveCover(
      new Request("http://shop.test/cover", { method: "POST", body: form }),
      contestId,
    );
    expect(received).toMatchObject({ ok: true });
    const row = db()
      .select()
      .from(mediaItems)
      .where(eq(mediaItems.contestId, contestId))
      .all()
      .find((item) => item.category === "cover-image");
    return row!.storedName;
  }

  const serve = (name: string) =>
    publicMediaLoader({
      request: new Request(`http://shop.test/media/${name}`),
      params: { name },
      context: {},
    });

  it("unpublished contest cover leaks through the CDN: until the contest is listed its cover and variants are a signed bucket URL kept by no cache, then the CDN's", async () => {
    const cover = await uploadCover();
    const names = coverFileNames(cover);
    for (const name of names) {
      const answer = await serve(name);
      if (MODE === "local") {
        expect(answer.status).toBe(200);
        expect(answer.headers.get("Cache-Control")).toBe("private, no-store");
        continue;
      }
      expect(answer.status).toBe(302);
      const location = new URL(answer.headers.get("Location") ?? "");
      expect(location.origin).not.toBe(CDN);
      expect(location.origin).toBe(new URL(env().S3!.endpoint!).origin);
      expect(location.searchParams.get("response-cache-control")).toBe("private, no-store");
      expect(answer.headers.get("Cache-Control")).toMatch(/^private/);
      // The bucket answers the signed URL with the bytes, not to be kept by a shared cache.
      const fetched = await fetch(location);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get("Cache-Control")).toBe("private, no-store");
    }

    db()
      .update(contests)
      .set({ videoPublished: true, sitePublicStatus: "公開" })
      .where(eq(contests.id, contestId))
      .run();
    for (const name of names) {
      const answer = await serve(name);
      if (MODE === "local") {
        expect(answer.status).toBe(200);
        expect(answer.headers.get("Cache-Control")).toBe(PUBLIC);
        continue;
      }
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe(`${CDN}/${env().S3!.prefix}${name}`);
    }
    db()
      .update(contests)
      .set({ videoPublished: false, sitePublicStatus: "非公開" })
      .where(eq(contests.id, contestId))
      .run();
  });
});
