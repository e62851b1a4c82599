// The free-space reserve on a real small disk (decision 0042): this file's database and MEDIA_DIR
// are on a 64 MiB tmpfs of their own (reserve: a tenth, 6.7 MB), filled with a filler file to the
// point each test needs. Mounting needs root (the CI machines run the suite as root, as here); where
// it is impossible the tests are skipped with the reason in their name. tests/server/core/disk-reserve.test.ts
// checks the same rules on a disk the test describes, everywhere.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { action as contentAction } from "~/routes/admin/contest/content";
import { action as initAction } from "~/routes/api/media/chunked-init";
import { loader as healthLoader } from "~/routes/system/healthz";
import { diskRoom } from "~/server/core/disk.server";
import { OUT_OF_SPACE_MESSAGE } from "~/server/core/out-of-space.server";
import { db } from "~/server/db/client.server";
import { contestSlug } from "~/lib/rules/slug";
import { checkoutUntilConfirmed } from "../../helpers/checkout-flow";
import { shopRequestHandler } from "../../helpers/remix-app";
import { callRoute } from "../../helpers/route";
import { adminCookie, seedContest } from "../../helpers/shop";

const disk = await vi.hoisted(async () => {
  const { execFileSync } = await import("node:child_process");
  const { mkdirSync } = await import("node:fs");
  const { dirname, join } = await import("node:path");
  const folder = join(dirname(process.env.DATABASE_PATH!), "small-disk");
  mkdirSync(folder, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", folder], { stdio: "pipe" });
  } catch (error) {
    const said = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { folder: null, why: said || String(error) };
  }
  // Read by env() on its first call, after the imports.
  process.env.DATABASE_PATH = join(folder, "shop.db");
  process.env.MEDIA_DIR = join(folder, "media");
  process.env.BACKUP_INTERVAL_MINUTES = "0";
  return { folder, why: null };
});

const MIB = 1024 ** 2;
const filler = () => path.join(disk.folder!, "filler");

/** Fills the disk until `spare` bytes are left above its reserve (0: none; null: not a byte free). */
async function fillDisk(spare: number | null) {
  const room = await diskRoom(disk.folder!);
  const target = spare === null ? room!.freeBytes + MIB : room!.spareBytes - spare;
  const handle = fs.openSync(filler(), "a");
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (let written = 0; written < target; written += block.length)
      fs.writeSync(handle, block, 0, Math.min(block.length, target - written));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC" || spare !== null) throw error;
  } finally {
    fs.closeSync(handle);
  }
}

/** A form post whose body does not say its size (as a client streaming it may): it is watched as it streams. */
function unsizedPost(url: string, fields: FormData, cookie: string): Request {
  const encoded = new Response(fields);
  return new Request(url, {
    method: "POST",
    body: encoded.body,
    duplex: "half",
    headers: { Cookie: cookie, "Content-Type": encoded.headers.get("Content-Type")! },
  } as RequestInit);
}

