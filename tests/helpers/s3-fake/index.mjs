// A fake of the S3 calls the shop makes (app/server/files/s3-store.server.ts, the storage
// scripts and benchmarks), in the way tests/helpers/fake-stripe.ts fakes Stripe: a small HTTP
// server on loopback storing objects in a folder. Plain JavaScript so that node runs it without
// tsx (e2e/support/server.mjs, the benchmarks' bucket child); types in index.d.mts. Its own tests:
// tests/scripts/s3-fake.test.ts, through the AWS SDK.
export { startFakeS3 } from "./server.mjs";
export { MIN_PART_BYTES } from "./multipart.mjs";
