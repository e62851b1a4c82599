import { PassThrough, type Transform } from "node:stream";
import { text } from "node:stream/consumers";
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { withoutNulBytes } from "~/server/html-stream.server";

function render(padding: number, through: () => Transform | PassThrough): Promise<string> {
  // Many short strings, as a real page has: each goes through the renderer's 2 KB buffer.
  const page = createElement("p", null, "a".repeat(padding), ...Array.from({ length: 400 }, (_, i) => createElement("span", { key: i }, "設定E2E大会")));
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
      const html = await render(padding, withoutNulBytes);
      expect(html).not.toContain("\0");
      expect(html).toBe(`<p>${"a".repeat(padding)}${"<span>設定E2E大会</span>".repeat(400)}</p>`);
    }
  });
});
