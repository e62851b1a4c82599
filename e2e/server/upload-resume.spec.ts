import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { objectStorage } from "../support/work-dir";

// An HTTP test against a server of its own (not the shared e2e server): run in the js project only (playwright.config.ts).

/**
 * The whole suite runs on a small shared box, so by default 256 MiB (6 chunks of 50 MiB);
 * UPLOAD_RESUME_BYTES=1073741824 runs the full 1 GiB of the issue.
 */
const BYTES = process.env.UPLOAD_RESUME_BYTES ?? String(256 * 1024 * 1024);

test("a large upload in 50 MiB chunks survives a SIGKILL of the server mid-chunk and ends with the same SHA-256", async () => {
  test.setTimeout(300_000);
  const root = path.resolve(import.meta.dirname, "../..");
  const { stdout } = await promisify(execFile)(process.execPath, ["scripts/bench/upload-resume.mjs", BYTES], {
    cwd: root,
    maxBuffer: 1024 * 1024,
    // The js-s3 project: the same upload into object storage (an S3 multipart upload, resumed from ListParts).
    env: { ...process.env, BENCH_STORAGE: objectStorage() ? "s3" : "local" },
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`upload-resume failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
  });
  const result = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Record<string, unknown>;
  test.info().annotations.push({ type: "upload-resume", description: JSON.stringify(result) });
  expect(result.storage).toBe(objectStorage() ? "s3" : "local");
  expect(result.bytes).toBe(Number(BYTES));
  expect(result.chunkSize).toBe(50 * 1024 * 1024);
  expect(result.killedMidChunk).toBe(true);
  expect(result.interruptedChunk).not.toBe("stored");
  expect(result.sameUploadId).toBe(true);
  expect(result.resumedFrom).toBe(result.killedDuringChunk);
  expect(result.sha256Stored).toBe(result.sha256Expected);
  // Streaming keeps the server small: it grows by tens of MiB (measured 40–60), while it
  // received well over 100 MiB after the restart, which holding the file would add whole.
  expect(result.peakRssGrowthMiB).toBeLessThan(120);
});

test("graceful shutdown: a SIGTERM while a chunk is still coming slowly ends the server with exit 0, and the cut chunk is sent again to the same SHA-256", async () => {
  test.setTimeout(300_000);
  const root = path.resolve(import.meta.dirname, "../..");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["scripts/bench/upload-resume.mjs", String(150 * 1024 * 1024), "--sigterm"],
    {
      cwd: root,
      maxBuffer: 1024 * 1024,
      env: { ...process.env, BENCH_STORAGE: objectStorage() ? "s3" : "local" },
    },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`upload-resume --sigterm failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
  });
  const result = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Record<string, unknown>;
  test.info().annotations.push({ type: "upload-resume --sigterm", description: JSON.stringify(result) });
  expect(result.signal).toBe("SIGTERM");
  expect(result.stoppedBy).toBe("exit 0");
  expect(result.killedMidChunk).toBe(true);
  // The server waited for it, then closed it: nothing of it was kept as received.
  expect(result.interruptedChunk).not.toBe("stored");
  expect(result.resumedFrom).toBe(result.killedDuringChunk);
  expect(result.sha256Stored).toBe(result.sha256Expected);
});
