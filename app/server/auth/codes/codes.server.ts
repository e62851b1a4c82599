import crypto from "node:crypto";
import { and, asc, desc, eq, gt, isNull } from "drizzle-orm";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "~/lib/rules/tokyo-date";
import { now } from "../../core/clock.server";
import { db, type Db, type Tx } from "../../db/client.server";
import { verificationCodes, type CodePurpose } from "../../db/schema";
import { env } from "../../core/env.server";
import { countMail, mailCapUntil, UNKNOWN_REQUESTER, type MailRequester } from "./mail-caps.server";

/** Six-digit codes sent by mail: valid 10 minutes, 5 wrong tries, one resend per 60 s. */
export const CODE_TTL_MS = 10 * MINUTE_MS;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_RESEND_INTERVAL_MS = MINUTE_MS;

/**
 * Codes only the account's owner can ask for, each purpose counted on its own per address (one
 * account): a password change and an authenticator change (logged in), an admin login (after
 * the right password). Every other code (the checkout's, registration's: anyone can ask for
 * them for any address) is counted per requester with a total per address (mail-caps.server.ts,
 * decision 0022), so a stranger filling those cannot touch these.
 *
 * An admin login mails a code each time: its cap is a backstop against a script that has the
 * password, above any admin logging in by hand (the 60-minute admin session means a login an
 * hour, a few more on other devices). A new login code brings no new tries (wrong codes count
 * on the account, 5 lock it), so a lower cap guarded nothing and locked her out of her own codes.
 */
export const OWNER_CODE_CAPS: Partial<Record<CodePurpose, readonly { limit: number; windowMs: number }[]>> = {
  "admin-2fa": [
    { limit: 30, windowMs: HOUR_MS },
    { limit: 100, windowMs: DAY_MS },
  ],
  "password-change": [
    { limit: 5, windowMs: HOUR_MS },
    { limit: 20, windowMs: DAY_MS },
  ],
  "authenticator-change": [
    { limit: 5, windowMs: HOUR_MS },
    { limit: 20, windowMs: DAY_MS },
  ],
};

/** The one spelling of an address that codes are counted under: trimmed, lower-case. */
export function codeAddress(email: string): string {
  return email.trim().toLowerCase();
}

export const CODE_MESSAGES = {
  expired: "認証コードが無効または期限切れです。新しいコードを取得してください。",
  wrong: "認証コードが正しくありません。再度お試しください。",
  tooManyAttempts: "入力回数の上限に達しました。新しいコードを取得してください。",
} as const;

// Keyed with the server's secret: six digits are too few for a plain hash to hide them.
function hashCode(purpose: CodePurpose, subject: string, code: string): string {
  const [secret = ""] = env().SESSION_SECRETS;
  return crypto.createHmac("sha256", secret).update(`${purpose}:${subject}:${code}`).digest("hex");
}

export function randomCode(): string {
  return crypto.randomInt(0, 1_000_000).toString().padStart(6, "0");
}

/** Why no code is issued: the last one is under 60 s old, or the address has had its codes for now. */
export type IssueRefusal =
  | { ok: false; reason: "tooSoon"; retryAfterSeconds: number }
  | { ok: false; reason: "addressCap"; until: Date };

export type IssueResult = { ok: true; code: string; expiresAt: Date } | IssueRefusal;

/**
 * When the address may have its next code of this purpose, or null when it may now: an owner's
 * code by its own count over `verification_codes` (a sliding window, which is why those rows are
 * kept), any other code by its requester's count and the address's total (mail-caps.server.ts).
 */
function addressCapUntil(
  purpose: CodePurpose,
  email: string,
  at: Date,
  requester: MailRequester | undefined,
): Date | null {
  const ownerCaps = OWNER_CODE_CAPS[purpose];
  if (!ownerCaps) return mailCapUntil("code", email, requester ?? UNKNOWN_REQUESTER);
  let until: Date | null = null;
  for (const { limit, windowMs } of ownerCaps) {
    const issued = db()
      .select({ createdAt: verificationCodes.createdAt })
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.email, email),
          eq(verificationCodes.purpose, purpose),
          gt(verificationCodes.createdAt, new Date(at.getTime() - windowMs)),
        ),
      )
      .orderBy(asc(verificationCodes.createdAt))
      .all();
    // The window slides: the next code may go once enough of the oldest ones have left it.
    const oldestToLeave = issued.at(issued.length - limit);
    if (issued.length < limit || !oldestToLeave) continue;
    const freed = new Date(oldestToLeave.createdAt.getTime() + windowMs);
    if (!until || freed > until) until = freed;
  }
  return until;
}

/** `force` skips the 60-second rule; `requester` is who asks (for codes anyone can ask for). */
export type IssueOptions = { force?: boolean; requester?: MailRequester };

/**
 * Whether a new code for (purpose, subject) to this address would be refused, and why:
 * the previous code was issued less than 60 s ago (unless `force`: a changed e-mail
 * address), or the address has had its codes for now. Read-only, so a caller can ask
 * before costly work; `issueCode` asks again in its own transaction.
 */
export function issueRefusal(
  purpose: CodePurpose,
  subject: string,
  email: string,
  options: IssueOptions = {},
): IssueRefusal | null {
  const at = now();
  const latest = latestCode(purpose, subject);
  if (latest && !options.force) {
    const wait = latest.createdAt.getTime() + CODE_RESEND_INTERVAL_MS - at.getTime();
    if (wait > 0) return { ok: false, reason: "tooSoon", retryAfterSeconds: Math.ceil(wait / 1000) };
  }
  const until = addressCapUntil(purpose, codeAddress(email), at, options.requester);
  return until ? { ok: false, reason: "addressCap", until } : null;
}

