import { eq } from "drizzle-orm";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { athletes, categories, contests, users, videoFormats } from "~/server/db/schema";
import { commitSession, getSession } from "~/server/http/session.server";

/** A contest on sale with two categories and a few athletes (one of them 受注停止). */
export function seedContest(name = `テスト大会${Math.random().toString(36).slice(2, 8)}`) {
  const contestId = createContest(name);
  db()
    .update(contests)
    .set({ videoPublished: true, sitePublicStatus: "公開" })
    .where(eq(contests.id, contestId))
    .run();
  db()
    .insert(categories)
    .values([
      { contestId, name: "A部門", color: "#ef4444" },
      { contestId, name: "B部門", color: "#3b82f6" },
    ])
    .run();
  const [vertical, horizontal] = db()
    .select()
    .from(videoFormats)
    .where(eq(videoFormats.contestId, contestId))
    .orderBy(videoFormats.displayOrder)
    .all();
  const insert = (
    athleteNumber: number,
    category: string,
    status: "販売中" | "受注停止",
    prices: [number | null, number | null],
  ) =>
    db()
      .insert(athletes)
      .values({
        contestId,
        athleteNumber,
        name: `選手${athleteNumber}`,
        category,
        videoStatus: status,
        verticalVideoPrice: prices[0],
        horizontalVideoPrice: prices[1],
      })
      .returning()
      .get();
  return {
    contestId,
    name,
    vertical: vertical!,
    horizontal: horizontal!,
    onSale: insert(1, "A部門", "販売中", [3000, 4500]),
    unpriced: insert(2, "B部門", "販売中", [null, null]),
    stopped: insert(3, "A部門", "受注停止", [3000, 4500]),
    free: insert(4, "B部門", "販売中", [0, 0]),
  };
}

/** A cookie for a session holding the given values, as the browser would send it back. */
export async function sessionCookie(values: { checkoutId?: string; userId?: number }) {
  const session = await getSession(new Request("http://shop.test/"));
  for (const [key, value] of Object.entries(values)) session.set(key as "checkoutId", value as string);
  const setCookie = await commitSession(session);
  return setCookie.split(";")[0] ?? "";
}

export function formRequest(url: string, fields: [string, string][], cookie?: string) {
  const body = new URLSearchParams(fields);
  return new Request(`http://shop.test${url}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/**
 * The cookie of a fresh admin who has done the second factor, as after a whole admin login.
 * With `isAdmin: false`, a customer whose session claims the second factor: still not an admin.
 */
export async function adminCookie({ isAdmin = true }: { isAdmin?: boolean } = {}) {
  const user = db()
    .insert(users)
    .values({ email: `admin-${Math.random().toString(36).slice(2)}@example.jp`, passwordHash: "x", isAdmin })
    .returning()
    .get();
  const session = await getSession(new Request("http://shop.test/"));
  session.set("userId", user.id);
  session.set("loggedInAt", Date.now());
  session.set("adminVerifiedAt", Date.now());
  return (await commitSession(session)).split(";")[0] ?? "";
}
