import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/** The bucket every test run's object storage uses (each test file under a prefix of its own). */
export const TEST_BUCKET = "shop-test";
/** s3rver's fixed credentials: it accepts any signature made with them. */
export const TEST_S3_KEY = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/**
 * A local S3-compatible server (s3rver, with ListParts, AbortMultipartUpload, ListMultipartUploads
 * and S3's checks on CompleteMultipartUpload added by patches/s3rver+*.patch) on loopback, storing
 * in a temporary folder: the edge of the network this machine cannot reach, and nothing mocked
 * inside the shop.
 */
export async function startS3Server(
  bucket = TEST_BUCKET,
): Promise<{ port: number; directory: string; stop: () => Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "shop-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    port,
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
