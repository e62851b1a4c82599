import { fileStore } from "../files/store.server";
import { signedObjectUrl } from "../files/s3-links.server";

/**
 * Where ffprobe and ffmpeg read a stored video: its file in MEDIA_DIR, or (object storage) a
 * signed URL of the object, from which they read only the bytes they need (an index, a range)
 * instead of a copy of a file of hundreds of megabytes on this server's disk.
 */

/** Long enough for ffmpeg to read a long video through at a slow machine's pace. */
const SOURCE_URL_LIFETIME_S = 12 * 3600;

export async function withVideoSource<T>(
  storedName: string,
  work: (source: string) => Promise<T>,
): Promise<T> {
  const store = await fileStore();
  if (store.kind === "local") return store.withLocalCopy(storedName, work);
  const { S3Store } = await import("../files/s3-store.server");
  if (!(store instanceof S3Store)) return store.withLocalCopy(storedName, work);
  // The bucket checks the signature against the real time, not the shop's clock (which tests move).
  // eslint-disable-next-line no-restricted-syntax
  const url = signedObjectUrl(store.config, store.key(storedName), SOURCE_URL_LIFETIME_S, new Date());
  return work(url);
}
