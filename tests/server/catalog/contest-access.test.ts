import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contestSlug } from "~/lib/rules/slug";
import { ACCESS_CODE_LIMITS, enterAccessCode } from "~/server/catalog/contest-access.server";
import { db } from "~/server/db/client.server";
import { checkouts, contests, mediaItems, orders } from "~/server/db/schema";
import { CLIENT_ADDRESS_HEADER } from "~/server/http/client-address.server";
import { getSession } from "~/server/http/session.server";
import { storefrontAudience } from "~/server/media/public-catalogue.server";
import { shopRequestHandler } from "../../helpers/remix-app";
import { callRoute, sessionOf } from "../../helpers/route";
import { seedContest, sessionCookie } from "../../helpers/shop";

const orderFormRoute = () => import("~/routes/storefront/order-form");
const CODE = "Sakura-2026";

/** A contest on sale with athletes 選手1… behind the 合言葉 CODE. */
function codedContest(values: { namesHidden?: boolean } = {}) {
  const shop = seedContest(`合言葉の大会${Math.random().toString(36).slice(2, 8)}`);
  db()
    .update(contests)
    .set({ accessCode: CODE, namesHidden: values.namesHidden ?? false })
    .where(eq(contests.id, shop.contestId))
    .run();
  return { ...shop, slug: contestSlug(shop.name) };
}

function headers(cookie?: string, address = "127.0.0.1") {
  return { [CLIENT_ADDRESS_HEADER]: address, ...(cookie ? { Cookie: cookie } : {}) };
}

async function openForm(slug: string, cookie?: string) {
  const { loader } = await orderFormRoute();
  return callRoute(loader, new Request(`http://shop.test/order-form/${slug}`, { headers: headers(cookie) }), {
    contestSlug: slug,
  });
}

async function post(slug: string, fields: [string, string][], cookie?: string, address?: string) {
  const { action } = await orderFormRoute();
  return callRoute(
    action,
    new Request(`http://shop.test/order-form/${slug}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers(cookie, address) },
    }),
    { contestSlug: slug },
  );
}

const enter = (slug: string, typed: string, cookie?: string, address?: string) =>
  post(
    slug,
    [
      ["intent", "unlock"],
      ["accessCode", typed],
    ],
    cookie,
    address,
  );

type Reply = { reply: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } };

describe("a contest behind its 合言葉", () => {
  it("shows only the contest's name until the code is entered, then the athletes for the session", async () => {
    const shop = codedContest();
    const locked = await openForm(shop.slug);
    expect(locked.status).toBe(403);
    expect(locked.data).toEqual({ locked: true, contest: { id: shop.contestId, name: shop.name } });

    const right = await enter(shop.slug, CODE);
    expect(right.status).toBe(303);
    const cookie = sessionOf(right);
    const open = await openForm(shop.slug, cookie);
    expect(open.status).toBe(200);
    expect(JSON.stringify(open.data)).toContain("選手1");
  });

  it("a wrong 合言葉 is refused with 403, says so beside the field and keeps what was typed", async () => {
    const shop = codedContest();
    const wrong = await enter(shop.slug, "sakura-2025");
    expect(wrong.status).toBe(403);
    const data = wrong.data as Reply;
    expect(data.reply.error?.accessCode?.[0]).toContain("合言葉が違います");
    expect(data.reply.initialValue?.accessCode).toBe("sakura-2025");
    expect(wrong.headers.get("Set-Cookie")).toBeNull();
  });

  it("opens with the code typed in full-width or another case", async () => {
    const shop = codedContest();
    const right = await enter(shop.slug, "ｓａｋｕｒａ－２０２６");
    expect(right.status).toBe(303);
    expect((await openForm(shop.slug, sessionOf(right))).status).toBe(200);
  });

  it("closes again when the admin changes the code", async () => {
    const shop = codedContest();
    const cookie = sessionOf(await enter(shop.slug, CODE));
    db().update(contests).set({ accessCode: "momiji-2026" }).where(eq(contests.id, shop.contestId)).run();
    expect((await openForm(shop.slug, cookie)).status).toBe(403);
  });

  it("shows numbers without names when 番号のみ表示 is set, even after the code", async () => {
    const shop = codedContest({ namesHidden: true });
    const cookie = sessionOf(await enter(shop.slug, CODE));
    const open = await openForm(shop.slug, cookie);
    expect(open.status).toBe(200);
    expect(JSON.stringify(open.data)).not.toContain("選手1");
    expect(
      (open.data as { options: { athletes: { number: number; name: string }[] } }).options.athletes,
    ).toContainEqual(expect.objectContaining({ number: 1, name: "" }));
  });

  it("refuses a draft posted without the code, and saves nothing", async () => {
    const shop = codedContest();
    const cookie = await sessionCookie({});
    const refused = await post(
      shop.slug,
      [
        ["intent", "next"],
        ["items[0].category", "A部門"],
        ["items[0].athleteId", String(shop.onSale.id)],
        ["items[0].formatId", String(shop.vertical.id)],
      ],
      cookie,
    );
    expect(refused.status).toBe(403);
    expect((refused.data as Reply).reply.error?.[""]?.[0]).toContain("合言葉を入力してから");
    expect(db().select().from(checkouts).where(eq(checkouts.contestId, shop.contestId)).all()).toEqual([]);
  });

  it("sends a draft made before the code was set back to the order form at checkout", async () => {
    const shop = seedContest();
    const slug = contestSlug(shop.name);
    const made = await post(slug, [
      ["intent", "next"],
      ["items[0].category", "A部門"],
      ["items[0].athleteId", String(shop.onSale.id)],
      ["items[0].formatId", String(shop.vertical.id)],
    ]);
    expect(made.location).toBe("/order-confirmation");
    const cookie = sessionOf(made);
    db().update(contests).set({ accessCode: CODE }).where(eq(contests.id, shop.contestId)).run();
    const confirmation = await import("~/routes/checkout/order-confirmation");
    const page = await callRoute(
      confirmation.loader,
      new Request("http://shop.test/order-confirmation", { headers: headers(cookie) }),
    );
    expect(page.status).toBe(302);
    expect(page.location).toBe(`/order-form/${encodeURIComponent(slug)}`);
  });

  it("answers the order form's .data without athletes until the code is entered", async () => {
    const shop = codedContest();
    const handle = await shopRequestHandler({
      "routes/storefront/order-form": {
        path: "order-form/:contestSlug",
        file: () => import("~/routes/storefront/order-form"),
      },
    });
    const dataUrl = `http://shop.test/order-form/${encodeURIComponent(shop.slug)}.data`;
    const locked = await handle(new Request(dataUrl, { headers: headers() }));
    const lockedText = await locked.text();
    expect(lockedText).not.toContain("選手1");
    expect(lockedText).toContain("locked");
    const cookie = sessionOf(await enter(shop.slug, CODE));
    const open = await handle(new Request(dataUrl, { headers: headers(cookie) }));
    expect(await open.text()).toContain("選手1");
    const page = await handle(
      new Request(`http://shop.test/order-form/${encodeURIComponent(shop.slug)}`, { headers: headers() }),
    );
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('<meta name="robots" content="noindex"/>');
  });
});

