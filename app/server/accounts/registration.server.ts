import { DAY_MS, HOUR_MS } from "~/lib/rules/tokyo-date";
import crypto from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { RegisterValues } from "~/lib/schemas/account-schemas";
import { formatDateTime } from "~/lib/rules/format";
import { CODE_MESSAGES, firstSubjectSince, verifyCode, wrongTries } from "../auth/codes/codes.server";
import {
  sendCodeMail,
  type CodeLimit,
  type IssuedCode,
  type SendCodeResult,
} from "../auth/codes/code-mail.server";
import { LIMIT_MESSAGES } from "../auth/codes/limit-messages.server";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { users, verificationCodes } from "../db/schema";
import { env } from "../core/env.server";
import { accountExistsMail } from "../mail/templates/account-exists.server";
import { registrationCodeMail } from "../mail/templates/registration-code.server";
import { hashPassword, unlessHashingBusy, type HashingBusy } from "../auth/password.server";
import { originLimitKey } from "../http/rate-limit.server";
import {
  countForRequester,
  mailRequester,
  requesterCapState,
  type MailRequester,
  wrongCodeCaps,
} from "../auth/codes/mail-caps.server";
import { sellerInfo } from "../core/seller.server";

/**
 * Registration: the form sends a six-digit code (and a link carrying a random token) to
 * the address; the code or the link makes the account. An address that already has an
 * account goes through the same steps, with the same work and the same answers, but its
 * mail says the account exists: nobody but the owner of the mailbox learns that.
 */

export const REGISTRATION_MESSAGES = {
  failed: "認証に失敗しました",
  sendFailed: "認証コードの送信に失敗しました",
  tooMany: LIMIT_MESSAGES.tooManySends,
  alreadyRegistered: "このメールアドレスはすでに登録されています。ログインしてください。",
  invalidToken: "無効なトークンです",
  invalidLink: "リンクが無効か、有効期限が切れています。お手数ですが、もう一度会員登録をお試しください。",
  addressClosed: (until: Date) =>
    `このメールアドレスは認証コードの入力に続けて失敗したため、${formatDateTime(until)} まで確認にお使いいただけません。時間をおいてからお試しください。`,
} as const;

const PER_IP_PER_HOUR = 10;

export type PendingRegistration = { id: string; email: string; fromOrder: boolean };

/** What the code row carries until the account is made; `existing` rows never make one. */
type RegistrationPayload =
  { kind: "new"; name: string; passwordHash: string } | { kind: "existing"; name: string };

function parsePayload(value: Record<string, unknown> | null | undefined): RegistrationPayload | null {
  if (!value) return null;
  const name = typeof value.name === "string" ? value.name : "";
  if (value.kind === "new" && typeof value.passwordHash === "string")
    return { kind: "new", name, passwordHash: value.passwordHash };
  if (value.kind === "existing") return { kind: "existing", name };
  return null;
}

export function hashLinkToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/**
 * Issues a code with a fresh link token for the registration and mails it (or the "account
 * exists" mail). The payload is worked out only once the limits let the code go.
 */
function sendRegistrationCode(
  id: string,
  email: string,
  requester: MailRequester,
  limits: CodeLimit[],
  payload: () => Promise<RegistrationPayload>,
  options: { resend: boolean },
): Promise<SendCodeResult> {
  return sendCodeMail({
    purpose: "registration",
    subject: id,
    to: email,
    topic: `registration:${id}`,
    requester,
    limits,
    payload,
    mail: (issued, prepared) => registrationMail(id, issued, prepared),
    messages: {
      tooSoon: (seconds) => `再送信は${seconds}秒後にお試しください`,
      notSent: REGISTRATION_MESSAGES.sendFailed,
    },
    log: `[registration] ${options.resend ? "resend" : "code"} mail failed`,
  });
}

