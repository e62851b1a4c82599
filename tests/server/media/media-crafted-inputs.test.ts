// *crafted manifest*: a file that passes the 16-byte sniffer as MP4 but is a list of
// other inputs (a DASH manifest; an HLS playlist and an ffconcat file the same way) must make
// ffprobe fetch nothing and read nothing but itself. Run by the "local" project against MEDIA_DIR
// and by the "s3" project against the fake S3 (vitest.config.ts), where ffprobe reads a signed URL.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { action as initAction } from "~/routes/api/media/chunked-init";
import { action as chunkAction } from "~/routes/api/media/chunked-upload";
import { action as completeAction } from "~/routes/api/media/chunked-complete";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { deliveryFiles, mediaItems } from "~/server/db/schema";
import { storeDeliveryFile } from "~/server/delivery/delivery-files.server";
import { newStoredName } from "~/server/files/storage.server";
import { signedObjectUrl } from "~/server/files/s3-links.server";
import { S3Store } from "~/server/files/s3-store.server";
import { fileStore, type FileStore } from "~/server/files/store.server";
import { commitSession, getSession } from "~/server/http/session.server";
import { readMedia } from "~/server/media/new-media.server";
import { notPlayableMessage } from "~/server/media/probe.server";
import { createUser } from "../../helpers/accounts";
import { callRoute } from "../../helpers/route";
import { SAMPLE_VIDEO } from "../../helpers/test-videos";

const MODE = process.env.SHOP_TEST_STORAGE === "s3" ? "s3" : "local";
let store: FileStore;
let admin = "";
let contestId = 0;
/** A delivered video of the shop already stored: what a crafted file may try to read in its place. */
let honestName = "";

/** An HTTP server on loopback that records every request and answers with a real video (so a fetch would "work"). */
type Recorder = { url: string; requests: string[]; close: () => Promise<void> };

function startRecorder(): Promise<Recorder> {
  const requests: string[] = [];
  const video = fs.readFileSync(SAMPLE_VIDEO);
  const server = http.createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { "Content-Type": "video/mp4", "Content-Length": video.length });
    response.end(video);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => {
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      });
    }),
  );
}

let recorder: Recorder;
beforeAll(async () => {
  store = await fileStore();
  recorder = await startRecorder();
  const user = await createUser("crafted-admin@example.jp", "Crafted-Password-2025", { isAdmin: true });
  const session = await getSession(new Request("http://shop.test/"));
  session.set("userId", user.id);
  session.set("loggedInAt", Date.now());
  session.set("adminVerifiedAt", Date.now());
  admin = (await commitSession(session)).split(";")[0] ?? "";
  contestId = createContest("細工ファイル大会");
  fs.mkdirSync(store.scratchDir(), { recursive: true });
  const copy = path.join(store.scratchDir(), "honest-upload.mp4");
  fs.copyFileSync(SAMPLE_VIDEO, copy);
  const honest = await storeDeliveryFile(contestId, copy, "12_山田花子_横.mp4");
  if (!honest.ok) throw new Error(honest.message);
  honestName = honest.file.storedName;
});
afterAll(() => recorder.close());
// Each test counts the requests its own file caused.
beforeEach(() => {
  recorder.requests.length = 0;
});

/**
 * What a crafted file points at: with object storage the recorder (a URL like the shop's own
 * loopback-only /metrics); with local storage another stored video on this disk, by its path.
 */
const target = () =>
  MODE === "s3" ? `${recorder.url}/metrics` : path.join(path.resolve(process.env.MEDIA_DIR!), honestName);

/**
 * The finding's manifest: `<!--ftypjp2 -->` puts `ftyp` at bytes 4–8, so the sniffer reads MP4;
 * the jp2 brand makes ffmpeg's mov probe score it low, and DASH's probe wins. It claims 100,000 hours.
 */
const dashManifest = () =>
  Buffer.from(
    `<!--ftypjp2 -->
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT100000H"
  minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
  <Period><AdaptationSet mimeType="video/mp4">
    <Representation id="1" bandwidth="1000" width="480" height="270" codecs="avc1.42c01e">
      <BaseURL>${target()}</BaseURL>
    </Representation>
  </AdaptationSet></Period>
</MPD>
`,
  );

/** An HLS playlist of one segment: the recorder's URL, or another stored video's path. */
const hlsPlaylist = () =>
  Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:3.0,\n${target()}\n#EXT-X-ENDLIST\n`);

/**
 * An ffconcat file. Its safe mode (on by default) takes only a relative name, which ffmpeg reads
 * beside the file itself: in the store, another stored video (by its signed URL's folder, with
 * object storage); and it claims 100,000 hours.
 */
const ffconcatFile = () => Buffer.from(`ffconcat version 1.0\nfile ${honestName}\nduration 360000000\n`);

const api = (suffix: string) => `http://shop.test/api/video/contests/${contestId}/media/${suffix}`;
const json = (suffix: string, body: unknown) =>
  new Request(api(suffix), {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Cookie: admin },
  });

