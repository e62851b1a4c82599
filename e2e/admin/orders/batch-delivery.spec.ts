import fs from "node:fs";
import { e2eDbFile } from "../../support/work-dir";
import { expect, test, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { SAMPLE_VIDEO, quickTimeVideo, videoBytes } from "../../../tests/helpers/test-videos";
import { axeViolations } from "../../support/axe";
import { jsEnabled, mailsTo, uniqueEmail } from "../../support/helpers";
import { loginAsAdmin } from "../../support/users";
import { withDb } from "../../support/db";
import { photograph } from "../../support/visual";

const DELIVERY_SUBJECT = "動画のご用意ができました";

/**
 * A contest of its own selling 縦 and 横, with athletes 1–6 (演奏順) and six paid orders from
 * four families, written into the server's database as paid orders are stored.
 */
function seedContest() {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const name = `一括納品発表会${tag}`;
  const db = new Database(e2eDbFile());
  try {
    const contestId = (
      db
        .prepare(
          "insert into contests (name, slug_key, bib_number_label) values (?, ?, '演奏順') returning id",
        )
        .get(name, `ikkatsu${tag}`) as { id: number }
    ).id;
    const format = db.prepare("insert into video_formats (contest_id, name, display_order) values (?, ?, ?)");
    format.run(contestId, "縦", 0);
    format.run(contestId, "横", 1);
    const athlete = db.prepare(
      "insert into athletes (contest_id, athlete_number, name, category, video_status) values (?, ?, ?, '幼児部門', '販売中') returning id",
    );
    const athletes = ["山田 花", "鈴木 健", "佐藤 美緒", "田中 蓮", "高橋 陽葵", "伊藤 湊"].map(
      (athleteName, index) => ({
        id: (athlete.get(contestId, index + 1, athleteName) as { id: number }).id,
        number: index + 1,
        name: athleteName,
      }),
    );
    const families = ["a", "b", "c", "d"].map((label) => uniqueEmail(`ikkatsu-${label}`));
    let n = 0;
    const order = (email: string, lines: [number, "vertical" | "horizontal"][]) => {
      const number = `${tag}${++n}`;
      const orderId = (
        db
          .prepare(
            `insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_id, contest_name, bib_number_label,
               customer_email, customer_name, total_amount, line_count) values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, '演奏順', ?, 'テスト 家族', ?, ?) returning id`,
          )
          .get(
            number,
            `c${number}`,
            `pi${number}`,
            contestId,
            name,
            email,
            3000 * lines.length,
            lines.length,
          ) as {
          id: number;
        }
      ).id;
      lines.forEach(([athleteNumber, orientation], index) => {
        const a = athletes[athleteNumber - 1]!;
        db.prepare(
          `insert into order_lines (order_id, line_number, contest_name, category, athlete_id, athlete_number, athlete_name,
             style, orientation, price) values (?, ?, ?, '幼児部門', ?, ?, ?, ?, ?, 3000)`,
        ).run(
          orderId,
          `${number}-${index + 1}`,
          name,
          a.id,
          a.number,
          a.name,
          orientation === "vertical" ? "縦" : "横",
          orientation,
        );
      });
      return number;
    };
    const [a, b, c, d] = families as [string, string, string, string];
    const orders = [
      order(a, [[1, "vertical"]]),
      order(a, [[2, "horizontal"]]),
      // Two families ordering the same performance get the same file.
      order(b, [
        [1, "vertical"],
        [3, "vertical"],
      ]),
      order(c, [[4, "horizontal"]]),
      order(d, [[5, "vertical"]]),
      order(d, [
        [3, "vertical"],
        [6, "vertical"],
      ]),
    ];
    return { contestId, families: { a, b, c, d }, orders };
  } finally {
    db.close();
  }
}

/** A real video of its own for each name: the server probes every upload with ffprobe. */
function video(name: string) {
  const buffer = videoBytes(undefined, name);
  return { name, mimeType: name.endsWith(".mov") ? "video/quicktime" : "video/mp4", buffer };
}

async function upload(admin: Page, names: string[]) {
  await admin.getByLabel("納品する動画ファイル（複数選択できます）").setInputFiles(names.map(video));
  await admin.getByRole("button", { name: "アップロード", exact: true }).click();
  if (jsEnabled()) {
    await expect(admin.getByText(`全体 ${names.length}/${names.length} 件・100%`)).toBeVisible();
  } else {
    await expect(admin.getByText("アップロード完了")).toBeVisible();
  }
}

const deliveryMails = (email: string) =>
  mailsTo(email).filter((mail) => mail.subject.includes(DELIVERY_SUBJECT));

test("一括納品: 5 files for 6 orders from 4 families deliver the 5 complete orders with one mail each; a second run sends nothing; the 6th file completes the last", async ({
  browser,
  baseURL,
}) => {
  const { contestId, families, orders } = seedContest();
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("ikkatsu-admin"));
  const admin = await context.newPage();
  await admin.goto(`/admin/contest/${contestId}`);
  await admin.getByRole("link", { name: "納品ファイル" }).click();
  await expect(admin.getByRole("heading", { name: "納品ファイル", exact: true })).toBeVisible();

  // The forms editors use: zero-padded, a marker, the contest's label, romaji, full-width digits.
  await upload(admin, ["01_縦.mp4", "002-横.mov", "No3 縦.mp4", "演奏順4_yoko.mp4", "５_縦.mp4"]);
  const matched = admin.getByRole("region", { name: /照合済みのファイル/ });
  await expect(matched.getByRole("listitem")).toHaveCount(5);
  await expect(matched.getByRole("listitem").filter({ hasText: "01_縦.mp4" })).toContainText(
    `納品する注文: ${orders[0]}、${orders[2]}`,
  );
  const missing = admin.getByRole("region", { name: "ファイル未設定の明細" });
  await expect(missing.getByRole("row")).toHaveCount(2);
  await expect(missing.getByRole("row").nth(1)).toContainText("伊藤 湊");
  await expect(missing.getByRole("row").nth(1)).toContainText(orders[5]!);
  await expect(admin.getByRole("button", { name: "一括納品（5 件の注文）" })).toBeVisible();

  await admin.getByRole("button", { name: "一括納品（5 件の注文）" }).click();
  await expect(admin.getByText("一括納品完了")).toBeVisible();
  await expect(admin.getByText(/5 件の注文を納品しました（納品メール 5 通）/)).toBeVisible();
  await expect.poll(() => deliveryMails(families.a).length, { timeout: 15_000 }).toBe(2);
  await expect.poll(() => deliveryMails(families.b).length).toBe(1);
  await expect.poll(() => deliveryMails(families.c).length).toBe(1);
  await expect.poll(() => deliveryMails(families.d).length).toBe(1);
  await expect(admin.getByRole("button", { name: "一括納品（0 件の注文）" })).toBeDisabled();

  // A second 一括納品 (a resubmitted form, a second admin) finds nothing to deliver and mails nobody.
  const again = await admin.request.post(`/admin/contest/${contestId}/delivery`, {
    form: { intent: "deliver-all" },
    maxRedirects: 0,
  });
  expect(again.status()).toBe(303);
  await admin.waitForTimeout(1000);
  for (const email of Object.values(families))
    expect(deliveryMails(email).length).toBe(email === families.a ? 2 : 1);

  await upload(admin, ["6_縦.mp4"]);
  await admin.getByRole("button", { name: "一括納品（1 件の注文）" }).click();
  await expect(admin.getByText(/1 件の注文を納品しました（納品メール 1 通）/)).toBeVisible();
  await expect.poll(() => deliveryMails(families.d).length, { timeout: 15_000 }).toBe(2);
  expect(
    deliveryMails(families.a).length + deliveryMails(families.b).length + deliveryMails(families.c).length,
  ).toBe(4);
  await expect(admin.getByText("未対応の注文の明細には、すべてファイルがあります。")).toBeVisible();

  // A corrected video for 演奏順 1 縦: it replaces the delivered file for both families, mails nobody by
  // itself, and the tab offers to mail each of them again.
  await upload(admin, ["1_縦_修正版.mp4"]);
  await expect(
    admin
      .getByRole("region", { name: /照合済みのファイル/ })
      .getByRole("listitem")
      .filter({ hasText: "1_縦_修正版.mp4" }),
  ).toContainText("差し替え");
  await admin.getByRole("button", { name: "一括納品（0 件の注文）" }).click();
  await expect(admin.getByText(/2 件の納品済みの注文のファイルを差し替えました/)).toBeVisible();
  const resend = admin.getByRole("region", { name: "差し替えた注文への納品メール" });
  await expect(resend.getByRole("listitem")).toHaveCount(2);
  expect(deliveryMails(families.b).length).toBe(1);
  await resend
    .getByRole("listitem")
    .filter({ hasText: orders[2]! })
    .getByRole("button", { name: "納品メールを再送信" })
    .click();
  await expect(admin.getByText("納品メールを再送信しました")).toBeVisible();
  await expect.poll(() => deliveryMails(families.b).length, { timeout: 15_000 }).toBe(2);
  await expect(
    admin.getByRole("region", { name: "差し替えた注文への納品メール" }).getByRole("listitem"),
  ).toHaveCount(1);
  expect(deliveryMails(families.a).length).toBe(2);

  // The family's download page serves the shared file, from the shop, with Range.
  const link = /\/download\/([A-Za-z0-9_-]{22})/.exec(deliveryMails(families.b)[0]!.text)?.[1] ?? "";
  const customer = await browser.newPage();
  await customer.goto(`/download/${link}`);
  // Each video names its athlete, so a family with two children can tell them apart.
  await expect(customer.getByText("幼児部門・演奏順 1 山田 花・縦")).toBeVisible();
  await expect(customer.getByText("幼児部門・演奏順 3 佐藤 美緒・縦")).toBeVisible();
  const href =
    (await customer
      .getByRole("link", { name: /^オリジナル（/ })
      .first()
      .getAttribute("href")) ?? "";
  const ranged = await customer.request.get(href, { headers: { Range: "bytes=0-11" } });
  expect(ranged.status()).toBe(206);
  // Every uploaded video begins as the sample does (videoBytes pads it at the end).
  expect((await ranged.body()).equals(fs.readFileSync(SAMPLE_VIDEO).subarray(0, 12))).toBe(true);
  await customer.close();
  await context.close();
});

