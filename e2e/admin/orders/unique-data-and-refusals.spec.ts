import { expect, test, type Page } from "@playwright/test";
import { slugKey } from "../../../app/lib/rules/slug";
import { jsEnabled, uniqueEmail, waitForMail } from "../../support/helpers";
import { withDb } from "../../support/db";
import { loginAsAdmin } from "../../support/users";

const TAKEN = (name: string) =>
  `「${name}」と同じURLになるため、この大会名は使えません。別の大会名を入力してください。`;

test("新規大会追加 closes on success and refuses a second contest of the same name", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("contest-slug-admin"));
  const name = `同名テスト大会 ${test.info().project.name} ${Date.now()}`;
  await page.goto("/admin");
  const dialog = page.getByRole("dialog", { name: "新規大会追加" });

  const openForm = async () => {
    await page.getByRole("link", { name: "新規大会追加" }).click();
    if (jsEnabled()) await expect(dialog).toBeVisible();
    else await expect(page).toHaveURL(/\/admin\/contests\/new$/);
  };

  await openForm();
  await page.getByLabel("大会名").fill(name);
  await page.getByRole("button", { name: "追加", exact: true }).click();
  await expect(page.getByText("追加完了")).toBeVisible();
  await expect(page.getByRole("rowheader", { name, exact: true })).toHaveCount(1);
  if (jsEnabled()) await expect(dialog).toBeHidden();
  else await expect(page).toHaveURL(/\/admin$/);

  // Opened again, the form is empty; the same name (spaced differently) is refused under the field.
  await openForm();
  await expect(page.getByLabel("大会名")).toHaveValue("");
  const again = `  ${name.replace("同名テスト大会 ", "同名テスト大会")}`;
  await page.getByLabel("大会名").fill(again);
  await page.getByRole("button", { name: "追加", exact: true }).click();
  await expect(page.getByText(TAKEN(name))).toBeVisible();
  await expect(page.getByLabel("大会名")).toHaveValue(again);
  if (jsEnabled()) await expect(dialog).toBeVisible();
  await expect(page.getByLabel("大会名")).toHaveAttribute("aria-invalid", "true");

  await page.goto("/admin");
  await expect(page.getByRole("rowheader", { name, exact: true })).toHaveCount(1);

  // Renaming another contest to the taken name is refused on 大会設定, the typed name kept.
  const other = `改名テスト大会 ${test.info().project.name} ${Date.now()}`;
  await openForm();
  await page.getByLabel("大会名").fill(other);
  await page.getByRole("button", { name: "追加", exact: true }).click();
  await expect(page.getByText("追加完了")).toBeVisible();
  await page.getByRole("link", { name: `${other}を編集` }).click();
  await page.getByRole("link", { name: "大会設定" }).click();
  const basic = page.getByRole("region", { name: "基本情報" });
  await basic.getByLabel("大会名").fill(name);
  await basic.getByRole("button", { name: "基本情報を保存" }).click();
  await expect(basic.getByText(TAKEN(name))).toBeVisible();
  await expect(basic.getByLabel("大会名")).toHaveValue(name);
  await expect(page.getByRole("heading", { level: 1, name: other })).toBeVisible();
});

/** A contest of the test's own with athletes 1..n named 選手1..選手n. */
function seedContestWithAthletes(name: string, howMany: number): number {
  return withDb((db) => {
    const { id } = db
      .prepare("insert into contests (name, slug_key) values (?, ?) returning id")
      .get(name, slugKey(name)) as { id: number };
    db.prepare(
      "insert into video_formats (contest_id, name, display_order) values (?, '縦', 0), (?, '横', 1)",
    ).run(id, id);
    const athlete = db.prepare(
      "insert into athletes (contest_id, athlete_number, name, vertical_video_price, horizontal_video_price) values (?, ?, ?, 5000, 5000)",
    );
    for (let n = 1; n <= howMany; n++) athlete.run(id, n, `選手${n}`);
    return id;
  });
}

const athleteRow = (page: Page, name: string) => page.getByRole("row", { name, exact: true });

