// The free-space reserve (decision 0042) on a disk the test describes: the shop reads free space
// through core/disk.server.ts, whose reader a test may replace (readDiskSpaceWith), so the rules
// are checked on every machine. tests/server/core/disk-full.test.ts checks them on a real small disk.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { action as contentAction } from "~/routes/admin/contest/content";
import { action as deliveryAction } from "~/routes/admin/contest/delivery";
import { loader as securityLoader } from "~/routes/admin/security";
import { action as initAction } from "~/routes/api/media/chunked-init";
import { action as chunkAction } from "~/routes/api/media/chunked-upload";
import { loader as metricsLoader } from "~/routes/system/metrics";
import { loader as readyLoader } from "~/routes/system/readyz";
import { diskReserveBytes, readDiskSpaceWith, type DiskSpace } from "~/server/core/disk.server";
import { parseEnv } from "~/server/core/env.server";
import { readiness } from "~/server/metrics/readiness.server";
import { checkoutUntilConfirmed } from "../../helpers/checkout-flow";
import { parsePrometheusText, sampleValue } from "../../helpers/prometheus-text";
import { callRoute } from "../../helpers/route";
import { adminCookie, seedContest } from "../../helpers/shop";

const MIB = 1024 ** 2;
/** Disks and the reserve in decimal megabytes, as DISK_RESERVE_MB and the messages count them. */
const MB = 1_000_000;
/** Over the 1 MiB a file is written in at a time: a chunk is two writes, each checked. */
const CHUNK = 1.5 * MIB;
process.env.UPLOAD_CHUNK_BYTES = String(CHUNK);

/** A 300 MB volume (reserve 30 MB) with `free` bytes free, as statfs would say. */
function volume(free: number): DiskSpace {
  return { freeBytes: free, sizeBytes: 300 * MB };
}
let disk = volume(200 * MB);
const restore = readDiskSpaceWith(async () => disk);
afterEach(() => {
  disk = volume(200 * MB);
});

let admin = "";
let shop: ReturnType<typeof seedContest>;
beforeAll(async () => {
  admin = await adminCookie();
  shop = seedContest();
  return restore;
});

const scratch = () => path.join(path.resolve(process.env.MEDIA_DIR!), "uploads");
const scratchFiles = () => (fs.existsSync(scratch()) ? fs.readdirSync(scratch()) : []);
const refusedFor = (free: string) =>
  `サーバーの空き容量が足りないため、アップロードできません（空き ${free}、ご注文の受付のために残す容量 30 MB`;

function init(fileSize: number) {
  return callRoute(
    initAction,
    new Request(`http://shop.test/api/video/contests/${shop.contestId}/media/chunked-init`, {
      method: "POST",
      body: JSON.stringify({
        fileName: `大会-${fileSize}.mp4`,
        fileSize,
        totalChunks: Math.ceil(fileSize / CHUNK),
        contentType: "video/mp4",
        mediaType: "video",
        category: "sample",
      }),
      headers: { "Content-Type": "application/json", Cookie: admin },
    }),
    { id: String(shop.contestId) },
  );
}

/** One chunk; `body` lets the test say how its bytes come (a stream that fills the disk meanwhile). */
function sendChunk(uploadId: string, index: number, bytes: Uint8Array, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.set("uploadId", uploadId);
  form.set("chunkIndex", String(index));
  form.set("chunk", new Blob([new Uint8Array(bytes)]), "blob");
  const encoded = new Response(form);
  return callRoute(
    chunkAction,
    new Request(`http://shop.test/api/video/contests/${shop.contestId}/media/chunked-upload`, {
      method: "POST",
      body: encoded.body,
      duplex: "half",
      headers: { Cookie: admin, "Content-Type": encoded.headers.get("Content-Type")!, ...headers },
    } as RequestInit),
    { id: String(shop.contestId) },
  );
}

function formPost(url: string, field: string, bytes: number) {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type: "video/mp4" }), "大会.mp4");
  return new Request(`http://shop.test${url}`, { method: "POST", body: form, headers: { Cookie: admin } });
}