describe("guessing a contest's 合言葉", () => {
  it("stops an address after 10 wrong entries an hour, even with the right code; another address goes on", async () => {
    const shop = codedContest();
    for (let i = 0; i < ACCESS_CODE_LIMITS.perAddressHour.limit; i++)
      expect((await enter(shop.slug, `wrong-${i}-guess`, undefined, "127.0.0.2")).status).toBe(403);
    const stopped = await enter(shop.slug, CODE, undefined, "127.0.0.2");
    expect(stopped.status).toBe(429);
    expect(stopped.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((stopped.data as Reply).reply.error?.[""]?.[0]).toContain("しばらく受け付けられません");
    expect((await enter(shop.slug, CODE, undefined, "127.0.0.3")).status).toBe(303);
  });

  it("stops every address once a contest has had 100 wrong entries in a day", async () => {
    const shop = codedContest();
    const contest = { id: shop.contestId, accessCode: CODE };
    const wrong = new FormData();
    wrong.set("intent", "unlock");
    wrong.set("accessCode", "not-the-code");
    for (let i = 0; i < ACCESS_CODE_LIMITS.perContestDay.limit; i++) {
      // Ten addresses of ten wrong entries each: within each address's own limits.
      const request = new Request("http://shop.test/", { headers: headers(undefined, `10.44.${i % 10}.1`) });
      const outcome = enterAccessCode(await getSession(request), request, contest, wrong);
      expect(outcome.ok ? 0 : outcome.status).toBe(403);
    }
    expect((await enter(shop.slug, CODE, undefined, "10.45.0.1")).status).toBe(429);
  });
});

describe("what else of a contest the 合言葉 keeps", () => {
  it("serves a sample only to whoever entered the code, and the cover to everyone", async () => {
    const shop = codedContest();
    const add = (category: "sample" | "cover-image", storedName: string) =>
      db()
        .insert(mediaItems)
        .values({
          contestId: shop.contestId,
          storedName,
          originalName: storedName,
          mediaType: "image",
          contentType: "image/jpeg",
          size: 100,
          category,
        })
        .run();
    const sample = `sample-${shop.contestId}.jpg`;
    add("sample", sample);
    add("cover-image", `cover-${shop.contestId.toString(16)}abc.jpg`);
    const visitor = new Request("http://shop.test/media/x", { headers: headers() });
    expect(await storefrontAudience(visitor, sample)).toBeNull();
    expect(await storefrontAudience(visitor, `cover-${shop.contestId.toString(16)}abc.jpg`)).toBe("public");
    const cookie = sessionOf(await enter(shop.slug, CODE));
    const opened = new Request("http://shop.test/media/x", { headers: headers(cookie) });
    expect(await storefrontAudience(opened, sample)).toBe("private");

    const list = await import("~/routes/api/media/list");
    const listUrl = `http://shop.test/api/video/contests/${shop.contestId}/media`;
    const refused = await callRoute(list.loader, new Request(listUrl, { headers: headers() }), {
      id: String(shop.contestId),
    });
    expect(refused.status).toBe(404);
    const listed = await callRoute(list.loader, new Request(listUrl, { headers: headers(cookie) }), {
      id: String(shop.contestId),
    });
    expect(listed.status).toBe(200);
  });

  it("leaves an order's status page open without the code", async () => {
    const shop = codedContest();
    const order = db()
      .insert(orders)
      .values({
        orderNumber: String(60_000_000 + shop.contestId),
        checkoutId: `access-code-${shop.contestId}`,
        paymentIntentId: `pi_access_${shop.contestId}`,
        contestId: shop.contestId,
        contestName: shop.name,
        bibNumberLabel: "ゼッケン番号",
        customerEmail: "access@example.jp",
        customerName: "合言葉 花子",
        totalAmount: 3000,
        lineCount: 1,
        paymentMethod: "card",
        paymentStatus: "paid",
        paidAt: new Date(),
      })
      .returning()
      .get();
    const status = await import("~/routes/storefront/order-status");
    const page = await callRoute(
      status.loader,
      new Request(`http://shop.test/orders/${order.statusToken}`, { headers: headers() }),
      { token: order.statusToken },
    );
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.data)).toContain(order.orderNumber);
  });
});
