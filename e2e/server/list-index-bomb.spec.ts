import { expect, test } from "@playwright/test";
import { createContest } from "../support/contests";
import { uniqueEmail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";

/**
 * A list index bomb: a 100-byte post naming `items[99999]` once made conform build a list of
 * 100,000 entries, validate each and send each error back (~10 s of the server's one thread and
 * a 15 MB page per post: the fuzz test timed out on it). Now refused before it is parsed.
 */

const BOMB = "items%5B99999%5D.athleteId=1&items%5B0%5D.category=x&intent=add";

test("list index bomb: the order form and the price description refuse items[99999] with 400 at once", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("bomb-admin"));
  const editPath = await createContest(page, `インデックス爆弾大会${Date.now()}`);
  const contestId = /\/admin\/contest\/(\d+)/.exec(editPath)?.[1];

  const post = async (path: string, body: string) => {
    const started = Date.now();
    const response = await page.request.post(path, {
      data: body,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      maxRedirects: 0,
    });
    return { status: response.status(), ms: Date.now() - started, bytes: (await response.body()).length };
  };

  // A contest on sale, from the home page's links.
  const home = await page.request.get("/");
  const slugPath = /href="(\/order-form\/[^"]+)"/.exec(await home.text())?.[1];
  expect(slugPath).toBeTruthy();

  for (const [path, body] of [
    [slugPath ?? "", BOMB],
    [`/admin/contest/${contestId}/settings`, "intent=price&items%5B99999%5D.name=x&notes="],
  ] as const) {
    const answer = await post(path, body);
    expect(answer.status, path).toBe(400);
    expect(answer.ms, path).toBeLessThan(2_000);
    expect(answer.bytes, path).toBeLessThan(200_000);
  }

  // The largest list a real form sends still works: 50 order lines are answered as the form's own errors.
  const fifty = Array.from({ length: 50 }, (_, i) => `items%5B${i}%5D.category=x`).join("&");
  const honest = await post(slugPath ?? "", `${fifty}&intent=add`);
  expect(honest.status).toBeLessThan(500);
  expect(honest.status).not.toBe(400);
});