describe("the reserve", () => {
  it("the reserve on a 300 MB volume is 30 MB (a tenth), on a big one DISK_RESERVE_MB (512 MB by default)", () => {
    expect(diskReserveBytes(300 * MB)).toBe(30 * MB);
    expect(diskReserveBytes(100_000 * MB)).toBe(512 * MB);
    expect(diskReserveBytes(100_000 * MB, 2048)).toBe(2048 * MB);
    expect(parseEnv({}).DISK_RESERVE_MB).toBe(512);
    expect(parseEnv({ DISK_RESERVE_MB: "100" }).DISK_RESERVE_MB).toBe(100);
    for (const bad of ["0", "-1", "1.5", "many"])
      expect(() => parseEnv({ DISK_RESERVE_MB: bad })).toThrowError(
        /DISK_RESERVE_MB: 1〜1048576 の整数（MB）/,
      );
  });

  it("a 300 MB volume with 31 MB free is ready: /readyz asks for its reserve, not 512 MB of every disk", async () => {
    disk = volume(31 * MB);
    expect(await readiness()).toEqual({ ready: true });
  });

  it("disk full: an upload that would cross the reserve is refused with the message, an order is still taken", async () => {
    const started = await init(4 * CHUNK);
    expect(started.status).toBe(200);
    const { uploadId } = started.data as { uploadId: string };

    disk = volume(30 * MB + 64 * 1024);
    // A new upload whose file would not fit, at its start.
    const tooBig = await init(MB);
    expect(tooBig.status).toBe(413);
    expect((tooBig.data as { message: string }).message).toBe(
      `${refusedFor("30.1 MB")}、このファイル 1 MB）。不要なファイルを削除するか、ディスクの容量を増やしてから、もう一度お試しください。`,
    );
    // A chunk that says its size is refused before a byte is read; the form (JavaScript off), the
    // delivery tab's form and a cover alike.
    const chunk = await sendChunk(uploadId, 0, new Uint8Array(CHUNK), {
      "Content-Length": String(CHUNK + 400),
    });
    expect(chunk.status).toBe(413);
    expect((chunk.data as { message: string }).message).toContain(refusedFor("30.1 MB"));
    const content = await callRoute(
      contentAction,
      formPost(`/admin/contest/${shop.contestId}/content`, "file", 512 * 1024),
      { id: String(shop.contestId) },
    );
    expect([content.status, (content.data as { uploadError: string }).uploadError]).toEqual([
      413,
      expect.stringContaining(refusedFor("30.1 MB")),
    ]);
    const delivery = await callRoute(
      deliveryAction,
      formPost(`/admin/contest/${shop.contestId}/delivery?intent=upload`, "files", 512 * 1024),
      { id: String(shop.contestId) },
    );
    expect([delivery.status, (delivery.data as { error: string }).error]).toEqual([
      413,
      expect.stringContaining(refusedFor("30.1 MB")),
    ]);
    expect(scratchFiles().filter((name) => !name.endsWith(".part"))).toEqual([]);

    // The parent's order is written all the same: the reserve is there for it.
    const { cookie } = await checkoutUntilConfirmed(shop, [
      { athleteId: shop.onSale.id, category: "A部門", formatId: shop.vertical.id },
    ]);
    expect(cookie).not.toBe("");
  });

  it("a chunk that crosses the reserve while it streams is stopped, and its bytes given back", async () => {
    const started = await init(3 * CHUNK);
    const { uploadId } = started.data as { uploadId: string };
    expect((await sendChunk(uploadId, 0, new Uint8Array(CHUNK).fill(1))).status).toBe(200);
    const part = path.join(
      scratch(),
      scratchFiles().find((name) => name.startsWith(uploadId))!,
    );
    expect(fs.statSync(part).size).toBe(CHUNK);

    // The disk fills (another upload, a job) while the chunk streams: its first megabyte is
    // written, its second finds the disk at the reserve.
    let reads = 0;
    const restoreReader = readDiskSpaceWith(async () => (++reads > 1 ? volume(30 * MB) : volume(200 * MB)));
    const stopped = await sendChunk(uploadId, 1, new Uint8Array(CHUNK).fill(2)).finally(restoreReader);
    expect(stopped.status).toBe(413);
    expect((stopped.data as { message: string }).message).toContain(refusedFor("30 MB"));
    expect(fs.statSync(part).size).toBe(CHUNK);

    // With room again, the upload goes on from the chunk it had.
    expect((await sendChunk(uploadId, 1, new Uint8Array(CHUNK).fill(2))).status).toBe(200);
    expect(fs.statSync(part).size).toBe(2 * CHUNK);
  });

  it("/readyz explains the reserve; システム状態 and /metrics show it", async () => {
    disk = volume(20 * MB);
    const why = "disk below its reserve (20 MB free of 300 MB; reserve 30 MB)";
    expect(await readiness()).toEqual({ ready: false, failed: [why] });
    const readyz = async (address: string) => {
      const request = new Request("http://localhost/readyz", {
        headers: { "X-Shop-Client-Address": address },
      });
      const answer = await readyLoader({ request, params: {}, context: {} });
      return [answer.status, await answer.text()];
    };
    // To the internet the check; to this machine and the private network its figures too.
    expect(await readyz("203.0.113.7")).toEqual([503, "not ready: disk below its reserve"]);
    expect(await readyz("127.0.0.1")).toEqual([503, `not ready: ${why}`]);

    const system = await callRoute(
      securityLoader,
      new Request("http://shop.test/admin/security?tab=system", { headers: { Cookie: admin } }),
    );
    expect((system.data as { disks: unknown }).disks).toEqual([
      expect.objectContaining({
        holds: ["データベース", "動画・画像・納品ファイル"],
        freeBytes: 20 * MB,
        sizeBytes: 300 * MB,
        reserveBytes: 30 * MB,
        belowReserve: true,
      }),
    ]);

    const scraped = await metricsLoader({
      request: new Request("http://localhost/metrics", { headers: { "X-Shop-Client-Address": "127.0.0.1" } }),
      params: {},
      context: {},
    });
    const families = parsePrometheusText(await scraped.text());
    expect(sampleValue(families, "shop_disk_free_bytes", { volume: "database" })).toBe(20 * MB);
    expect(sampleValue(families, "shop_disk_total_bytes", { volume: "database" })).toBe(300 * MB);
    expect(sampleValue(families, "shop_disk_reserve_bytes", { volume: "database" })).toBe(30 * MB);
  });
});
