// The benchmarks' bucket in a process of its own (scripts/bench/storage-lib.mjs), so its work is
// not counted as the benchmark client's or the shop's: the tests' fake S3 (tests/helpers/s3-fake),
// storing on this machine's disk. node bucket-child.mjs <dir> <bucket>.
// Prints the port it listens on (loopback), then serves until it is sent SIGTERM.
import { startFakeS3 } from "../../tests/helpers/s3-fake/index.mjs";

const [directory, bucket] = process.argv.slice(2);
const server = await startFakeS3({ directory, buckets: [bucket] });
process.stdout.write(`${server.port}\n`);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