test("two athletes of one contest cannot share a number", async ({ page, context, baseURL }) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("athlete-number-admin"));
  const contestId = seedContestWithAthletes(`番号重複テスト ${test.info().project.name} ${Date.now()}`, 3);
  await page.goto(`/admin/contest/${contestId}`);

  // Row edit: another athlete's number is refused under the field, the typed values kept.
  const second = athleteRow(page, "2 選手2");
  await second.getByLabel("ゼッケン番号").fill("1");
  await second.getByLabel("選手名").fill("佐藤 二郎");
  await second.getByRole("button", { name: "2 選手2を保存" }).click();
  const refusedRow = page.getByRole("row", { name: /選手2|佐藤 二郎/ });
  await expect(refusedRow.getByText("番号1は「選手1」が使用中です")).toBeVisible();
  await expect(refusedRow.getByLabel("ゼッケン番号")).toHaveValue("1");
  await expect(refusedRow.getByLabel("選手名")).toHaveValue("佐藤 二郎");
  expect(
    withDb((db) =>
      db
        .prepare("select athlete_number as n from athletes where contest_id = ? and name = '選手2'")
        .get(contestId),
    ),
  ).toEqual({ n: 2 });

  // A deleted athlete's number is free: delete 選手1, then 選手2 may take 1.
  await page.goto(`/admin/contest/${contestId}`);
  await athleteRow(page, "1 選手1").getByRole("button", { name: "1 選手1を削除" }).click();
  await expect(athleteRow(page, "1 選手1")).toHaveCount(0);
  await athleteRow(page, "2 選手2").getByLabel("ゼッケン番号").fill("1");
  await athleteRow(page, "2 選手2").getByRole("button", { name: "2 選手2を保存" }).click();
  await expect(athleteRow(page, "1 選手2")).toBeVisible();

  // Bulk: restoring 選手1 now would make a pair; refused naming the rows, nothing restored.
  await page.getByRole("link", { name: "削除済み（1）" }).click();
  await page.getByRole("checkbox", { name: "1 選手1を選択" }).check();
  await page
    .getByRole("form", { name: "選択した選手の一括操作" })
    .getByRole("button", { name: "選択した選手を復元" })
    .click();
  await expect(
    page
      .getByText("同じ番号の選手がいるため復元できません（番号1「選手1」は選手「選手2」が使っています）。", {
        exact: false,
      })
      // With JS the page's notice repeats the bulk form's message.
      .first(),
  ).toBeVisible();
  await page.goto(`/admin/contest/${contestId}?view=deleted`);
  await expect(athleteRow(page, "1 選手1")).toBeVisible();
  expect(
    withDb((db) =>
      db.prepare("select count(*) as n from athletes where contest_id = ? and is_deleted = 0").get(contestId),
    ),
  ).toEqual({ n: 2 });
});

/** A paid order of a contest of its own, two lines (縦 and 横), waiting in the 未対応 tab. */
function seedPaidOrder(label: string) {
  const name = `お断りテスト ${label} ${Date.now()}`;
  const number = `7${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`;
  const email = `refusal-${number}@example.jp`;
  return withDb((db) => {
    const contest = db
      .prepare("insert into contests (name, slug_key) values (?, ?) returning id")
      .get(name, slugKey(name)) as { id: number };
    const order = db
      .prepare(
        "insert into orders (status_token, order_number, checkout_id, payment_intent_id, contest_id, contest_name, bib_number_label, customer_email, customer_name, total_amount, line_count, paid_at) values (lower(hex(randomblob(16))), ?, ?, ?, ?, ?, '演奏順', ?, 'お断り 花子', 7500, 2, ?) returning id, status_token as token",
      )
      .get(number, `refusal-${number}`, `pi_refusal_${number}`, contest.id, name, email, Date.now()) as {
      id: number;
      token: string;
    };
    const line = db.prepare(
      "insert into order_lines (order_id, line_number, contest_name, category, athlete_number, athlete_name, style, orientation, price) values (?, ?, ?, 'A部門', ?, ?, ?, ?, ?)",
    );
    line.run(order.id, `${number}-1`, name, 1, "山田 花子", "縦", "vertical", 3000);
    line.run(order.id, `${number}-2`, name, 2, "佐藤 美緒", "横", "horizontal", 4500);
    return { number, email, token: order.token, contestId: contest.id };
  });
}

