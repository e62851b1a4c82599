import { execFile } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { issueApiToken } from "../support/api-tokens";
import { withDb } from "../support/db";
import { buyTwoVideos } from "../support/flows";
import { mailsTo, uniqueEmail, waitForMail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";

/**
 * docs/examples/contest-setup.mjs, the script example of docs/api.md, run as its reader would run
 * it (node, SHOP and TOKEN) against the production build: `setup` makes a contest of 50 athletes
 * and puts it on sale, customers order, `deliver` delivers their orders, and the admin screens
 * show all of it. Plain HTTP and the admin screens, so once (the JavaScript project).
 */

const script = path.resolve(import.meta.dirname, "../../docs/examples/contest-setup.mjs");
const TEMPLATE = "https://videos.example.jp/{contest}/{athleteNumber}-{style}.mp4";

type Run = { code: number; stdout: string; stderr: string };

/** The script as a child process; resolves with its exit code and output whatever the code. */
function runScript(env: { SHOP: string; TOKEN: string }, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { env: { ...process.env, ...env }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

test("@js-only docs/api.md's script example: setup makes the contest, deliver delivers its paid orders, the admin screens show both", async ({
  page,
  browser,
  context,
  baseURL,
}) => {
  // 60-odd calls for the set-up, a storefront purchase and the admin screens, on a shared box.
  test.setTimeout(240_000);
  await loginAsAdmin(context, baseURL!, uniqueEmail("api-script-admin"));
  const env = {
    SHOP: baseURL!,
    TOKEN: await issueApiToken(page, { name: "contest-setup.mjs", scope: "write" }),
  };
  const name = `スクリプト例の大会 ${Date.now()} ${crypto.randomBytes(3).toString("hex")}`;

  // A wrong token: nothing is made, the shop's 401 message is printed and the exit code says so.
  const refused = await runScript({ ...env, TOKEN: "cvs_not-a-real-token" }, "setup", name);
  expect(refused.code, refused.stdout).toBe(1);
  expect(refused.stderr).toContain("401 APIトークンが正しくありません");
  expect(withDb((db) => db.prepare("select count(*) as n from contests where name = ?").get(name))).toEqual({
    n: 0,
  });

  const setup = await runScript(env, "setup", name);
  expect(setup.code, setup.stderr).toBe(0);
  expect(setup.stdout).toContain(`大会「${name}」`);
  expect(setup.stdout).toContain("選手: 50人");
  // Run twice, the name is refused (409) with the field's message, as the 新規大会追加 dialog refuses it.
  const twice = await runScript(env, "setup", name);
  expect(twice.code, twice.stdout).toBe(1);
  const taken = `「${name}」と同じURLになるため、この大会名は使えません。別の大会名を入力してください。`;
  expect(twice.stderr).toContain(`POST /api/video/contests: 409 ${taken}`);
  expect(twice.stderr).toContain(`  name: ${taken}`);
  const contestId = withDb(
    (db) => (db.prepare("select id from contests where name = ?").get(name) as { id: number }).id,
  );

  // Two paid orders: one bought on the storefront with the test card (two videos), one written
  // to the database as a paid order of another customer (one video).
  const buyer = uniqueEmail("api-script-buyer");
  const storefrontOrder = await buyOnTheStorefront(browser, name, buyer);
  const other = uniqueEmail("api-script-other");
  const insertedOrder = insertPaidOrder(contestId, name, other);

  const delivered = await runScript(env, "deliver", name, TEMPLATE);
  expect(delivered.code, delivered.stderr).toBe(0);
  expect(delivered.stdout).toContain(`${storefrontOrder}: 納品しました (2本) customerEmailSent=true`);
  expect(delivered.stdout).toContain(`${insertedOrder}: 納品しました (1本) customerEmailSent=true`);

  // Run again: nothing left to deliver, nobody mailed twice.
  const again = await runScript(env, "deliver", name, TEMPLATE);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toContain(`大会「${name}」に納品待ちの注文はありません`);

  // The customers' delivery mails (the storefront buyer's third: code, confirmation, delivery).
  const buyerMail = await waitForMail(buyer, 3);
  expect(buyerMail.subject).toContain("動画のご用意ができました");
  expect(buyerMail.text).toContain(storefrontOrder);
  const otherMail = await waitForMail(other, 1);
  expect(otherMail.subject).toContain("動画のご用意ができました");
  expect(otherMail.text).toContain(insertedOrder);
  expect(mailsTo(buyer)).toHaveLength(3);
  expect(mailsTo(other)).toHaveLength(1);

  // 大会管理: the contest, its videos on sale.
  await page.goto("/admin");
  const contestRow = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });
  await expect(contestRow.getByRole("button", { name: `${name}の動画: 公開中（切り替え）` })).toBeVisible();

  // 選手管理: 50 athletes, numbers 1–50 over the three categories, on sale at the script's prices.
  await contestRow.getByRole("link", { name: `${name}を編集` }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.locator("tbody tr")).toHaveCount(50);
  await expect(page.getByText("50人", { exact: true })).toBeVisible();
  for (const [number, category] of [
    [1, "キッズ部門"],
    [2, "ジュニア部門"],
    [3, "一般部門"],
    [50, "ジュニア部門"],
  ] as const) {
    const athlete = page.getByRole("row", { name: `${number} 選手${number}`, exact: true });
    await expect(athlete).toContainText(category);
    await expect(athlete).toContainText("販売中");
  }

  // 大会設定: the categories, the formats, the price description and the publication.
  await page.getByRole("link", { name: "大会設定" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/contest/${contestId}/settings$`));
  const section = (title: string) => page.getByRole("region", { name: title });
  await expect(section("部門").getByRole("list", { name: "部門の一覧" }).getByRole("listitem")).toHaveText([
    /キッズ部門/,
    /ジュニア部門/,
    /一般部門/,
  ]);
  await expect(section("動画形式").getByLabel("1番目の動画形式名")).toHaveValue("縦");
  await expect(section("動画形式").getByLabel("2番目の動画形式名")).toHaveValue("横");
  const price = section("料金説明");
  await expect(price.getByLabel("項目名1")).toHaveValue("縦型動画");
  await expect(price.getByLabel("料金1")).toHaveValue("3000");
  await expect(price.getByLabel("項目名2")).toHaveValue("横型動画");
  await expect(price.getByLabel("料金2")).toHaveValue("4500");
  await expect(price.getByLabel("備考")).toHaveValue("価格は税込です。");
  await expect(section("公開設定").getByRole("radio", { name: "公開", exact: true })).toBeChecked();

  // 動画注文一覧: both orders 納品完了 (対応済み), with the URLs the template made.
  await page.goto(`/admin/orders?tab=handled&contest=${contestId}`);
  const group = (orderNumber: string) =>
    page.getByRole("listitem").filter({ hasText: `注文番号 ${orderNumber}` });
  await expect(group(storefrontOrder)).toContainText("納品完了");
  await expect(group(insertedOrder)).toContainText("納品完了");
  const videoUrl = (athleteNumber: number, style: string) =>
    `https://videos.example.jp/${encodeURIComponent(name)}/${athleteNumber}-${encodeURIComponent(style)}.mp4`;
  const storefrontLinks = group(storefrontOrder).getByRole("link", { name: "動画URL" });
  await expect(storefrontLinks).toHaveCount(2);
  expect(
    await storefrontLinks.evaluateAll((links) => links.map((link) => link.getAttribute("href"))),
  ).toEqual([videoUrl(1, "縦"), videoUrl(2, "横")]);
  await expect(group(insertedOrder).getByRole("link", { name: "動画URL" })).toHaveAttribute(
    "href",
    videoUrl(3, "縦"),
  );
  await page.goto(`/admin/orders?contest=${contestId}`);
  await expect(page.getByText(`注文番号 ${storefrontOrder}`)).toHaveCount(0);
  await expect(page.getByText(`注文番号 ${insertedOrder}`)).toHaveCount(0);
});

/** The storefront purchase of flows.ts on this contest (キッズ部門 1 縦 and ジュニア部門 2 横, the test card), as its own customer. */
async function buyOnTheStorefront(
  browser: import("@playwright/test").Browser,
  contest: string,
  email: string,
): Promise<string> {
  const customer = await browser.newContext();
  try {
    return await buyTwoVideos(await customer.newPage(), email, "スクリプト 太郎", contest);
  } finally {
    await customer.close();
  }
}

/** A paid order of the contest for one video (一般部門 3 縦), as e2e/api/api-doc.spec.ts writes its paid orders. */
function insertPaidOrder(contestId: number, contest: string, email: string): string {
  return withDb((db) => {
    const number = `7${String(crypto.randomInt(10_000_000)).padStart(7, "0")}`;
    const { id } = db
      .prepare(
        `insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_id,
           contest_name, customer_email, customer_name, total_amount, line_count, paid_at)
         values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, ?, 'スクリプト 花子', 3000, 1, ?) returning id`,
      )
      .get(
        number,
        `apiscript-${number}`,
        `pi_apiscript_${number}`,
        contestId,
        contest,
        email,
        Date.now(),
      ) as {
      id: number;
    };
    db.prepare(
      `insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name,
         style, orientation, price) values (?, ?, ?, '一般部門', 3, '選手3', '縦', 'vertical', 3000)`,
    ).run(id, `${number}-1`, contest);
    return number;
  });
}