/** Stores the hash of a new link token on the code just issued and makes the mail that carries it. */
function registrationMail(id: string, issued: IssuedCode, payload: RegistrationPayload) {
  const token = crypto.randomBytes(32).toString("base64url");
  db()
    .update(verificationCodes)
    .set({ linkTokenHash: hashLinkToken(token) })
    .where(
      and(
        eq(verificationCodes.purpose, "registration"),
        eq(verificationCodes.subject, id),
        isNull(verificationCodes.consumedAt),
      ),
    )
    .run();
  const { SITE_URL } = env();
  return payload.kind === "new"
    ? registrationCodeMail({
        name: payload.name,
        code: issued.code,
        link: `${SITE_URL}/verify-email?token=${token}`,
        expiresAt: issued.expiresAt,
      })
    : accountExistsMail({
        name: payload.name,
        loginUrl: `${SITE_URL}/login`,
        resetUrl: `${SITE_URL}/forgot-password`,
        supportEmail: sellerInfo().email,
      });
}

/**
 * Starts a registration. A filled honeypot gets the same answer and nothing else
 * (no row, no mail), so a bot learns nothing.
 */
export async function startRegistration(
  request: Request,
  values: RegisterValues,
  options: { honeypot: boolean; fromOrder: boolean },
): Promise<
  { ok: true; registration: PendingRegistration } | Exclude<SendCodeResult, { ok: true }> | HashingBusy
> {
  const email = values.email.toLowerCase();
  const registration = {
    id: crypto.randomBytes(16).toString("base64url"),
    email,
    fromOrder: options.fromOrder,
  };
  if (options.honeypot) return { ok: true, registration };

  const perIp: CodeLimit = {
    key: originLimitKey(request, "register-ip"),
    limit: PER_IP_PER_HOUR,
    windowMs: HOUR_MS,
    message: REGISTRATION_MESSAGES.tooMany,
  };
  // The limits run first; the password is hashed only once they let the code go.
  const sent = await unlessHashingBusy(() =>
    sendRegistrationCode(
      registration.id,
      email,
      // Per e-mail address and requester, under a total per address (sendCodeMail, decision 0022).
      mailRequester(request),
      [perIp],
      async () => {
        // Hashed whether or not the address has an account, so both take the same time.
        const passwordHash = await hashPassword(values.password);
        const existing = db().select({ name: users.name }).from(users).where(eq(users.email, email)).get();
        return existing
          ? { kind: "existing", name: existing.name }
          : { kind: "new", name: values.name, passwordHash };
      },
      { resend: false },
    ),
  );
  return sent.ok ? { ok: true, registration } : sent;
}

/**
 * The register form's step, for the screen (/register) and the JSON calls alike: a filled
 * honeypot (`website`) is refused silently, and `from=order` brings the customer back to the
 * order afterwards.
 */
export function startRegistrationFrom(request: Request, values: RegisterValues) {
  const { website, from } = values;
  return startRegistration(request, values, {
    honeypot: typeof website === "string" && website.trim() !== "",
    fromOrder: from === "order",
  });
}

function currentRow(id: string) {
  return db()
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.purpose, "registration"), eq(verificationCodes.subject, id)))
    .orderBy(desc(verificationCodes.createdAt), desc(verificationCodes.id))
    .get();
}

/**
 * A new code (and link) for the registration in progress; at most one a minute. Counted for the
 * caller's address like the first.
 */
export async function resendRegistrationCode(
  registration: PendingRegistration,
  request: Request | null = null,
): Promise<SendCodeResult> {
  const row = currentRow(registration.id);
  const payload = parsePayload(row?.payload);
  // A honeypot registration has no row: it "succeeds" like the others.
  if (!row || !payload) return { ok: true };
  const requester = mailRequester(request);
  return sendRegistrationCode(registration.id, row.email, requester, [], () => Promise.resolve(payload), {
    resend: true,
  });
}

export type CompleteResult =
  { ok: true; email: string } | { ok: false; status: 400 | 409 | 429; message: string };

/** Makes the account from a verified code row, then forgets the password hash it carried. */
function createAccount(rowId: number, email: string, payload: RegistrationPayload | null): CompleteResult {
  db().update(verificationCodes).set({ payload: null }).where(eq(verificationCodes.id, rowId)).run();
  // Only a code that was never mailed (the address had an account) gets here with "existing": answer as for a wrong code.
  if (!payload || payload.kind !== "new") return { ok: false, status: 400, message: CODE_MESSAGES.wrong };
  const created = db()
    .insert(users)
    .values({ email, name: payload.name, passwordHash: payload.passwordHash, createdAt: now() })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id })
    .get();
  return created
    ? { ok: true, email }
    : { ok: false, status: 409, message: REGISTRATION_MESSAGES.alreadyRegistered };
}

