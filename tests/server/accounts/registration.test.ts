import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { RegisterValues } from "~/lib/schemas/account-schemas";
import { setClock } from "~/server/core/clock.server";
import { CODE_MESSAGES } from "~/server/auth/codes/codes.server";
import { db } from "~/server/db/client.server";
import { users, verificationCodes } from "~/server/db/schema";
import { verifyPassword } from "~/server/auth/password.server";
import {
  REGISTRATION_MESSAGES,
  resendRegistrationCode,
  startRegistration,
  verifyRegistrationCode,
  verifyRegistrationLink,
} from "~/server/accounts/registration.server";
import { createUser, requestFrom, userByEmail } from "../../helpers/accounts";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);
let ipCounter = 0;

const smtp = smtpServerForThisFile();
beforeAll(() => {
  process.env.SITE_URL = "https://shop.example.jp";
});
function values(email: string, overrides: Partial<RegisterValues> = {}): RegisterValues {
  return {
    name: "山田 花子",
    email,
    password: "Hanako-2025",
    confirmPassword: "Hanako-2025",
    agreesToTerms: "on",
    ...overrides,
  };
}

function mailsTo(address: string) {
  return smtp.received.filter((mail) => mail.to.includes(address));
}

function codeIn(text: string): string {
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code in ${text}`);
  return code;
}

function otherCode(code: string) {
  return code === "000000" ? "111111" : "000000";
}

async function start(email: string, options: { honeypot?: boolean } = {}) {
  // A new client address per registration, so the per-address limit does not get in the way.
  const result = await startRegistration(requestFrom(`198.51.100.${++ipCounter}`), values(email), {
    honeypot: options.honeypot ?? false,
    fromOrder: false,
  });
  if (!result.ok) throw new Error(result.message);
  return result.registration;
}

describe("registration", () => {
  it("mails a code; a wrong code is refused, the right one makes the account", async () => {
    setClock(() => T0);
    const registration = await start("Hanako@Example.jp");
    expect(registration.email).toBe("hanako@example.jp");
    const [mail] = mailsTo("hanako@example.jp");
    expect(mail?.subject).toBe("【コンテスト動画ショップ】会員登録の認証コード");
    expect(mail?.text).toMatch(/https:\/\/shop\.example\.jp\/verify-email\?token=[\w-]{43}/);
    const code = codeIn(mail?.text ?? "");

    expect(verifyRegistrationCode(registration, otherCode(code))).toEqual({
      ok: false,
      status: 400,
      message: CODE_MESSAGES.wrong,
    });
    expect(userByEmail("hanako@example.jp")).toBeUndefined();

    expect(verifyRegistrationCode(registration, code)).toEqual({ ok: true, email: "hanako@example.jp" });
    const user = userByEmail("hanako@example.jp");
    expect(user).toMatchObject({ name: "山田 花子", isAdmin: false });
    expect(await verifyPassword("Hanako-2025", user?.passwordHash ?? "")).toBe(true);
    // The code is used up, and the password hash no longer waits in the codes table.
    expect(verifyRegistrationCode(registration, code)).toMatchObject({
      ok: false,
      message: CODE_MESSAGES.expired,
    });
    const rows = db()
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.subject, registration.id))
      .all();
    expect(rows.map((row) => row.payload)).toEqual([null]);
    // Only hashes are stored.
    expect(rows[0]?.linkTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it("refuses a code after 10 minutes", async () => {
    setClock(() => T0);
    const registration = await start("late@example.jp");
    const code = codeIn(mailsTo("late@example.jp")[0]?.text ?? "");
    setClock(() => T0 + 10 * 60_000 + 1);
    expect(verifyRegistrationCode(registration, code)).toEqual({
      ok: false,
      status: 400,
      message: "認証コードが無効または期限切れです。新しいコードを取得してください。",
    });
    expect(userByEmail("late@example.jp")).toBeUndefined();
  });

  it("a resend waits a minute, and replaces the earlier code", async () => {
    setClock(() => T0);
    const registration = await start("again@example.jp");
    const first = codeIn(mailsTo("again@example.jp")[0]?.text ?? "");
    expect(await resendRegistrationCode(registration)).toMatchObject({ ok: false, status: 429 });
    setClock(() => T0 + 61_000);
    expect(await resendRegistrationCode(registration)).toEqual({ ok: true });
    const second = codeIn(mailsTo("again@example.jp")[1]?.text ?? "");
    if (first !== second) expect(verifyRegistrationCode(registration, first)).toMatchObject({ ok: false });
    expect(verifyRegistrationCode(registration, second)).toMatchObject({ ok: true });
  });

  it("the link in the mail makes the account too, and says so again when reopened", async () => {
    setClock(() => T0);
    const registration = await start("link@example.jp");
    const mail = mailsTo("link@example.jp")[0];
    const token = /verify-email\?token=([\w-]+)/.exec(mail?.text ?? "")?.[1] ?? "";

    expect(verifyRegistrationLink(token)).toEqual({
      ok: true,
      email: "link@example.jp",
      alreadyVerified: false,
    });
    expect(userByEmail("link@example.jp")).toMatchObject({ name: "山田 花子" });
    expect(verifyRegistrationLink(token)).toEqual({
      ok: true,
      email: "link@example.jp",
      alreadyVerified: true,
    });
    // The code of the same mail is used up with it.
    expect(verifyRegistrationCode(registration, codeIn(mail?.text ?? ""))).toMatchObject({
      ok: false,
      message: CODE_MESSAGES.expired,
    });
  });

  it("refuses a missing, unknown or expired link", async () => {
    expect(verifyRegistrationLink(null)).toEqual({ ok: false, message: "無効なトークンです" });
    expect(verifyRegistrationLink("")).toEqual({ ok: false, message: "無効なトークンです" });
    expect(verifyRegistrationLink("not-a-real-token")).toEqual({
      ok: false,
      message: REGISTRATION_MESSAGES.invalidLink,
    });

    setClock(() => T0);
    await start("slow@example.jp");
    const token = /verify-email\?token=([\w-]+)/.exec(mailsTo("slow@example.jp")[0]?.text ?? "")?.[1] ?? "";
    setClock(() => T0 + 11 * 60_000);
    expect(verifyRegistrationLink(token)).toEqual({ ok: false, message: REGISTRATION_MESSAGES.invalidLink });
    expect(userByEmail("slow@example.jp")).toBeUndefined();
  });

  it("registering an address that has an account reveals nothing: same answers; the owner gets a 'you have an account' mail", async () => {
    setClock(() => T0);
    const owner = await createUser("taken@example.jp", "Owner-Pass-1", { name: "既存 会員" });

    const fresh = await start("fresh@example.jp");
    const existing = await start("taken@example.jp");
    expect(Object.keys(existing)).toEqual(Object.keys(fresh));
    expect(existing).toMatchObject({ email: "taken@example.jp", fromOrder: false });

    const [mail] = mailsTo("taken@example.jp");
    expect(mail?.subject).toBe("【コンテスト動画ショップ】会員登録のお申し込みについて");
    expect(mail?.text).toContain("すでに登録されています");
    expect(mail?.text).toContain("https://shop.example.jp/login");
    expect(mail?.text).not.toMatch(/\b\d{6}\b/);
    expect(mail?.text).not.toContain("verify-email");

    // A guessed code gets the same answer as for a new address.
    const freshCode = codeIn(mailsTo("fresh@example.jp")[0]?.text ?? "");
    expect(verifyRegistrationCode(existing, "123456")).toEqual(
      verifyRegistrationCode(fresh, otherCode(freshCode)),
    );
    // The resend behaves the same too.
    expect(await resendRegistrationCode(existing)).toEqual(await resendRegistrationCode(fresh));

    // Nothing about the account changed.
    expect(userByEmail("taken@example.jp")).toEqual(owner);
    expect(db().select().from(users).where(eq(users.email, "taken@example.jp")).all()).toHaveLength(1);
  });

  it("a filled honeypot gets the same answer and nothing else", async () => {
    const registration = await start("bot@example.jp", { honeypot: true });
    expect(registration.email).toBe("bot@example.jp");
    expect(mailsTo("bot@example.jp")).toHaveLength(0);
    expect(
      db()
        .select()
        .from(verificationCodes)
        .where(
          and(eq(verificationCodes.purpose, "registration"), eq(verificationCodes.subject, registration.id)),
        )
        .all(),
    ).toHaveLength(0);
    expect(verifyRegistrationCode(registration, "123456")).toMatchObject({
      ok: false,
      message: CODE_MESSAGES.expired,
    });
    expect(await resendRegistrationCode(registration)).toEqual({ ok: true });
  });

  it("limits registrations per address and per e-mail and requester", async () => {
    setClock(() => T0 + 3 * 60 * 60_000);
    const request = requestFrom("203.0.113.77");
    const answers = [];
    for (let i = 0; i < 11; i++)
      answers.push(
        (
          await startRegistration(request, values(`flood${i}@example.jp`), {
            honeypot: false,
            fromOrder: false,
          })
        ).ok,
      );
    expect(answers).toEqual([...Array(10).fill(true), false]);

    const perEmail = [];
    for (let i = 0; i < 6; i++)
      perEmail.push(
        (
          await startRegistration(requestFrom("192.0.2.100"), values("target@example.jp"), {
            honeypot: false,
            fromOrder: false,
          })
        ).ok,
      );
    expect(perEmail).toEqual([...Array(5).fill(true), false]);
  });
});