describe.skipIf(!disk.folder)(
  disk.folder
    ? "on a 64 MiB disk"
    : `on a 64 MiB disk (skipped: no tmpfs could be mounted here: ${disk.why})`,
  () => {
    let admin = "";
    let shop: ReturnType<typeof seedContest>;

    beforeAll(async () => {
      admin = await adminCookie();
      shop = seedContest();
    });
    afterEach(() => fs.rmSync(filler(), { force: true }));
    afterAll(() => {
      db().$client.close();
      // Lazily: whatever the shop's loops still hold open is let go with the process.
      execFileSync("umount", ["-l", disk.folder!]);
    });

    it("disk full: an upload that would cross the reserve is refused with the message, an order is still taken", async () => {
      const before = (await diskRoom(disk.folder!))!;
      expect(before.reserveBytes).toBe(Math.floor(before.sizeBytes / 10));
      await fillDisk(2 * MIB);

      // A plain form's file (JavaScript off), 3 MiB: stopped as it streams, nothing of it left.
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(3 * MIB)], { type: "video/mp4" }), "大会.mp4");
      const refused = await callRoute(
        contentAction,
        unsizedPost(`http://shop.test/admin/contest/${shop.contestId}/content`, form, admin),
        { id: String(shop.contestId) },
      );
      expect(refused.status).toBe(413);
      expect((refused.data as { uploadError: string }).uploadError).toMatch(
        /^サーバーの空き容量が足りないため、アップロードできません（空き .+、ご注文の受付のために残す容量 6\.7 MB）。不要なファイルを削除するか/,
      );
      const scratch = path.join(process.env.MEDIA_DIR!, "uploads");
      expect(fs.existsSync(scratch) ? fs.readdirSync(scratch) : []).toEqual([]);
      expect((await diskRoom(disk.folder!))!.spareBytes).toBeGreaterThan(MIB);

      // A chunked upload whose whole file would not fit is refused at its start.
      const init = await callRoute(
        initAction,
        new Request(`http://shop.test/api/video/contests/${shop.contestId}/media/chunked-init`, {
          method: "POST",
          body: JSON.stringify({
            fileName: "本番.mp4",
            fileSize: 3 * MIB,
            totalChunks: 1,
            contentType: "video/mp4",
            mediaType: "video",
            category: "sample",
          }),
          headers: { "Content-Type": "application/json", Cookie: admin },
        }),
        { id: String(shop.contestId) },
      );
      expect(init.status).toBe(413);
      expect((init.data as { message: string }).message).toContain("このファイル 3.1 MB");

      // The parent's order goes through: the reserve is there for it.
      const { cookie } = await checkoutUntilConfirmed(shop, [
        { athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id },
      ]);
      expect(cookie).not.toBe("");
    });

    it("SQLITE_FULL answers 503 with the page, not 500 (and the order is taken again once there is room)", async () => {
      const handle = await shopRequestHandler({
        "routes/storefront/order-form": {
          path: "order-form/:contestSlug",
          file: () => import("~/routes/storefront/order-form"),
        },
        "routes/api/contests": { path: "api/video/contests", file: () => import("~/routes/api/contests") },
      });
      const slug = contestSlug(shop.name);
      const order = (suffix = "") =>
        new Request(`http://shop.test/order-form/${encodeURIComponent(slug)}${suffix}`, {
          method: "POST",
          body: new URLSearchParams([
            ["intent", "next"],
            ["items[0].category", "A部門"],
            ["items[0].athleteId", String(shop.onSale.id)],
            ["items[0].formatId", String(shop.vertical.id)],
          ]),
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        });

      // Before each post, the WAL emptied and the disk filled to the last byte: the post's first
      // write must grow a file (what a failed write left behind is not counted on).
      const full = async () => {
        db().$client.pragma("wal_checkpoint(TRUNCATE)");
        await fillDisk(null);
      };

      // JavaScript off: the order form's post is a document.
      await full();
      const page = await handle(order());
      expect(page.status).toBe(503);
      expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain(OUT_OF_SPACE_MESSAGE);
      expect(html).toContain("ただいまご利用いただけません");
      // JavaScript on: the same post as single-fetch data carries the 503 to the page's boundary.
      await full();
      const data = await handle(order(".data"));
      expect(data.status).toBe(503);
      expect(await data.text()).toContain(OUT_OF_SPACE_MESSAGE);
      // The JSON API: an admin's new contest.
      await full();
      const api = await handle(
        new Request("http://shop.test/api/video/contests", {
          method: "POST",
          body: JSON.stringify({ name: "満杯の日の大会" }),
          headers: { "Content-Type": "application/json", Cookie: admin },
        }),
      );
      expect(api.status).toBe(503);
      expect(await api.json()).toEqual({ error: "容量不足", message: OUT_OF_SPACE_MESSAGE });
      // /healthz stays "alive" meanwhile (the process answers, the database reads).
      const health = await healthLoader();
      expect([health.status, await health.text()]).toEqual([200, "ok"]);

      fs.rmSync(filler());
      const again = await handle(order());
      expect(again.status).toBe(302);
      expect(again.headers.get("Location")).toBe("/order-confirmation");
    });
  },
);
