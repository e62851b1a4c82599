import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakeS3 } from "./s3-fake/index.mjs";

/** The bucket every test run's object storage uses (each test file under a prefix of its own). */
export const TEST_BUCKET = "shop-test";
/** The tests' credentials: the fake requires a signed request but does not check the signature. */
export const TEST_S3_KEY = { accessKeyId: "SHOPTESTKEY", secretAccessKey: "shop-test-secret" };

/**
 * A local S3 (tests/helpers/s3-fake: the S3 calls the shop makes, multipart uploads with S3's
 * checks, signed URLs with Range) on loopback, storing in a temporary folder: the edge of the
 * network this machine cannot reach, and nothing mocked inside the shop.
 */
export async function startS3Server(
  bucket = TEST_BUCKET,
): Promise<{ port: number; directory: string; stop: () => Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "shop-s3-"));
  const server = await startFakeS3({ directory, buckets: [bucket] });
  return {
    port: server.port,
    directory,
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The environment that points the shop at that server. */
export function s3Environment(port: number, prefix: string): Record<string, string> {
  return {
    STORAGE_URL: `s3://${TEST_BUCKET}/${prefix}`,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: TEST_S3_KEY.accessKeyId,
    S3_SECRET_ACCESS_KEY: TEST_S3_KEY.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
    // One S3 part per chunk: 5 MiB is the smallest S3 takes (decision 0019).
    UPLOAD_CHUNK_BYTES: String(5 * 1024 * 1024),
    // The SDK's notice that its 2027 releases need Node 22 (README, "Deploying"), once per process.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
}
