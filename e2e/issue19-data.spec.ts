import { expect, test } from "@playwright/test";
import { jsEnabled, uniqueEmail } from "./helpers";
import { loginAsAdmin } from "./users";

const TAKEN = (name: string) =>
  `「${name}」と同じURLになるため、この大会名は使えません。別の大会名を入力してください。`;

test("issue 19 item 1: 新規大会追加 closes on success and refuses a second contest of the same name", async ({
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
