import { and, eq, sql } from "drizzle-orm";
import { DAY_MS, HOUR_MS } from "~/lib/rules/tokyo-date";
import { now } from "../../core/clock.server";
import { db } from "../../db/client.server";
import { rateLimits } from "../../db/schema";
import { originLimitKey } from "../../http/rate-limit.server";

/**
 * Caps on the mail anyone can have sent to an address without proving it is theirs: checkout
 * and registration codes, password-reset links, order-lookup links (decision 0022).
 *
 * Counted per (address, requester), not per address alone: a cap per address is one bucket a
 * stranger who knows the address fills for its owner (five checkout codes and the guest could
 * not verify her own address for an hour, twenty and for the day). The requester is the
 * caller's address (an IPv6 /64 counts as one). Above those, one total per address keeps the
 * mail to it bounded however many requesters ask (no mail bomb); a reserved requester (the
 * checkout that asked for the address's first code of the day) is not refused by the total, so
 * a flood that starts after the guest does cannot take her code away. Refused requests count
 * nowhere. The same counting bounds wrong codes (steps.server.ts, registration.server.ts).
 *
 * Fixed windows in `rate_limits` (an hour, a UTC day), the counters every other limit uses.
 */

/** What a stranger can have mailed to an address: each kind has its own per-requester count. */
export type StrangerMail = "code" | "password-reset" | "order-lookup";

/**
 * Wrong codes per address in a UTC day, counted the same way for every code a stranger can have
 * mailed (the checkout's, a registration's): 10 per requester, as the whole address had before,
 * and 50 from all requesters together, which bounds the guesses at one address's codes; the
 * checkout or registration that asked first is not closed by the total (decision 0022).
 */
export function wrongCodeCaps(name: string): RequesterCaps {
  return {
    name,
    perRequester: [{ limit: 10, windowMs: DAY_MS }],
    totalName: `${name}-total`,
    total: [{ limit: 50, windowMs: DAY_MS }],
  };
}

/** Who asks for the mail. `reserved`: not refused by the address's total (see above). */
export type MailRequester = { key: string; reserved?: boolean };

/** Per (address, requester, kind): what one person's slips and slow mail need (the old address caps). */
export const PER_REQUESTER_MAIL_CAPS = [
  { limit: 5, windowMs: HOUR_MS },
  { limit: 20, windowMs: DAY_MS },
] as const;

/**
 * Per address, every kind and requester together: six requesters at their hourly cap fill the
 * hour. Below what one address could be sent from these three before (20 codes, 120 reset and
 * 120 lookup links a day), so the bound on its mailbox is no looser than it was.
 */
export const ADDRESS_MAIL_TOTALS = [
  { limit: 30, windowMs: HOUR_MS },
  { limit: 200, windowMs: DAY_MS },
] as const;

/** The one spelling an address is counted under. */
function addressKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The requester of a request: the caller's address (the edge always knows it), else one
 * bucket for every request that came through no edge (a test's): the address's own count,
 * as before this scheme.
 */
export function mailRequester(request: Request | null): MailRequester {
  return { key: (request && originLimitKey(request, "from")) ?? UNKNOWN_REQUESTER.key };
}

/** Whoever asks through no edge: one shared bucket. */
export const UNKNOWN_REQUESTER: MailRequester = { key: "unknown" };

type Cap = { readonly limit: number; readonly windowMs: number };

/**
 * A count kept per (address, requester) under a total per address: the mail below, and the
 * checkout's wrong codes (steps.server.ts), which a stranger could otherwise spend for the guest
 * the same way. `name` and `totalName` key the counters.
 */
export type RequesterCaps = {
  name: string;
  perRequester: readonly Cap[];
  totalName: string;
  total: readonly Cap[];
};

function mailCaps(kind: StrangerMail): RequesterCaps {
  return {
    name: `mail:${kind}`,
    perRequester: PER_REQUESTER_MAIL_CAPS,
    totalName: "mail-total",
    total: ADDRESS_MAIL_TOTALS,
  };
}

type Counter = Cap & { key: string };

/** The counters a requester is held to: its own, and the address's total unless it is reserved. */
function countersFor(caps: RequesterCaps, email: string, requester: MailRequester, all = false): Counter[] {
  const address = addressKey(email);
  const own = caps.perRequester.map((cap) => ({ key: `${caps.name}:${address}:${requester.key}`, ...cap }));
  const total = caps.total.map((cap) => ({ key: `${caps.totalName}:${address}`, ...cap }));
  return requester.reserved && !all ? own : [...own, ...total];
}

function windowStartOf(at: number, windowMs: number): number {
  return Math.floor(at / windowMs) * windowMs;
}

function countOf({ key, windowMs }: Counter, at: number): number {
  return (
    db()
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStartOf(at, windowMs))))
      .get()?.count ?? 0
  );
}

/**
 * How many more the requester may have now (the fewest any of its counters allows), and, when
 * none, until when. Read-only.
 */
export function requesterCapState(
  caps: RequesterCaps,
  email: string,
  requester: MailRequester,
): { left: number; until: Date | null } {
  const at = now().getTime();
  let left = Infinity;
  let until: number | null = null;
  for (const counter of countersFor(caps, email, requester)) {
    const counterLeft = counter.limit - countOf(counter, at);
    left = Math.min(left, Math.max(0, counterLeft));
    if (counterLeft > 0) continue;
    const end = windowStartOf(at, counter.windowMs) + counter.windowMs;
    if (until === null || end > until) until = end;
  }
  return { left, until: until === null ? null : new Date(until) };
}

/** Counts `times` for this requester at the address (and in the address's total, reserved or not). */
export function countForRequester(
  caps: RequesterCaps,
  email: string,
  requester: MailRequester,
  times = 1,
): void {
  const at = now().getTime();
  for (const { key, windowMs } of countersFor(caps, email, requester, true))
    db()
      .insert(rateLimits)
      .values({ key, windowStart: windowStartOf(at, windowMs), count: times })
      .onConflictDoUpdate({
        target: [rateLimits.key, rateLimits.windowStart],
        set: { count: sql`${rateLimits.count} + ${times}` },
      })
      .run();
}

/**
 * When this requester may have the next mail of `kind` to the address, or null when it may now.
 * Read-only: `countMail` counts the mail once it is sure to go.
 */
export function mailCapUntil(kind: StrangerMail, email: string, requester: MailRequester): Date | null {
  return requesterCapState(mailCaps(kind), email, requester).until;
}

/** Counts one mail of `kind` to the address for this requester (and in the address's total). */
export function countMail(kind: StrangerMail, email: string, requester: MailRequester): void {
  countForRequester(mailCaps(kind), email, requester);
}

/** Checks and counts in one transaction: null when the mail may go (and is counted), else until when not. */
export function takeMailAllowance(kind: StrangerMail, email: string, requester: MailRequester): Date | null {
  return db().transaction(
    () => {
      const until = mailCapUntil(kind, email, requester);
      if (!until) countMail(kind, email, requester);
      return until;
    },
    { behavior: "immediate" },
  );
}
