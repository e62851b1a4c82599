import { expect, test } from "@playwright/test";
import { HELD_UNTIL, withDb } from "../support/db";
import { uniqueEmail } from "../support/helpers";
import { loginAsAdmin } from "../support/users";

/**
 * A scheduled snapshot that fails is never silent in the back-office: セキュリティ監視's
 * 概要 says so and links to システム状態, which shows where snapshots go, the last good one and
 * the failures with their reasons. With JavaScript on and off. The failure is written as the
 * scheduler writes it, dated ahead so the e2e server's own snapshots (every 15 minutes) do not
 * clear it while the test looks.
 */
test("a failed snapshot is shown on 概要 and in システム状態 with its reason, and gone once cleared", async ({
  page,
  context,
  baseURL,
}) => {
  await loginAsAdmin(context, baseURL!, uniqueEmail("backup-admin"));
  const reason = `ENOSPC: no space left on device（${Math.random().toString(36).slice(2, 8)}）`;
  const id = withDb(
    (db) =>
      db
        .prepare(
          "insert into backup_runs (started_at, finished_at, status, attempt, error) values (?, ?, 'failed', 3, ?) returning id",
        )
        .get(HELD_UNTIL, HELD_UNTIL, reason) as { id: number },
  ).id;
  try {
    await page.goto("/admin/security");
    const warning = page.getByRole("alert").filter({ hasText: "データベースのバックアップが失敗しています" });
    await expect(warning).toBeVisible();
    await warning.getByRole("link", { name: "システム状態を見る" }).click();
    await expect(page).toHaveURL(/tab=system/);

    const panel = page.getByRole("region", { name: "データベースのバックアップ" });
    await expect(panel).toContainText("失敗しています");
    await expect(panel).toContainText("15 分ごと");
    // The e2e server keeps them in a folder (BACKUP_DIR), which the panel says is on this machine.
    await expect(panel).toContainText("ボリュームを失うと一緒に失われます");
    await expect(panel.getByRole("alert")).toContainText(reason);
    await expect(panel.getByRole("alert")).toContainText("（3 回目）");
  } finally {
    withDb((db) => db.prepare("delete from backup_runs where id = ?").run(id));
  }
  await page.reload();
  await expect(page.getByRole("region", { name: "データベースのバックアップ" })).not.toContainText(reason);
});
