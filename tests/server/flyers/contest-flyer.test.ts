import { eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { contestSlug } from "~/lib/rules/slug";
import { siteUrl } from "~/server/core/site-url.server";
import { db } from "~/server/db/client.server";
import { athletes, contests } from "~/server/db/schema";
import { saveContestPromotions } from "~/server/promotions/contest-promotions.server";
import { pdfPagesAndQrCodes } from "../../helpers/pdf-qr";
import { adminCookie, seedContest } from "../../helpers/shop";

/**
 * A contest's flyer for the venue: one A4 sheet with the order form's address as a QR code that
 * reads back to it, the 合言葉, when orders are taken and the prices the order form asks. Made
 * for admins only; it prints the 合言葉, so no cache keeps it.
 */

const flyerRoute = () => import("~/routes/admin/contest/flyer-pdf");

async function flyer(contestId: number, cookie: string) {
  const { loader } = await flyerRoute();
  const response = (await loader({
    request: new Request(`http://shop.test/admin/contest/${contestId}/flyer.pdf`, {
      headers: { Cookie: cookie },
    }),
    params: { id: String(contestId) },
    context: {},
  })) as Response;
  return { response, pdf: new Uint8Array(await response.arrayBuffer()) };
}

describe("a contest's flyer (PDF)", () => {
  it("is one A4 sheet with the order form's QR code, the 合言葉, the sales and the prices", async () => {
    const shop = seedContest(`第5回 さくらキッズダンス発表会 ${Math.random().toString(36).slice(2, 6)}`);
    db()
      .update(contests)
      .set({ accessCode: "sakura-2026", date: "2026年12月20日", location: "市民ホール" })
      .where(eq(contests.id, shop.contestId))
      .run();
    // Every athlete on sale at a price (one dearer), so the ranges are the order form's.
    for (const athlete of [shop.unpriced, shop.free])
      db()
        .update(athletes)
        .set({ verticalVideoPrice: 3500, horizontalVideoPrice: 4500 })
        .where(eq(athletes.id, athlete.id))
        .run();
    saveContestPromotions(shop.contestId, {
      earlyBirdVerticalPrice: 2500,
      earlyBirdHorizontalPrice: null,
      earlyBirdEndsAt: new Date(Date.now() + 7 * 86_400_000),
      setDiscount: null,
      quantityMinItems: null,
      quantityDiscountKind: null,
      quantityDiscountValue: null,
    });

    const { response, pdf } = await flyer(shop.contestId, await adminCookie());
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");

    const document = await getDocumentProxy(pdf.slice());
    expect(document.numPages).toBe(1);
    const page = await document.getPage(1);
    expect(page.view.map(Math.round)).toEqual([0, 0, 595, 842]);
    const { text } = await extractText(pdf.slice(), { mergePages: true });
    for (const said of [
      shop.name,
      "2026年12月20日",
      "市民ホール",
      "合言葉",
      "sakura-2026",
      "受付中",
      `${shop.vertical.name} 3,000円〜3,500円`,
      `${shop.horizontal.name} 4,500円`,
      `までのご注文: ${shop.vertical.name} 2,500円`,
    ])
      expect(text).toContain(said);

    expect((await pdfPagesAndQrCodes(pdf)).qrCodes).toEqual([
      siteUrl(`/order-form/${encodeURIComponent(contestSlug(shop.name))}`),
    ]);
  });

  it("without a 合言葉 prints none, and before sales are planned says they will be announced", async () => {
    const shop = seedContest();
    db()
      .update(contests)
      .set({ videoPublished: false, sitePublicStatus: "非公開" })
      .where(eq(contests.id, shop.contestId))
      .run();
    const { pdf } = await flyer(shop.contestId, await adminCookie());
    const { text } = await extractText(pdf.slice(), { mergePages: true });
    expect(text).not.toContain("合言葉");
    expect(text).toContain("受付開始の日時はショップでお知らせします");
  });

  it("is for admins only", async () => {
    const shop = seedContest();
    await expect(flyer(shop.contestId, await adminCookie({ isAdmin: false }))).rejects.toThrow();
  });
});
