import { beforeAll, describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { MAIL_CHECK_FAILED, mailServiceStatus, smtpHost } from "~/server/mail/status.server";
import { startSmtpServer } from "../../helpers/smtp";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);

beforeAll(async () => {
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "shop@example.jp";
});
describe("mail service status", () => {
  it("asks the SMTP server, keeps the answer 60 s, and says only that the check failed", async () => {
    setClock(() => T0);
    const up = await mailServiceStatus();
    expect(up).toEqual({
      emailServiceActive: true,
      senderEmail: "shop@example.jp",
      smtpServer: "127.0.0.1",
      timestamp: new Date(T0).toISOString(),
    });

    await smtp.close();
    setClock(() => T0 + 59_000);
    expect(await mailServiceStatus()).toEqual(up);

    setClock(() => T0 + 60_000);
    const down = await mailServiceStatus();
    expect(down).toEqual({
      emailServiceActive: false,
      senderEmail: "shop@example.jp",
      smtpServer: "127.0.0.1",
      timestamp: new Date(T0 + 60_000).toISOString(),
      error: MAIL_CHECK_FAILED,
    });
  });

  it("shows the SMTP host only, never the user name, password or port", () => {
    expect(smtpHost("smtps://user:s3cret@smtp.example.jp:465")).toBe("smtp.example.jp");
    expect(smtpHost(undefined)).toBeNull();
    expect(smtpHost("not a url")).toBeNull();
  });
});