test("an order with one お断り line is delivered by 一括納品 from the files already uploaded, and an order refunded whole is warned about and closed only when ticked", async ({
  browser,
  baseURL,
}) => {
  const { contestId, families, orders } = seedContest();
  // Family d's second order: 演奏順 6 縦 cannot be made (お断り). Family c's order is refunded whole.
  withDb((db) => {
    db.prepare(
      "update order_lines set refused = 1, refusal_note = '撮影できませんでした' where line_number = ?",
    ).run(`${orders[5]}-2`);
    const refunded = db.prepare("select id from orders where order_number = ?").get(orders[3]) as {
      id: number;
    };
    db.prepare(
      `insert into refunds (order_id, payment_intent_id, line_ids, amount, reason, request_key, status)
       values (?, 'pi-refunded', '[]', 3000, '撮影できませんでした', ?, 'succeeded')`,
    ).run(refunded.id, `refund-${orders[3]}`);
  });
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("ikkatsu-admin"));
  const admin = await context.newPage();
  await admin.goto(`/admin/contest/${contestId}/delivery`);
  await upload(admin, ["01_縦.mp4", "No3 縦.mp4"]);

  // The plan: the refused line is neither missing nor waited for, and says it gets no video.
  const missing = admin.getByRole("region", { name: "ファイル未設定の明細" });
  await expect(missing.getByRole("row")).toHaveCount(3);
  await expect(missing).not.toContainText("伊藤 湊");
  const notes = admin.getByRole("region", { name: "お断り・返金の明細には動画を送りません" });
  await expect(notes).toContainText(`${orders[5]}（テスト 家族）: 動画 1 本を納品します。`);
  await expect(notes).toContainText(`${orders[5]}-2（演奏順 6 伊藤 湊・縦）はお断りのため動画なし`);
  const warning = admin.getByRole("group", { name: "納品する動画がない注文（1 件）" });
  const tick = warning.getByLabel(`注文 ${orders[3]}（テスト 家族・全明細返金済み）を対応済みにする`);
  await expect(tick).not.toBeChecked();
  // The markup is the same without JavaScript: axe and the photographs once, with it.
  if (jsEnabled()) expect(await axeViolations(admin)).toEqual([]);
  await photograph(admin, "batch-delivery-plan-warning");

  // The order list's 納品 offers the uploaded file instead of asking for its URL again.
  await admin.goto(`/admin/orders?q=${orders[5]}`);
  const group = admin.getByRole("listitem").filter({ hasText: `注文番号 ${orders[5]}` });
  await expect(group).toContainText("納品ファイル: No3 縦.mp4");
  await expect(group.getByLabel(`${orders[5]}-1 のダウンロードURL`)).toBeHidden();
  await expect(group.getByLabel(`${orders[5]}-2 のダウンロードURL`)).toHaveCount(0);

  // Unticked: the three ready orders are delivered, the refunded one stays open and is mailed nothing.
  await admin.goto(`/admin/contest/${contestId}/delivery`);
  await admin.getByRole("button", { name: "一括納品（3 件の注文）" }).click();
  await expect(admin.getByText(/3 件の注文を納品しました（納品メール 3 通）/)).toBeVisible({
    timeout: 30_000,
  });
  await expect(
    admin.getByText(/動画のない 1 件の注文は、確認のチェックがないため未対応のままです/),
  ).toBeVisible();
  await expect.poll(() => deliveryMails(families.d).length, { timeout: 15_000 }).toBe(1);
  expect(deliveryMails(families.d)[0]!.text).toContain("動画（1本）");

  // Ticked: closed as 対応済み without a mail.
  await admin
    .getByRole("group", { name: "納品する動画がない注文（1 件）" })
    .getByLabel(new RegExp(`注文 ${orders[3]}`))
    .check();
  await admin.getByRole("button", { name: "一括納品（0 件の注文）" }).click();
  await expect(
    admin.getByText("動画のない 1 件の注文を対応済みにしました（メールは送っていません）。"),
  ).toBeVisible();
  await expect(admin.getByRole("group", { name: /納品する動画がない注文/ })).toHaveCount(0);
  expect(deliveryMails(families.c)).toHaveLength(0);
  await context.close();
});

