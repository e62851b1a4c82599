import { PassThrough, type Transform } from "node:stream";
import { text } from "node:stream/consumers";
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { htmlResponseStream, withoutNul } from "~/server/http/html-stream.server";

function render(padding: number, through: () => Transform | PassThrough): Promise<string> {
  // Many short strings, as a real page has: each goes through the renderer's 2 KB buffer.
  const page = createElement(
    "p",
    null,
    "a".repeat(padding),
    ...Array.from({ length: 400 }, (_, i) => createElement("span", { key: i }, "設定E2E大会")),
  );
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(page, {
      onAllReady() {
        const body = through();
        text(body).then(resolve, reject);
        pipe(body);
      },
      onShellError: reject,
    });
  });
}

describe("streamed HTML", () => {
  it("carries Japanese text without the NUL bytes React 18.3 leaves at buffer ends", async () => {
    const paddings = [0, 1, 2];
    const raw = await Promise.all(paddings.map((padding) => render(padding, () => new PassThrough())));
    // The renderer's defect is real here (otherwise this test could not fail).
    expect(raw.some((html) => html.includes("\0"))).toBe(true);
    for (const padding of paddings) {
      const html = await render(padding, htmlResponseStream);
      expect(html).not.toContain("\0");
      expect(html).toBe(`<p>${"a".repeat(padding)}${"<span>設定E2E大会</span>".repeat(400)}</p>`);
    }
  });

  it("sends a render burst as one piece, so it is compressed as a whole", async () => {
    const pieces: number[] = [];
    await new Promise<void>((resolve, reject) => {
      const page = createElement(
        "p",
        null,
        ...Array.from({ length: 2000 }, (_, i) => createElement("span", { key: i }, "大会の動画")),
      );
      const { pipe } = renderToPipeableStream(page, {
        onAllReady() {
          const body = htmlResponseStream();
          body.on("data", (chunk: Buffer) => pieces.push(chunk.length));
          body.on("end", resolve);
          pipe(body);
        },
        onShellError: reject,
      });
    });
    // React wrote this page in dozens of 2 KB pieces; they leave as one.
    expect(pieces.length).toBe(1);
    expect(pieces[0]).toBeGreaterThan(40_000);
  });

  it("drops every NUL byte wherever it is, and leaves a chunk without one as it is", () => {
    const cases: [number[], number[]][] = [
      [
        [0x61, 0x62],
        [0x61, 0x62],
      ],
      [
        [0, 0, 0x61, 0, 0x62, 0, 0, 0],
        [0x61, 0x62],
      ],
      [
        [0xe5, 0xa4, 0xa7, 0, 0, 0xe4, 0xbc, 0x9a],
        [0xe5, 0xa4, 0xa7, 0xe4, 0xbc, 0x9a],
      ],
      [[0, 0, 0], []],
    ];
    for (const [input, output] of cases) expect([...withoutNul(Buffer.from(input))]).toEqual(output);
    const clean = Buffer.from("大会");
    expect(withoutNul(clean)).toBe(clean);
  });
});