/** Makes a new code for (purpose, subject), replacing any earlier one, unless `issueRefusal` refuses it. */
export function issueCode(
  purpose: CodePurpose,
  subject: string,
  email: string,
  options: IssueOptions & { payload?: Record<string, unknown> } = {},
): IssueResult {
  return db().transaction(
    (tx) => {
      const refused = issueRefusal(purpose, subject, email, options);
      if (refused) return refused;
      const at = now();
      const code = randomCode();
      const expiresAt = new Date(at.getTime() + CODE_TTL_MS);
      retireCodes(purpose, subject, tx);
      if (!OWNER_CODE_CAPS[purpose]) countMail("code", email, options.requester ?? UNKNOWN_REQUESTER);
      tx.insert(verificationCodes)
        .values({
          purpose,
          subject,
          email: codeAddress(email),
          codeHash: hashCode(purpose, subject, code),
          payload: options.payload,
          expiresAt,
          createdAt: at,
        })
        .run();
      return { ok: true, code, expiresAt } as const;
    },
    { behavior: "immediate" },
  );
}

function latestCode(purpose: CodePurpose, subject: string) {
  return db()
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.purpose, purpose), eq(verificationCodes.subject, subject)))
    .orderBy(desc(verificationCodes.createdAt), desc(verificationCodes.id))
    .get();
}

export type VerifyResult =
  | { ok: true; email: string; payload: Record<string, unknown> | null }
  | {
      ok: false;
      reason: "expired" | "wrong" | "tooManyAttempts";
      message: string;
      remainingAttempts: number;
    };

/** Checks a code; a wrong one counts as an attempt, a right one is used up. */
export function verifyCode(purpose: CodePurpose, subject: string, code: string): VerifyResult {
  return db().transaction(
    (tx) => {
      const row = tx
        .select()
        .from(verificationCodes)
        .where(
          and(
            eq(verificationCodes.purpose, purpose),
            eq(verificationCodes.subject, subject),
            isNull(verificationCodes.consumedAt),
          ),
        )
        .orderBy(desc(verificationCodes.createdAt), desc(verificationCodes.id))
        .get();
      if (!row || row.expiresAt <= now())
        return {
          ok: false,
          reason: "expired",
          message: CODE_MESSAGES.expired,
          remainingAttempts: 0,
        } as const;
      if (row.attempts >= CODE_MAX_ATTEMPTS) {
        return {
          ok: false,
          reason: "tooManyAttempts",
          message: CODE_MESSAGES.tooManyAttempts,
          remainingAttempts: 0,
        } as const;
      }
      const expected = Buffer.from(row.codeHash, "hex");
      const actual = Buffer.from(hashCode(purpose, subject, code), "hex");
      if (!crypto.timingSafeEqual(expected, actual)) {
        const attempts = row.attempts + 1;
        tx.update(verificationCodes).set({ attempts }).where(eq(verificationCodes.id, row.id)).run();
        const remainingAttempts = CODE_MAX_ATTEMPTS - attempts;
        return remainingAttempts > 0
          ? ({ ok: false, reason: "wrong", message: CODE_MESSAGES.wrong, remainingAttempts } as const)
          : ({
              ok: false,
              reason: "tooManyAttempts",
              message: CODE_MESSAGES.tooManyAttempts,
              remainingAttempts: 0,
            } as const);
      }
      tx.update(verificationCodes).set({ consumedAt: now() }).where(eq(verificationCodes.id, row.id)).run();
      return { ok: true, email: row.email, payload: row.payload ?? null } as const;
    },
    { behavior: "immediate" },
  );
}

/**
 * The subject (say, the checkout) that asked for the address's first code of this purpose
 * since `since`, or null when none did.
 */
export function firstSubjectSince(purpose: CodePurpose, email: string, since: Date): string | null {
  return (
    db()
      .select({ subject: verificationCodes.subject })
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.purpose, purpose),
          eq(verificationCodes.email, codeAddress(email)),
          gt(verificationCodes.createdAt, since),
        ),
      )
      .orderBy(asc(verificationCodes.createdAt), asc(verificationCodes.id))
      .get()?.subject ?? null
  );
}

/** When the current code of (purpose, subject) was sent, for "resend in N seconds". */
export function lastIssuedAt(purpose: CodePurpose, subject: string): Date | null {
  return latestCode(purpose, subject)?.createdAt ?? null;
}

/**
 * The wrong tries at every code of a purpose for one subject (say, one checkout, across its
 * resends and address changes), oldest code first.
 */
export function wrongTries(
  purpose: CodePurpose,
  of: { subject: string },
): { createdAt: Date; attempts: number }[] {
  return db()
    .select({ createdAt: verificationCodes.createdAt, attempts: verificationCodes.attempts })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.purpose, purpose),
        gt(verificationCodes.attempts, 0),
        eq(verificationCodes.subject, of.subject),
      ),
    )
    .orderBy(asc(verificationCodes.createdAt))
    .all();
}

/** Ends every live code of (purpose, subject): nothing mailed for it can be used any more. */
export function retireCodes(purpose: CodePurpose, subject: string, tx: Tx | Db = db()): void {
  tx.update(verificationCodes)
    .set({ consumedAt: now() })
    .where(
      and(
        eq(verificationCodes.purpose, purpose),
        eq(verificationCodes.subject, subject),
        isNull(verificationCodes.consumedAt),
      ),
    )
    .run();
}
