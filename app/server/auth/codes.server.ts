import crypto from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { verificationCodes, type CodePurpose } from "../db/schema";
import { env } from "../core/env.server";

/** Six-digit codes sent by mail: valid 10 minutes, 5 wrong tries, one resend per 60 s. */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_RESEND_INTERVAL_MS = 60 * 1000;

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

export type IssueResult =
  { ok: true; code: string; expiresAt: Date } | { ok: false; retryAfterSeconds: number };

/**
 * Makes a new code for (purpose, subject), replacing any earlier one. Refused when the
 * previous code was issued less than 60 s ago, unless `force` (a changed e-mail address).
 */
export function issueCode(
  purpose: CodePurpose,
  subject: string,
  email: string,
  options: { force?: boolean; payload?: Record<string, unknown> } = {},
): IssueResult {
  const at = now();
  const latest = latestCode(purpose, subject);
  if (latest && !options.force) {
    const wait = latest.createdAt.getTime() + CODE_RESEND_INTERVAL_MS - at.getTime();
    if (wait > 0) return { ok: false, retryAfterSeconds: Math.ceil(wait / 1000) };
  }
  const code = randomCode();
  const expiresAt = new Date(at.getTime() + CODE_TTL_MS);
  db().transaction((tx) => {
    tx.update(verificationCodes)
      .set({ consumedAt: at })
      .where(
        and(
          eq(verificationCodes.purpose, purpose),
          eq(verificationCodes.subject, subject),
          isNull(verificationCodes.consumedAt),
        ),
      )
      .run();
    tx.insert(verificationCodes)
      .values({
        purpose,
        subject,
        email,
        codeHash: hashCode(purpose, subject, code),
        payload: options.payload,
        expiresAt,
        createdAt: at,
      })
      .run();
  });
  return { ok: true, code, expiresAt };
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

/** When the current code of (purpose, subject) was sent, for "resend in N seconds". */
export function lastIssuedAt(purpose: CodePurpose, subject: string): Date | null {
  return latestCode(purpose, subject)?.createdAt ?? null;
}