/**
 * Wrong registration codes per address in a UTC day, counted as the checkout's are: a guesser with
 * many connections tries at most 50 codes at one address a day (a right guess would make an
 * account that sees the address's orders), and one stranger cannot close the address to its owner.
 */
export const ADDRESS_WRONG_REGISTRATION_CODE_CAPS = wrongCodeCaps("registration-wrong-code");

function wrongCodesAt(registration: PendingRegistration): number {
  return wrongTries("registration", { subject: registration.id }).reduce((sum, row) => sum + row.attempts, 0);
}

/**
 * The code step: the right code makes the account. Wrong codes count per address and requester
 * (`ADDRESS_WRONG_REGISTRATION_CODE_CAPS`; a request that came through no edge is one requester).
 */
export function verifyRegistrationCode(
  registration: PendingRegistration,
  code: string,
  request: Request | null = null,
): CompleteResult {
  const first = firstSubjectSince("registration", registration.email, new Date(now().getTime() - DAY_MS));
  const requester = { ...mailRequester(request), reserved: first === null || first === registration.id };
  const closed = requesterCapState(ADDRESS_WRONG_REGISTRATION_CODE_CAPS, registration.email, requester).until;
  if (closed) return { ok: false, status: 429, message: REGISTRATION_MESSAGES.addressClosed(closed) };
  const wrongBefore = wrongCodesAt(registration);
  const result = verifyCode("registration", registration.id, code);
  // Only a try the code counted (not one at a code already out of tries) counts at the address.
  const counted = wrongCodesAt(registration) - wrongBefore;
  if (counted > 0)
    countForRequester(ADDRESS_WRONG_REGISTRATION_CODE_CAPS, registration.email, requester, counted);
  if (!result.ok)
    return { ok: false, status: result.reason === "tooManyAttempts" ? 429 : 400, message: result.message };
  const row = currentRow(registration.id);
  if (!row) return { ok: false, status: 400, message: REGISTRATION_MESSAGES.failed };
  return createAccount(row.id, row.email, parsePayload(result.payload));
}

export type LinkResult =
  { ok: true; email: string; alreadyVerified: boolean } | { ok: false; message: string };

/**
 * The link in the registration mail. Opening it again after it worked (a reload, a mail
 * app that opened it first) still says the address is verified.
 */
export function verifyRegistrationLink(token: string | null): LinkResult {
  if (!token || token.length > 200) return { ok: false, message: REGISTRATION_MESSAGES.invalidToken };
  const row = db()
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.purpose, "registration"),
        eq(verificationCodes.linkTokenHash, hashLinkToken(token)),
      ),
    )
    .get();
  if (!row) return { ok: false, message: REGISTRATION_MESSAGES.invalidLink };
  const at = now();
  if (row.consumedAt || row.expiresAt <= at) {
    const account = db()
      .select({ createdAt: users.createdAt })
      .from(users)
      .where(eq(users.email, row.email))
      .get();
    return account && account.createdAt >= row.createdAt
      ? { ok: true, email: row.email, alreadyVerified: true }
      : { ok: false, message: REGISTRATION_MESSAGES.invalidLink };
  }
  // Used up atomically, so the code and the link cannot both make an account.
  const taken = db()
    .update(verificationCodes)
    .set({ consumedAt: at })
    .where(and(eq(verificationCodes.id, row.id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id })
    .get();
  if (!taken) return verifyRegistrationLink(token);
  const created = createAccount(row.id, row.email, parsePayload(row.payload));
  if (created.ok) return { ok: true, email: row.email, alreadyVerified: false };
  return created.status === 409
    ? { ok: true, email: row.email, alreadyVerified: true }
    : { ok: false, message: REGISTRATION_MESSAGES.invalidLink };
}
