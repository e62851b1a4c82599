import { beforeAll, describe, expect, it } from "vitest";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

const smtp = smtpServerForThisFile();
beforeAll(() => {
  process.env.MAIL_FROM = "shop@example.jp";
});

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

describe("SMTP timeouts", () => {
  it("a silent SMTP server is given up after the shop's greeting timeout, not nodemailer's 30 s default", async () => {
    const net = await import("node:net");
    const nodemailer = (await import("nodemailer")).default;
    const { smtpUrlWithTimeouts } = await import("~/server/mail/transport.server");
    // Accepts the connection and never greets.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as import("node:net").AddressInfo).port;
    const url = new URL(smtpUrlWithTimeouts(`smtp://127.0.0.1:${port}`));
    expect(url.searchParams.get("greetingTimeout")).toBe("10000");
    // The same URL with a short greeting timeout, to see nodemailer honour what the URL carries.
    url.searchParams.set("greetingTimeout", "300");
    const started = Date.now();
    await expect(
      nodemailer
        .createTransport(url.toString())
        .sendMail({ from: "a@example.jp", to: "b@example.jp", text: "x" }),
    ).rejects.toThrow(/Greeting never received/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // A URL that sets its own timeout keeps it.
    expect(
      new URL(smtpUrlWithTimeouts(`smtp://h:25?socketTimeout=5`)).searchParams.get("socketTimeout"),
    ).toBe("5");
    silent.close();
  });
});