test("納品ファイル: a file that is not a video is refused by name and why (with JS its row says 失敗 in the server's words, and it is counted and named above a list of 8 scrolled to show it), an unknown number typed by hand is refused with what was typed kept, and a fixed match delivers", async ({
  browser,
  baseURL,
}) => {
  const { contestId, families, orders } = seedContest();
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("ikkatsu-admin"));
  const admin = await context.newPage();
  await admin.goto(`/admin/contest/${contestId}/delivery`);
  const broken = { name: "4_横.mp4", mimeType: "video/mp4", buffer: Buffer.from("not a video at all") };
  const refusal = "「4_横.mp4」は再生できる動画ではありません";

  if (!jsEnabled()) {
    // Without JavaScript the browser sends whatever was chosen: the server reads the bytes.
    await admin.getByLabel("納品する動画ファイル（複数選択できます）").setInputFiles([broken]);
    await admin.getByRole("button", { name: "アップロード", exact: true }).click();
    await expect(admin.getByText("1 件のファイルを受け付けられませんでした")).toBeVisible();
    await expect(admin.getByText(refusal)).toBeVisible();
  } else {
    // With JavaScript the bytes go up in chunks and are refused at the end. In a batch of 8 the
    // refused one is the 7th, below the fold of the list's own scroll box (about 5 rows).
    const cameras = "ABCDEFG".split("").map((letter) => video(`会場カメラ_${letter}.mp4`));
    await admin
      .getByLabel("納品する動画ファイル（複数選択できます）")
      .setInputFiles([...cameras.slice(0, 6), broken, cameras[6]!]);
    await admin.getByRole("button", { name: "アップロード", exact: true }).click();
    await expect(admin.getByText("全体 7/8 件・")).toBeVisible({ timeout: 30_000 });
    const list = admin.getByRole("list", { name: "アップロード状況" });
    const row = list.getByRole("listitem").filter({ hasText: "4_横.mp4" });
    // The server's own words, naming the file, with no full bar.
    await expect(row).toContainText("失敗");
    await expect(row).toContainText(`${refusal}（映像と長さを読み取れませんでした）`);
    await expect(row.getByRole("progressbar")).toHaveCount(0);
    // Counted and named above the list, and the list scrolled to the row.
    const summary = admin.getByRole("alert").filter({ hasText: "1 件のファイルを受け付けられませんでした" });
    await expect(summary).toContainText("4_横.mp4");
    await expect
      .poll(() =>
        row.evaluate((element) => {
          const box = element.parentElement!.getBoundingClientRect();
          const shown = element.getBoundingClientRect();
          return shown.top >= box.top && shown.bottom <= box.bottom;
        }),
      )
      .toBe(true);
    // The list's box can be scrolled from the keyboard (axe: scrollable-region-focusable).
    expect(await axeViolations(admin)).toEqual([]);
  }

  await upload(admin, ["IMG_2034.MOV"]);
  const unmatched = admin.getByRole("region", { name: /照合できないファイル/ });
  const row = unmatched.getByRole("listitem").filter({ hasText: "IMG_2034.MOV" });
  await expect(row).toBeVisible();
  await row.getByText("手動で割り当て").click();
  await row.getByLabel("演奏順").fill("99");
  await row.getByLabel("スタイル").selectOption("horizontal");
  await row.getByRole("button", { name: "割り当て", exact: true }).click();
  const again = admin.getByRole("listitem").filter({ hasText: "IMG_2034.MOV" });
  await expect(again.getByText("演奏順 99 の選手がいません")).toBeVisible();
  await expect(again.getByLabel("演奏順")).toHaveValue("99");

  await again.getByLabel("演奏順").fill("４");
  await again.getByRole("button", { name: "割り当て", exact: true }).click();
  await expect(admin.getByText("割り当てました", { exact: true })).toBeVisible();
  const matched = admin.getByRole("region", { name: /照合済みのファイル/ });
  await expect(matched.getByRole("listitem").filter({ hasText: "IMG_2034.MOV" })).toContainText(
    `納品する注文: ${orders[3]}`,
  );
  await admin.getByRole("button", { name: "一括納品（1 件の注文）" }).click();
  // Copies in the bucket and a mail: on a busy machine longer than an assertion's 10 s.
  await expect(admin.getByText(/1 件の注文を納品しました/)).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => deliveryMails(families.c).length, { timeout: 15_000 }).toBe(1);
  await context.close();
});

