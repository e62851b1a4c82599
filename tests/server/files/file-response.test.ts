import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fileResponse, parseRange } from "~/server/files/file-response.server";

describe("parseRange", () => {
  it.each([
    ["bytes=0-9", { start: 0, end: 9 }],
    ["bytes=90-", { start: 90, end: 99 }],
    ["bytes=-10", { start: 90, end: 99 }],
    ["bytes=-500", { start: 0, end: 99 }],
    ["bytes=50-500", { start: 50, end: 99 }],
  ])("%s of 100 bytes", (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });

  it.each(["bytes=100-", "bytes=150-160", "bytes=-0", "bytes=9-3"])(
    "%s of 100 bytes is unsatisfiable",
    (header) => {
      expect(parseRange(header, 100)).toBe("unsatisfiable");
    },
  );

  it.each([null, "items=0-1", "bytes=0-1,5-6", "bytes=-", "bytes=abc"])(
    "%s means the whole file",
    (header) => {
      expect(parseRange(header, 100)).toBeNull();
    },
  );
});

describe("fileResponse", () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "range-")), "clip.mp4");
  fs.writeFileSync(file, Buffer.from(Array.from({ length: 100 }, (_, i) => i)));
  const options = { contentType: "video/mp4", cacheControl: "private, max-age=0" };

  it("serves a range as 206 with the right bytes", async () => {
    const response = fileResponse(
      new Request("http://x/", { headers: { Range: "bytes=10-19" } }),
      file,
      options,
    );
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe("bytes 10-19/100");
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 10),
    );
  });

  it("a cut download stops reading the file", async () => {
    const big = path.join(path.dirname(file), "long.mp4");
    fs.writeFileSync(big, Buffer.alloc(8 * 1024 * 1024));
    const caller = new AbortController();
    const reader = fileResponse(
      new Request("http://x/", { signal: caller.signal }),
      big,
      options,
    ).body!.getReader();
    let read = (await reader.read()).value?.byteLength ?? 0;
    caller.abort();
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          read += value.byteLength;
        }
      })(),
    ).rejects.toThrow();
    // The first chunks already buffered at most, not the 8 MB.
    expect(read).toBeLessThan(1024 * 1024);
  });

  it("answers 416 with the size past the end", () => {
    const response = fileResponse(
      new Request("http://x/", { headers: { Range: "bytes=200-" } }),
      file,
      options,
    );
    expect(response.status).toBe(416);
    expect(response.headers.get("Content-Range")).toBe("bytes */100");
  });

  it("serves the whole file without a range, and 404 for a missing one", async () => {
    const whole = fileResponse(new Request("http://x/"), file, options);
    expect(whole.status).toBe(200);
    expect((await whole.arrayBuffer()).byteLength).toBe(100);
    expect(fileResponse(new Request("http://x/"), `${file}.missing`, options).status).toBe(404);
  });
});
