// A local S3-compatible server in a process of its own (scripts/bench/storage-lib.mjs), so its
// work is not counted as the benchmark client's or the shop's: node s3rver-child.mjs <dir> <bucket>.
// Prints the port it listens on (loopback), then serves until it is sent SIGTERM.
import S3rver from "s3rver";

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  port: 0,
  address: "127.0.0.1",
  silent: true,
  directory,
  configureBuckets: [{ name: bucket, configs: [] }],
});
const { port } = await server.run();
process.stdout.write(`${port}\n`);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
