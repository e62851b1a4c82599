import path from "node:path";

/** The local store's folder of this test file (tests/setup.ts gives each file its own MEDIA_DIR). */
export function mediaDir(): string {
  return path.resolve(process.env.MEDIA_DIR!);
}
