import crypto from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { now } from "../core/clock.server";
import { db, type Db, type Tx } from "../db/client.server";
import { mailLinks, type MailLinkPurpose } from "../db/schema";
import { DAY_MS, MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * One-time links mailed to an account's own address: the password reset and the link that
 * confirms the address of an account the checkout's auto-login made. A link carries 256
 * random bits; only their SHA-256 is stored, with the expiry and when it was used, so a
 * database dump hands out no live link. A new link of a purpose replaces the user's older
 * unused ones, so only the latest mail works.
 */

export const MAIL_LINK_TTL_MS: Record<MailLinkPurpose, number> = {
  "password-reset": 30 * MINUTE_MS,
  // Mailed right after a purchase and read whenever the customer reads mail; opening it also needs the account's login.
  "address-confirmation": 7 * DAY_MS,
};

/** Long enough for any token we mail; anything longer is not one (and is not hashed). */
const MAX_TOKEN_LENGTH = 100;

function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** A new link for the user (older unused ones of the purpose stop working). Returns the token to mail. */
export function issueMailLink(
  purpose: MailLinkPurpose,
  userId: number,
  tx: Tx | Db = db(),
): { token: string; expiresAt: Date } {
  const at = now();
  tx.delete(mailLinks)
    .where(and(eq(mailLinks.purpose, purpose), eq(mailLinks.userId, userId), isNull(mailLinks.usedAt)))
    .run();
  const token = crypto.randomBytes(32).toString("base64url");
  const expiresAt = new Date(at.getTime() + MAIL_LINK_TTL_MS[purpose]);
  tx.insert(mailLinks)
    .values({ purpose, userId, tokenHash: hashToken(token), expiresAt, createdAt: at })
    .run();
  return { token, expiresAt };
}

export type MailLinkProblem = "unknown" | "expired" | "used";
export type MailLinkCheck =
  { ok: true; userId: number; linkId: number } | { ok: false; problem: MailLinkProblem };

/** Whether the token opens a live link of the purpose; nothing is changed. */
export function checkMailLink(purpose: MailLinkPurpose, token: unknown): MailLinkCheck {
  if (typeof token !== "string" || token === "" || token.length > MAX_TOKEN_LENGTH)
    return { ok: false, problem: "unknown" };
  const row = db()
    .select()
    .from(mailLinks)
    .where(and(eq(mailLinks.purpose, purpose), eq(mailLinks.tokenHash, hashToken(token))))
    .get();
  if (!row) return { ok: false, problem: "unknown" };
  if (row.usedAt) return { ok: false, problem: "used" };
  if (row.expiresAt <= now()) return { ok: false, problem: "expired" };
  return { ok: true, userId: row.userId, linkId: row.id };
}

/**
 * Uses the link, once: of two posts with the same token only one gets `ok`. Call inside the
 * transaction that does what the link allows, so a failure leaves the link unused.
 */
export function takeMailLink(purpose: MailLinkPurpose, token: unknown, tx: Tx | Db = db()): MailLinkCheck {
  const checked = checkMailLink(purpose, token);
  if (!checked.ok) return checked;
  const taken = tx
    .update(mailLinks)
    .set({ usedAt: now() })
    .where(and(eq(mailLinks.id, checked.linkId), isNull(mailLinks.usedAt), gt(mailLinks.expiresAt, now())))
    .returning({ id: mailLinks.id })
    .get();
  return taken ? checked : { ok: false, problem: "used" };
}

/** Ends the user's unused links of a purpose (the password was set another way, the address confirmed). */
export function dropMailLinks(purpose: MailLinkPurpose, userId: number, tx: Tx | Db = db()): void {
  tx.delete(mailLinks)
    .where(and(eq(mailLinks.purpose, purpose), eq(mailLinks.userId, userId), isNull(mailLinks.usedAt)))
    .run();
}
