import { SNIFF_BYTES, sniffVideo, type VideoKind } from "../core/sniff.server";
import { fileStore } from "../files/store.server";
import { signedObjectUrl } from "../files/s3-links.server";
import type { VideoInput } from "./video-input.server";
import { HOUR_MS, SECOND_MS } from "~/lib/rules/tokyo-date";

/**
 * Where ffprobe and ffmpeg read a stored video: its file in MEDIA_DIR, or (object storage) a
 * signed URL of the object, from which they read only the bytes they need (an index, a range)
 * instead of a copy of a file of hundreds of megabytes on this server's disk. Either way they read
 * it as the kind its first bytes say, through the protocols that source needs and no other
 * (video-input.server.ts): a signed URL lets them fetch that object and nothing else.
 */

/** Long enough for ffmpeg to read a long video through at a slow machine's pace. */
const SOURCE_URL_LIFETIME_S = (12 * HOUR_MS) / SECOND_MS;

export async function withVideoSource<T>(
  storedName: string,
  kind: VideoKind,
  work: (input: VideoInput) => Promise<T>,
): Promise<T> {
  const store = await fileStore();
  const local = (file: string) => work({ source: file, kind });
  if (store.kind === "local") return store.withLocalCopy(storedName, local);
  const { S3Store } = await import("../files/s3-store.server");
  if (!(store instanceof S3Store)) return store.withLocalCopy(storedName, local);
  // The bucket checks the signature against the real time, not the shop's clock (which tests move).
  // eslint-disable-next-line no-restricted-syntax
  const url = signedObjectUrl(store.config, store.key(storedName), SOURCE_URL_LIFETIME_S, new Date());
  return work({ source: url, kind });
}

/**
 * A stored video's kind, read again from its first bytes, as the upload's sniffer read it (the
 * jobs run on files stored long ago); null when they are not a video's.
 */
export async function storedVideoKind(storedName: string): Promise<VideoKind | null> {
  return sniffVideo(await (await fileStore()).readHead(storedName, SNIFF_BYTES));
}
