import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer } from "./helpers/smtp";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "shop@example.jp";
});
afterAll(() => smtp.close());

describe("mail", () => {
  it("sends a Japanese mail with text and HTML bodies over SMTP, escaping what customers typed", async () => {
    const { renderMail } = await import("~/server/mail/layout.server");
    const { sendMail } = await import("~/server/mail/transport.server");
    const mail = renderMail("認証コードのお知らせ", "山田<b>花子</b> 様", [
      { text: "以下のコードを入力してください。" },
      { highlight: "123456" },
    ]);
    await sendMail("hanako@example.jp", mail);
    expect(smtp.received).toHaveLength(1);
    const [received] = smtp.received;
    expect(received?.to).toEqual(["hanako@example.jp"]);
    expect(received?.subject).toBe("【コンテスト動画ショップ】認証コードのお知らせ");
    expect(received?.text).toContain("123456");
    expect(received?.html).toContain("山田&lt;b&gt;花子&lt;/b&gt; 様");
  });
});
