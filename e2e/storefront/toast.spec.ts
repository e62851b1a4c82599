import { expect, test, type Locator, type Page } from "@playwright/test";
import { insertOrder } from "../support/account-helpers";
import { uniqueEmail } from "../support/helpers";
import { createContest } from "../support/contests";
import { loginAsAdmin } from "../support/users";

type Box = { x: number; y: number; width: number; height: number };
const apart = (a: Box, b: Box) =>
  a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

/** The boxes of every control inside a locator (viewport coordinates, as the toast's). */
async function controlBoxes(scope: Locator): Promise<Box[]> {
  return scope.evaluate((element) =>
    [...element.querySelectorAll("a, button, input, select, textarea, summary")]
      .map((control) => control.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0)
      .map(({ x, y, width, height }) => ({ x, y, width, height })),
  );
}

/** Whether a click at the middle of the locator lands on it (not on a backdrop or anything else over it). */
async function reachable(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  if (!box) return false;
  const handle = await target.elementHandle();
  return page.evaluate(
    ({ x, y, element }) => {
      const hit = document.elementFromPoint(x, y);
      return !!hit && !!element && (element === hit || element.contains(hit));
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2, element: handle },
  );
}

test("after a save on an admin tab the toast covers neither the tabs nor the saved section, and closes", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("toast-admin"));
  const editPage = await createContest(page, `通知の位置 ${test.info().project.name} ${Date.now()}`);
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`${editPage}/settings`);
    const basic = page.getByRole("region", { name: "基本情報" });
    await basic.getByRole("button", { name: "基本情報を保存" }).click();
    const toast = page.getByRole("status").filter({ hasText: "大会名と番号欄の名前を保存しました。" });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText("保存しました");

    const card = page.locator("details").filter({ has: toast });
    const toastBox = await card.boundingBox();
    expect(toastBox).not.toBeNull();
    if (!toastBox) return;
    // On the screen, at its bottom (where a save does not scroll to), at most 420 px wide.
    expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(viewport.height);
    expect(toastBox.y).toBeGreaterThan(viewport.height / 2);
    expect(toastBox.width).toBeLessThanOrEqual(420);
    for (const [what, scope] of [
      ["管理メニュー", page.getByRole("navigation", { name: "管理メニュー" })],
      ["大会編集メニュー", page.getByRole("navigation", { name: "大会編集メニュー" })],
      ["基本情報", basic],
    ] as const) {
      for (const box of await controlBoxes(scope))
        expect(apart(toastBox, box), `${what} at ${viewport.width}px`).toBe(true);
    }
    // The saved section's button takes a click again, and the toast's own close button works (no JS needed).
    expect(await reachable(page, basic.getByRole("button", { name: "基本情報を保存" }))).toBe(true);
    await card.getByLabel("閉じる").click();
    await expect(toast).toBeHidden();
  }
});

test("with a dialog open the toast stays visible above its backdrop and can be closed @js-only", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("toast-dialog"));
  const name = `通知とダイアログ ${Date.now()}`;
  await createContest(page, name);
  await page.goto("/admin");
  const row = page.getByRole("row").filter({ hasText: name });
  await row.getByRole("button", { name: /の写真: 非公開/ }).click();
  const toast = page.getByRole("status").filter({ hasText: "更新完了" });
  await expect(toast).toBeVisible();

  await page.getByRole("link", { name: "新規大会追加" }).click();
  const dialog = page.getByRole("dialog", { name: "新規大会追加" });
  await expect(dialog).toBeVisible();
  await expect(toast).toBeVisible();
  // Not under the backdrop: a click on it reaches it, and its close button works while the dialog is open.
  expect(await reachable(page, toast)).toBe(true);
  await page.locator("details").filter({ has: toast }).getByLabel("閉じる").click();
  await expect(toast).toBeHidden();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "閉じる" }).click();
  await expect(dialog).toBeHidden();
});

test("after an action on the order list the line it reports on is in view and clear of the toast", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL ?? "", uniqueEmail("toast-orders"));
  // Six open lines: the fifth starts below the fold of a desktop screen when the list opens.
  const orderNumber = insertOrder(
    uniqueEmail("toast-orders-parent"),
    [1, 2, 3, 4, 5, 6].map((n) => ({ category: "キッズ部門", athleteNumber: n, style: "縦", price: 3000 })),
  );
  for (const [viewport, n] of [
    [{ width: 1280, height: 800 }, 5],
    [{ width: 390, height: 844 }, 4],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(`/admin/orders?tab=pending&q=${orderNumber}`);
    const line = page.getByRole("row").filter({ hasText: `${orderNumber}-${n}` });
    await line.getByText("お断りにする（制作できない場合）").click();
    await line.getByRole("textbox", { name: /のお客様へのお知らせ/ }).fill("撮影できませんでした。");
    await line.getByRole("checkbox", { name: /を返金する/ }).uncheck();
    await line.getByRole("button", { name: "お断りにしてお客様に知らせる" }).click();

    const card = page.locator("details.toast-life");
    await expect(card).toContainText("お断りにしました");
    await expect(line).toContainText("撮影できませんでした。");
    const [toastBox, lineBox] = [await card.boundingBox(), await line.boundingBox()];
    expect(toastBox && lineBox).toBeTruthy();
    if (!toastBox || !lineBox) return;
    // The refused line, its price and its note, whole on the screen and under no toast.
    expect(lineBox.y, `at ${viewport.width}px`).toBeGreaterThanOrEqual(0);
    expect(lineBox.y + lineBox.height, `at ${viewport.width}px`).toBeLessThanOrEqual(viewport.height);
    expect(apart(toastBox, lineBox), `at ${viewport.width}px`).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`order-list-toast-${viewport.width}.png`) });
  }
});
