// The family link: a watch-only page of an order's phone versions, made and revoked on the
// download page, ending with it; opening it counts a view, watching never counts a download.
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { deliveryFiles, familyLinks, orderLines, refunds } from "~/server/db/schema";
import {
  familyFile,
  familyLinkPanel,
  makeFamilyLink,
  revokeFamilyLink,
} from "~/server/orders/customer/family-links.server";
import {
  action as downloadPageAction,
  loader as downloadPageLoader,
} from "~/routes/storefront/download-page";
import { loader as watchLoader } from "~/routes/storefront/family-watch";
import { loader as fileLoader } from "~/routes/storefront/family-file";
import { callRoute } from "../../../helpers/route";
import { deliveredVideoOrder, PORTRAIT_PROBE, storedFile } from "../../../helpers/delivered-orders";

/**
 * A paid order of three videos delivered as files of the shop: the first two with their phone
 * versions made (the first with its poster), the third still without one.
 */
async function deliveredOrder() {
  const { order, lines, pageId } = await deliveredVideoOrder(
    "春の発表会",
    ["山田 はると", "山田 ひなた", "山田 さくら"],
    "family",
  );
  const phones: string[] = [];
  for (const line of lines.slice(0, 2)) {
    const fileId = db().select().from(orderLines).where(eq(orderLines.id, line.id)).get()!.deliveryFileId!;
    const phone = await storedFile("phone", "mp4", 2000, "video/mp4");
    phones.push(phone);
    db()
      .update(deliveryFiles)
      .set({
        phoneStoredName: phone,
        phoneSize: 2000,
        phoneVideo: { ...PORTRAIT_PROBE, width: 720, height: 1280 },
        posterStoredName: line === lines[0] ? await storedFile("poster", "jpg", 500, "image/jpeg") : null,
      })
      .where(eq(deliveryFiles.id, fileId))
      .run();
  }
  return { order, lines, pageId, phones };
}

const tokenOf = (url: string) => /\/family\/([A-Za-z0-9_-]{22})$/.exec(url)?.[1] ?? "";

async function madeLink(pageId: string) {
  expect(makeFamilyLink(pageId)).toEqual({ ok: true });
  return tokenOf(familyLinkPanel(pageId)!.link!.url);
}

const watch = (token: string, userAgent = "Mozilla/5.0 (iPhone) Safari") =>
  callRoute(
    watchLoader,
    new Request(`http://shop.test/family/${token}`, { headers: { "User-Agent": userAgent } }),
    { token },
  );

const file = (token: string, lineId: number, query = "", headers: Record<string, string> = {}) =>
  callRoute(fileLoader, new Request(`http://shop.test/family/${token}/${lineId}${query}`, { headers }), {
    token,
    lineId: String(lineId),
  });

const viewsOf = (token: string) =>
  db().select().from(familyLinks).where(eq(familyLinks.token, token)).get()?.views;

afterEach(() => setClock(null));

