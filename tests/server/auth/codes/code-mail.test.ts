import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sendCodeMail } from "~/server/auth/codes/code-mail.server";
import { verifyCode } from "~/server/auth/codes/codes.server";
import { startSmtpServer, type ReceivedMail } from "../../../helpers/smtp";

// One mailbox across restarts of the SMTP server, which comes back on the same port.
const received: ReceivedMail[] = [];
let smtp: Awaited<ReturnType<typeof startSmtpServer>> | null = null;
let port = 0;

async function smtpUp() {
  smtp = await startSmtpServer(port, received);
  port = smtp.port;
}

beforeAll(async () => {
  await smtpUp();
  process.env.SMTP_URL = smtp?.url;
});
afterAll(() => smtp?.close());
afterEach(async () => {
  vi.restoreAllMocks();
  if (!smtp) await smtpUp();
});

const messages = {
  tooSoon: (seconds: number) => `再送信は${seconds}秒後にお試しください`,
  notSent: "認証コードの送信に失敗しました",
};

function codeMail(subject: string) {
  return {
    purpose: "checkout" as const,
    subject,
    to: `${subject}@example.jp`,
    topic: `test:${subject}`,
    mail: ({ code }: { code: string }) => ({
      subject: "認証コード",
      text: `コード ${code}`,
      html: `<p>${code}</p>`,
    }),
    messages,
    log: "[test] code mail failed",
  };
}

describe("sendCodeMail", () => {
  it("mails a code the purpose can verify, then refuses another within 60 s as already sent", async () => {
    expect(await sendCodeMail(codeMail("first"))).toEqual({ ok: true });
    const code =
      /\d{6}/.exec(received.filter((m) => m.to.includes("first@example.jp")).at(-1)?.text ?? "")?.[0] ?? "";
    expect(verifyCode("checkout", "first", code)).toMatchObject({ ok: true });
    expect(await sendCodeMail(codeMail("first"))).toMatchObject({
      ok: false,
      status: 429,
      alreadySent: true,
      message: expect.stringMatching(/^再送信は\d+秒後にお試しください$/),
    });
  });

  it("answers 429 with the caller's message at its limit, before working out the payload", async () => {
    const limit = { key: "test-limit:one", limit: 1, windowMs: 60_000, message: "送信回数の上限です" };
    const payload = vi.fn(() => Promise.resolve({ kind: "new" }));
    expect(
      await sendCodeMail({
        ...codeMail("limited-a"),
        limits: [limit],
        payload,
        mail: ({ code }, p) => ({ subject: String(p.kind), text: code, html: code }),
      }),
    ).toEqual({ ok: true });
    expect(
      await sendCodeMail({
        ...codeMail("limited-b"),
        limits: [limit],
        payload,
        mail: ({ code }, p) => ({ subject: String(p.kind), text: code, html: code }),
      }),
    ).toEqual({
      ok: false,
      status: 429,
      message: "送信回数の上限です",
      // The JSON calls answer it as Retry-After: the rest of the limit's window.
      retryAfterSeconds: expect.any(Number),
    });
    expect(payload).toHaveBeenCalledTimes(1);
  });

  it("answers 503 and logs when the mail server does not take the mail", async () => {
    await smtp?.close();
    smtp = null;
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await sendCodeMail(codeMail("down"))).toEqual({
      ok: false,
      status: 503,
      message: "認証コードの送信に失敗しました",
    });
    expect(log).toHaveBeenCalledWith("[test] code mail failed");
  });
});

describe("per-address caps", () => {
  it("count codes anyone can ask for per requester, and an admin's login codes on their own", async () => {
    const to = "capped@example.jp";
    const send = (purpose: "checkout" | "admin-2fa", subject: string) =>
      sendCodeMail({ ...codeMail(subject), purpose, to: ` ${to.toUpperCase()}` });
    for (let i = 0; i < 5; i++) expect(await send("checkout", `cap-${i}`)).toEqual({ ok: true });
    expect(await send("checkout", "cap-5")).toMatchObject({ ok: false, status: 429, addressCap: true });
    // Another requester has its own count at the address.
    expect(await sendCodeMail({ ...codeMail("cap-other"), to, requester: { key: "192.0.2.1" } })).toEqual({
      ok: true,
    });
    // Login codes: 30 an hour (a backstop above any admin logging in by hand), whatever the checkout codes did.
    for (let i = 0; i < 30; i++) expect(await send("admin-2fa", `cap-admin-${i}`)).toEqual({ ok: true });
    expect(await send("admin-2fa", "cap-admin-30")).toMatchObject({
      ok: false,
      status: 429,
      message: expect.stringContaining("送信回数が上限に達しました"),
    });
  });
});