// Regression: with JavaScript the tab refused IMG_2207.MOV before sending it, because
// Chromium reports no type for a .MOV and the check asked for video/*. Without JavaScript the
// server reads the bytes and took it; now both take it.
test("*MOV without a type*: IMG_2207.MOV, which Chromium reports with no type, is uploaded like any video", async ({
  browser,
  baseURL,
}) => {
  const { contestId } = seedContest();
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("ikkatsu-admin"));
  const admin = await context.newPage();
  await admin.goto(`/admin/contest/${contestId}/delivery`);

  // A QuickTime file (brand qt), as an iPhone writes them.
  const buffer = fs.readFileSync(await quickTimeVideo());
  const input = admin.getByLabel("納品する動画ファイル（複数選択できます）");
  if (jsEnabled()) {
    // Playwright would give the file a type from its name: the file is made here as Chromium hands it over.
    await input.evaluate(
      (element: HTMLInputElement, bytes) => {
        const chosen = new DataTransfer();
        chosen.items.add(new File([new Uint8Array(bytes)], "IMG_2207.MOV", { type: "" }));
        element.files = chosen.files;
        element.dispatchEvent(new Event("change", { bubbles: true }));
      },
      [...buffer],
    );
    expect(await input.evaluate((element: HTMLInputElement) => element.files?.[0]?.type)).toBe("");
  } else {
    await input.setInputFiles([{ name: "IMG_2207.MOV", mimeType: "", buffer }]);
  }
  await expect(admin.getByText("動画ファイル（MP4・MOV・WebM）を選択してください")).toHaveCount(0);
  await admin.getByRole("button", { name: "アップロード", exact: true }).click();
  if (jsEnabled()) await expect(admin.getByText("全体 1/1 件・100%")).toBeVisible();
  else await expect(admin.getByText("アップロード完了")).toBeVisible();
  await expect(admin.getByText("動画ファイル（MP4・MOV・WebM）を選択してください")).toHaveCount(0);
  // A camera's name has no athlete number: the file waits for a hand match.
  const unmatched = admin.getByRole("region", { name: /照合できないファイル/ });
  await expect(unmatched.getByRole("listitem").filter({ hasText: "IMG_2207.MOV" })).toBeVisible();
  await context.close();
});