describe("the family link", () => {
  it("is 128 random bits of its own, one live link per order: a second press keeps the first", async () => {
    const first = await deliveredOrder();
    const second = await deliveredOrder();
    expect(familyLinkPanel(first.pageId)).toMatchObject({ link: null, videoCount: 2 });
    const token = await madeLink(first.pageId);
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(token).not.toBe(first.pageId);
    expect(await madeLink(first.pageId)).toBe(token);
    expect(await madeLink(second.pageId)).not.toBe(token);
    expect(db().select().from(familyLinks).where(eq(familyLinks.orderId, first.order.id)).all()).toHaveLength(
      1,
    );
    // A guessed or malformed token opens nothing.
    for (const guess of [crypto.randomBytes(16).toString("base64url"), "x", `${token}x`]) {
      expect((await watch(guess)).status).toBe(404);
      expect((await file(guess, first.lines[0]!.id)).status).toBe(404);
    }
  });

  it("counts the page opened as a view, never the player's requests, and never starts a download", async () => {
    const { pageId, lines, phones } = await deliveredOrder();
    const token = await madeLink(pageId);
    const opened = await watch(token);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("Cache-Control")).toBe("no-store");
    expect(viewsOf(token)).toBe(1);
    // A chat app's link preview is not a person watching.
    await watch(token, "facebookexternalhit/1.1");
    await watch(token, "Mozilla/5.0 (compatible; line-poker/1.0)");
    expect(viewsOf(token)).toBe(1);

    const ranged = await file(token, lines[0]!.id, "", { Range: "bytes=0-99" });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("Content-Type")).toBe("video/mp4");
    expect(ranged.headers.get("Content-Disposition")).toBe("inline");
    expect(ranged.headers.get("Content-Range")).toBe("bytes 0-99/2000");
    expect(ranged.headers.get("Cache-Control")).toBe("private, no-store");
    const whole = await file(token, lines[1]!.id);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Length")).toBe("2000");
    const poster = await file(token, lines[0]!.id, "?v=poster");
    expect(poster.status).toBe(200);
    expect(poster.headers.get("Content-Type")).toBe("image/jpeg");
    expect(familyFile(token, lines[1]!.id, "poster")).toEqual({ ok: false, status: 404 });
    expect(familyFile(token, lines[0]!.id, "video")).toMatchObject({ storedName: phones[0] });

    expect(viewsOf(token)).toBe(1);
    await watch(token);
    expect(viewsOf(token)).toBe(2);
    expect(familyLinkPanel(pageId)!.link!.views).toBe(2);
    for (const line of lines)
      expect(
        db().select().from(orderLines).where(eq(orderLines.id, line.id)).get()!.downloadStartedAt,
      ).toBeNull();
  });

  it("shows only lines with a phone version that are not refunded, and serves no other", async () => {
    const { order, pageId, lines } = await deliveredOrder();
    db()
      .insert(refunds)
      .values({
        orderId: order.id,
        paymentIntentId: order.paymentIntentId,
        lineIds: [lines[1]!.id],
        amount: 3000,
        reason: "撮影できなかったため",
        requestKey: crypto.randomUUID(),
        status: "succeeded",
      })
      .run();
    const token = await madeLink(pageId);
    const opened = await watch(token);
    const shown = (opened.data as { watch: { videos: { lineId: number; athleteName: string }[] } }).watch
      .videos;
    expect(shown.map((video) => video.lineId)).toEqual([lines[0]!.id]);
    expect(familyLinkPanel(pageId)!.videoCount).toBe(1);
    // The refunded line and the one without a phone version are not served either.
    expect((await file(token, lines[1]!.id)).status).toBe(404);
    expect((await file(token, lines[2]!.id)).status).toBe(404);
    expect((await file(token, lines[1]!.id, "?v=poster")).status).toBe(404);
  });

  it("a revoked link is refused at once, page and files (410), and a new one can be made", async () => {
    const { pageId, lines } = await deliveredOrder();
    const token = await madeLink(pageId);
    expect(revokeFamilyLink(pageId)).toEqual({ ok: true });
    expect(familyLinkPanel(pageId)!.link).toBeNull();
    const refused = await watch(token);
    expect(refused.status).toBe(410);
    expect(refused.data).toMatchObject({ watch: { state: "ended" } });
    expect((await file(token, lines[0]!.id)).status).toBe(410);
    expect(viewsOf(token)).toBe(0);
    const again = await madeLink(pageId);
    expect(again).not.toBe(token);
    expect((await watch(again)).status).toBe(200);
    expect((await watch(token)).status).toBe(410);
  });

  it("ends with the download page: an expired page's link is refused and no new one is made", async () => {
    const { pageId, lines } = await deliveredOrder();
    const token = await madeLink(pageId);
    const ended = (await watch(token)).data as { watch: { expiresAt: Date } };
    setClock(() => ended.watch.expiresAt.getTime() + 1);
    expect((await watch(token)).status).toBe(410);
    expect((await file(token, lines[0]!.id)).status).toBe(410);
    expect(familyLinkPanel(pageId)).toBeNull();
    expect(makeFamilyLink(pageId)).toMatchObject({ ok: false, status: 410 });
  });

  it("is made and revoked by the download page's plain posts, back to its panel with a toast", async () => {
    const { pageId } = await deliveredOrder();
    const post = (intent: string) =>
      callRoute(
        downloadPageAction,
        new Request(`http://shop.test/download/${pageId}`, {
          method: "POST",
          body: new URLSearchParams({ intent }),
        }),
        { id: pageId },
      );
    const made = await post("family-link-make");
    expect(made.status).toBe(302);
    expect(made.location).toBe(`/download/${pageId}#family`);
    expect(made.headers.get("Set-Cookie")).toBeTruthy();
    const page = await callRoute(downloadPageLoader, new Request(`http://shop.test/download/${pageId}`), {
      id: pageId,
    });
    const panel = (page.data as { family: { link: { url: string; views: number } } }).family;
    expect(panel.link.url).toMatch(/\/family\/[A-Za-z0-9_-]{22}$/);
    expect(panel.link.views).toBe(0);

    const bad = await post("delete-everything");
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({ familyError: expect.stringContaining("操作を読み取れませんでした") });
    expect((await post("family-link-revoke")).status).toBe(302);
    expect(familyLinkPanel(pageId)!.link).toBeNull();
    // A guessed download page changes nothing.
    const guessed = await callRoute(
      downloadPageAction,
      new Request("http://shop.test/download/x", {
        method: "POST",
        body: new URLSearchParams({ intent: "family-link-make" }),
      }),
      { id: crypto.randomBytes(16).toString("base64url") },
    );
    expect(guessed.status).toBe(404);
  });
});