/**
 * The 納品ファイル tab's upload as the browser makes it (chunked-init, one chunk, chunked-complete):
 * the routes the shop serves, all the way to ffprobe. The answer of chunked-complete.
 */
async function uploadForDelivery(bytes: Buffer, fileName: string) {
  const params = { id: String(contestId) };
  const init = await callRoute(
    initAction,
    json("chunked-init", {
      fileName,
      fileSize: bytes.length,
      mediaType: "video",
      contentType: "video/mp4",
      category: "sample",
      purpose: "delivery",
    }),
    params,
  );
  expect(init.status).toBe(200);
  const { uploadId } = init.data as { uploadId: string };
  const form = new FormData();
  form.set("uploadId", uploadId);
  form.set("chunkIndex", "0");
  form.set("chunk", new Blob([new Uint8Array(bytes)]), "blob");
  const chunk = await callRoute(
    chunkAction,
    new Request(api("chunked-upload"), { method: "POST", body: form, headers: { Cookie: admin } }),
    params,
  );
  expect(chunk.status).toBe(200);
  return callRoute(completeAction, json("chunked-complete", { uploadId }), params);
}

/** The names of the stored delivery videos, the honest one among them. */
async function storedDeliveryNames(): Promise<string[]> {
  const names: string[] = [];
  for await (const object of store.list("delivery-")) names.push(object.name);
  return names;
}

/** Nothing of the crafted file kept: no row by its name, no stored object besides what was there. */
async function expectNothingStored(fileName: string, before: string[]) {
  expect(db().select().from(deliveryFiles).where(eq(deliveryFiles.originalName, fileName)).all()).toEqual([]);
  expect(db().select().from(mediaItems).where(eq(mediaItems.originalName, fileName)).all()).toEqual([]);
  expect(await storedDeliveryNames()).toEqual(before);
}

/**
 * Where ffprobe reads a stored file from, as the shop hands it over: its path, or a signed URL of
 * the object (written out here as video-source.server.ts writes it).
 */
function readingSource(storedName: string): string {
  if (!(store instanceof S3Store)) return path.join(path.resolve(process.env.MEDIA_DIR!), storedName);
  // The bucket checks the signature against the real time.
  return signedObjectUrl(store.config, store.key(storedName), 600, new Date());
}

/**
 * The probe step of an upload (readMedia, as chunked-complete runs it on the stored file) handed a
 * file the sniffer took for an MP4: the door itself, whatever first bytes let a file through to it.
 */
async function probeAsUploaded(bytes: Buffer, fileName: string) {
  const storedName = newStoredName("media", "mp4");
  await store.putBytes(storedName, bytes, "video/mp4", "public");
  try {
    const kind = { mediaType: "video", extension: "mp4", contentType: "video/mp4" } as const;
    return await readMedia(kind, readingSource(storedName), fileName);
  } finally {
    await store.remove(storedName);
  }
}

describe(`crafted inputs posing as videos (${MODE} storage)`, () => {
  it("crafted manifest: a DASH manifest posing as MP4 is refused and fetches nothing", async () => {
    const before = await storedDeliveryNames();
    const refused = await uploadForDelivery(dashManifest(), "manifest.mp4");
    expect(refused.status).toBe(415);
    expect(refused.data).toMatchObject({ message: notPlayableMessage("manifest.mp4") });
    expect(recorder.requests).toEqual([]);
    await expectNothingStored("manifest.mp4", before);
  });

  it("crafted manifest: an HLS playlist posing as MP4 is refused and fetches nothing", async () => {
    const before = await storedDeliveryNames();
    // #EXTM3U must open the file, so the 16-byte sniffer already refuses it as not a video…
    const refused = await uploadForDelivery(hlsPlaylist(), "playlist.mp4");
    expect(refused.status).toBe(415);
    expect(recorder.requests).toEqual([]);
    await expectNothingStored("playlist.mp4", before);
    // …and the probe, handed it as an MP4, reads it as one: not a playlist.
    expect(await probeAsUploaded(hlsPlaylist(), "playlist.mp4")).toMatchObject({
      status: 415,
      message: notPlayableMessage("playlist.mp4"),
    });
    expect(recorder.requests).toEqual([]);
  });

  it("crafted manifest: an ffconcat file posing as MP4 is refused and fetches nothing", async () => {
    const before = await storedDeliveryNames();
    const refused = await uploadForDelivery(ffconcatFile(), "concat.mp4");
    expect(refused.status).toBe(415);
    expect(recorder.requests).toEqual([]);
    await expectNothingStored("concat.mp4", before);
    expect(await probeAsUploaded(ffconcatFile(), "concat.mp4")).toMatchObject({
      status: 415,
      message: notPlayableMessage("concat.mp4"),
    });
    expect(recorder.requests).toEqual([]);
  });
});
