import { and, count, countDistinct, desc, eq, gt, gte, max } from "drizzle-orm";
import { HOUR_MS } from "~/lib/rules/tokyo-date";
import { now } from "../../core/clock.server";
import { db } from "../../db/client.server";
import { loginEvents, LOGIN_OUTCOMES } from "../../db/schema";
import { clientIp } from "../../http/rate-limit.server";

/**
 * Every login attempt, customer or admin, is written here with a risk score; the
 * security dashboard reads these rows, and the lockout of addresses that have no
 * account is derived from them (so they behave exactly like addresses that do).
 */

export type LoginKind = "customer" | "admin";
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];

const USER_AGENT_MAX = 500;
/** What a login record says when no address is known (a request that did not come through the server's edge): not an address to group by. */
export const UNKNOWN_ADDRESS = "unknown";

export type RiskFactors = {
  /** Consecutive failed attempts for the e-mail, this one included when it failed. */
  failureStreak: number;
  /** The account exists and has never logged in successfully from this address. */
  newIpForAccount: boolean;
  /** Different e-mails tried from this address in the last hour, this one included. */
  distinctEmailsFromIp: number;
};

/** 0–100: up to 50 for a failure streak, 20 for a new address, up to 30 for one address trying many e-mails. */
export function riskScore({ failureStreak, newIpForAccount, distinctEmailsFromIp }: RiskFactors): number {
  const streak = Math.min(Math.max(failureStreak, 0), 10) * 5;
  const newIp = newIpForAccount ? 20 : 0;
  const spread =
    distinctEmailsFromIp >= 10 ? 30 : distinctEmailsFromIp >= 5 ? 20 : distinctEmailsFromIp >= 3 ? 10 : 0;
  return Math.min(100, streak + newIp + spread);
}

/** Failed attempts for (kind, e-mail) since its last success, and when the latest of them was. */
export function failureStreak(
  kind: LoginKind,
  email: string,
): { failures: number; lastFailureAt: Date | null } {
  // By id, not time: two attempts can share a millisecond, ids never do.
  const lastSuccessId = db()
    .select({ id: max(loginEvents.id) })
    .from(loginEvents)
    .where(and(eq(loginEvents.email, email), eq(loginEvents.kind, kind), eq(loginEvents.outcome, "success")))
    .get()?.id;
  const row = db()
    .select({ failures: count(), lastFailureAt: max(loginEvents.createdAt) })
    .from(loginEvents)
    .where(
      and(
        eq(loginEvents.email, email),
        eq(loginEvents.kind, kind),
        eq(loginEvents.outcome, "failure"),
        lastSuccessId ? gt(loginEvents.id, lastSuccessId) : undefined,
      ),
    )
    .get();
  return { failures: row?.failures ?? 0, lastFailureAt: row?.lastFailureAt ?? null };
}

/**
 * The current run of failed passwords of an address, at either login, read from the records
 * (for addresses without an account, so that they answer exactly as accounts do): the
 * failures since its last success, back to the first gap of `quietMs` or more between two.
 */
export function recentFailureRun(
  email: string,
  quietMs: number,
): { failures: number; lastFailureAt: Date | null } {
  const lastSuccessId = db()
    .select({ id: max(loginEvents.id) })
    .from(loginEvents)
    .where(and(eq(loginEvents.email, email), eq(loginEvents.outcome, "success")))
    .get()?.id;
  // A run never passes the largest limit (10): every login refuses without counting from there.
  const rows = db()
    .select({ createdAt: loginEvents.createdAt })
    .from(loginEvents)
    .where(
      and(
        eq(loginEvents.email, email),
        eq(loginEvents.outcome, "failure"),
        lastSuccessId ? gt(loginEvents.id, lastSuccessId) : undefined,
      ),
    )
    .orderBy(desc(loginEvents.id))
    .limit(50)
    .all();
  let failures = 0;
  let later: Date | null = null;
  for (const row of rows) {
    if (later && later.getTime() - row.createdAt.getTime() >= quietMs) break;
    failures++;
    later = row.createdAt;
  }
  return { failures, lastFailureAt: rows[0]?.createdAt ?? null };
}

function isNewIpForAccount(kind: LoginKind, userId: number, ip: string): boolean {
  const earlier = db()
    .select({ id: loginEvents.id })
    .from(loginEvents)
    .where(
      and(
        eq(loginEvents.userId, userId),
        eq(loginEvents.kind, kind),
        eq(loginEvents.ip, ip),
        eq(loginEvents.outcome, "success"),
      ),
    )
    .limit(1)
    .get();
  return !earlier;
}

function distinctEmailsFromIp(ip: string, email: string, since: Date): number {
  const row = db()
    .select({ emails: countDistinct(loginEvents.email) })
    .from(loginEvents)
    .where(and(eq(loginEvents.ip, ip), gte(loginEvents.createdAt, since)))
    .get();
  const seen = db()
    .select({ id: loginEvents.id })
    .from(loginEvents)
    .where(and(eq(loginEvents.ip, ip), eq(loginEvents.email, email), gte(loginEvents.createdAt, since)))
    .limit(1)
    .get();
  return (row?.emails ?? 0) + (seen ? 0 : 1);
}

/** Requests made with an admin's API token (api-access.server.ts): recorded here, but no logins. */
export const API_TOKEN_OUTCOMES = [
  "api-token",
  "api-token-refused",
] as const satisfies readonly LoginOutcome[];

export function isApiTokenOutcome(outcome: LoginOutcome): boolean {
  return (API_TOKEN_OUTCOMES as readonly LoginOutcome[]).includes(outcome);
}

export type LoginEventInput = {
  kind: LoginKind;
  email: string;
  userId: number | null;
  outcome: LoginOutcome;
  request: Request;
};

/** Writes one attempt with its risk score (computed from the attempts before it) and returns the score. */
export function recordLoginEvent({ kind, email, userId, outcome, request }: LoginEventInput): number {
  const ip = clientIp(request);
  const at = now();
  // A password's failures say nothing of a request made with an API token (a script's).
  const passwordAttempt = !isApiTokenOutcome(outcome);
  const streak =
    outcome === "success" || !passwordAttempt
      ? 0
      : failureStreak(kind, email).failures + (outcome === "failure" ? 1 : 0);
  // Without a known address the address signals are left out: every attempt would share one.
  const score = riskScore({
    failureStreak: streak,
    newIpForAccount: ip !== null && userId !== null && isNewIpForAccount(kind, userId, ip),
    distinctEmailsFromIp: ip === null ? 1 : distinctEmailsFromIp(ip, email, new Date(at.getTime() - HOUR_MS)),
  });
  db()
    .insert(loginEvents)
    .values({
      kind,
      email,
      userId,
      ip: ip ?? UNKNOWN_ADDRESS,
      userAgent: (request.headers.get("User-Agent") ?? "").slice(0, USER_AGENT_MAX),
      outcome,
      riskScore: score,
      createdAt: at,
    })
    .run();
  return score;
}

/** The latest attempts, newest first (for tests and the security dashboard). */
export function recentLoginEvents(limit = 50) {
  return db()
    .select()
    .from(loginEvents)
    .orderBy(desc(loginEvents.createdAt), desc(loginEvents.id))
    .limit(limit)
    .all();
}