test("お断り of an order line with a note to the customer, its undo, and delivery without it", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("refusal-admin"));
  const { number, email, token } = seedPaidOrder(test.info().project.name);
  const list = `/admin/orders?tab=pending&q=${number}`;
  await page.goto(list);
  const group = page.locator(`[data-order="${number}"]`);
  const note = "当日の撮影に不具合があり、この演技の動画をご用意できませんでした。";

  const refuse = async () => {
    await group.getByText("お断りにする（制作できない場合）").first().click();
    await group.getByLabel(`${number}-1 のお客様へのお知らせ`).fill(note);
    // The refund is left for later here (its order's payment is made up): refunds-admin.spec.ts
    // refunds in the same step.
    await group
      .getByRole("checkbox", { name: /この明細の代金（[\d,]+円）を返金する/ })
      .first()
      .uncheck();
    await group.getByRole("button", { name: "お断りにしてお客様に知らせる" }).first().click();
    await expect(page.getByText("お断りにしました")).toBeVisible();
  };
  await refuse();
  const refusedRow = group.getByRole("row").filter({ hasText: `${number}-1` });
  await expect(refusedRow.getByText("お断り", { exact: true })).toBeVisible();
  // Refused without its refund: marked, so the money owed is not forgotten.
  await expect(refusedRow.getByText("未返金", { exact: true })).toBeVisible();
  await expect(refusedRow.getByText(note)).toBeVisible();
  await expect(group.getByLabel(`${number}-1 のダウンロードURL`)).toHaveCount(0);
  const mail = await waitForMail(email);
  expect(mail.subject).toContain(`動画制作のお断りについて（注文番号 ${number}）`);
  expect(mail.text).toContain(note);

  // The customer's status page shows the line as お断り with the note.
  const customer = await context.browser()!.newPage();
  await customer.goto(`${baseURL}/orders/${token}`);
  await expect(customer.getByText("この動画は制作できませんでした")).toBeVisible();
  await expect(customer.getByText(note)).toBeVisible();

  // Undo, and the customer is told.
  await group.getByRole("button", { name: `${number}-1 のお断りを取り消す` }).click();
  await expect(page.getByText("お断りを取り消しました")).toBeVisible();
  await expect(group.getByLabel(`${number}-1 のダウンロードURL`)).toBeVisible();
  expect((await waitForMail(email, 2)).subject).toContain("お断りの取り消し");

  // Refused again, 納品 needs only the other line's URL.
  await refuse();
  await group.getByLabel(`${number}-2 のダウンロードURL`).fill("https://videos.example.jp/refusal-2.mp4");
  await group.getByRole("button", { name: "納品", exact: true }).click();
  await expect(page.getByText("納品処理完了")).toBeVisible();
  await page.goto(`/admin/orders?tab=handled&q=${number}`);
  await expect(group.getByText(note)).toBeVisible();
  const downloadPath = await group.getByRole("link", { name: "ダウンロードページ" }).getAttribute("href");
  await customer.goto(`${baseURL}${downloadPath}`);
  await expect(customer.getByText("この動画は制作できませんでした")).toBeVisible();
  await expect(customer.getByText(note)).toBeVisible();
  await expect(customer.getByRole("link", { name: "横型ダウンロード" })).toBeVisible();
  await customer.close();
});

test("the order list's URL inputs use the row's width on phone and desktop", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("url-width-admin"));
  const { number } = seedPaidOrder(`url ${test.info().project.name}`);
  for (const [width, height, atLeast] of [
    [390, 844, 0.85],
    [1280, 800, 0.6],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/admin/orders?tab=pending&q=${number}`);
    const group = page.locator(`[data-order="${number}"]`);
    const input = group.getByLabel(`${number}-1 のダウンロードURL`);
    const url = `https://videos.example.jp/contest/2026/${"long-folder-name/".repeat(3)}refusal-1.mp4`;
    await input.fill(url);
    const inputBox = (await input.boundingBox())!;
    const rowBox = (await group
      .getByRole("row")
      .filter({ hasText: `${number}-1` })
      .boundingBox())!;
    expect(inputBox.width / rowBox.width).toBeGreaterThanOrEqual(atLeast);
    // Nothing sticks out of the page sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
});
