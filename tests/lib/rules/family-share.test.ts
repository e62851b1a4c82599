import { describe, expect, it } from "vitest";
import { familyShare } from "~/lib/rules/family-share";

describe("what the parent sends the family", () => {
  const url = "https://shop.example.jp/family/AbCdEfGhIjKlMnOpQrStUv";
  const share = familyShare(url, new Date("2027-01-31T14:59:00Z"));

  it("is a LINE share link whose text holds the link and its end, encoded whole", () => {
    expect(share.line.startsWith("https://line.me/R/share?text=")).toBe(true);
    const text = decodeURIComponent(share.line.slice("https://line.me/R/share?text=".length));
    expect(text).toBe(share.text);
    expect(text).toContain(url);
    expect(text).toContain("2027/01/31 23:59");
    expect(share.line).not.toMatch(/[\s（）]/);
  });

  it("is a mail the parent's own app opens, with a subject and CRLF lines, to nobody the shop names", () => {
    const mail = new URL(share.mail);
    expect(mail.protocol).toBe("mailto:");
    expect(mail.pathname).toBe("");
    expect(mail.searchParams.get("subject")).toBe("大会の動画を見られるリンクです");
    expect(share.mail).toContain("%0D%0A");
    expect(mail.searchParams.get("body")).toContain(url);
    expect(share.mail).not.toContain("+");
  });
});
