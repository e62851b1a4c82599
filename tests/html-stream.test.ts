import { describe, expect, it } from "vitest";
import { dropReactPaddingBytes } from "~/server/html-stream.server";

async function through(chunks: Uint8Array[]): Promise<Buffer> {
  const transform = dropReactPaddingBytes();
  const out: Buffer[] = [];
  transform.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => transform.on("end", resolve));
  for (const chunk of chunks) transform.write(chunk);
  transform.end();
  await done;
  return Buffer.concat(out);
}

describe("streamed HTML", () => {
  it("drops the zero bytes React 18 leaves at the end of a full buffer, so Japanese text stays whole", async () => {
    const text = "選手6を選択";
    const bytes = Buffer.from(text);
    // As React sends it: "選手6" then two unwritten bytes, then the rest in the next buffer.
    const first = Buffer.concat([bytes.subarray(0, 7), Buffer.from([0, 0])]);
    const second = bytes.subarray(7);
    expect(Buffer.concat([first, second]).toString("utf8")).not.toBe(text);
    expect((await through([first, second])).toString("utf8")).toBe(text);
  });

  it("leaves other chunks alone", async () => {
    const html = Buffer.from("<p>選手1</p>");
    expect((await through([html])).equals(html)).toBe(true);
  });
});
