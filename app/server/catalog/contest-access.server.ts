import crypto from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/schemas/parse-form";
import { ACCESS_CODE_INTENT, accessCodeMatches, normalizeAccessCode } from "~/lib/rules/access-code";
import { accessCodeEntrySchema } from "~/lib/schemas/access-code-schemas";
import { DAY_MS, HOUR_MS } from "~/lib/rules/tokyo-date";
import { hitRateLimit, originLimitKey, rateLimitUsed } from "../http/rate-limit.server";
import type { ShopSession } from "../http/session.server";

/**
 * A contest's 合言葉 on the server: whether a visitor has opened a contest, and the entry that
 * opens it. Behind the code are the order form (its loader and `.data`, its draft posts), the
 * checkout of a draft for the contest, its samples' files and thumbnails and its media list; its
 * name and cover stay public (the home page's card), and an order's own pages (status, downloads,
 * 領収書) open by their tokens without it.
 *
 * Guessing (decision 0046): only wrong entries count, so a venue full of parents typing the right
 * code never locks anyone out. Per client address (IPv4, or IPv6 /64) 10 wrong an hour and 30 a
 * day over all contests; per contest 100 wrong a day (UTC day) from all addresses together. The
 * shortest code is 6 characters; six digits are 10^6 codes, so an attacker with any number of
 * addresses gets 100 guesses a calendar day (200 in the 24 hours around a window's turn): a
 * chance of 1 in 10,000 a day, some 5,000 days on average to find it. One address alone gets 30.
 */
export const ACCESS_CODE_LIMITS = {
  perAddressHour: { limit: 10, windowMs: HOUR_MS },
  perAddressDay: { limit: 30, windowMs: DAY_MS },
  perContestDay: { limit: 100, windowMs: DAY_MS },
} as const;

/** A session keeps at most this many opened contests (the oldest go first). */
const OPENED_KEPT = 50;

type LockedContest = { id: number; accessCode: string | null };

/** The code as the session remembers it: a change of code closes the contest again. */
function fingerprint(contest: { id: number; accessCode: string }): string {
  return crypto
    .createHash("sha256")
    .update(`${contest.id}:${normalizeAccessCode(contest.accessCode)}`)
    .digest("base64url")
    .slice(0, 22);
}

/** Whether the contest has a 合言葉. */
export function hasAccessCode(contest: LockedContest): contest is { id: number; accessCode: string } {
  return Boolean(contest.accessCode);
}

/** Whether this visitor may see the contest's order form: no code, or its current code entered. */
export function contestOpen(session: ShopSession, contest: LockedContest): boolean {
  if (!hasAccessCode(contest)) return true;
  return session.get("openedContests")?.[String(contest.id)] === fingerprint(contest);
}

export type AccessCodeOutcome =
  | { ok: true }
  | { ok: false; status: 400 | 403 | 429; reply: SubmissionResult<string[]>; retryAfterSeconds?: number };

export const WRONG_ACCESS_CODE_MESSAGE =
  "合言葉が違います。会場でお配りした案内の合言葉をご確認のうえ、もう一度入力してください。";
export const ACCESS_CODE_FIRST_MESSAGE = "この大会の注文フォームは、合言葉を入力してからご利用いただけます。";
export const ACCESS_CODE_LIMIT_MESSAGE =
  "合言葉の入力が続けて間違っていたため、しばらく受け付けられません。時間をおいてもう一度お試しください。";

/** The counters a wrong entry moves: this address's (when known) and the contest's. */
function countersFor(request: Request, contest: { id: number; accessCode: string }) {
  const { perAddressHour, perAddressDay, perContestDay } = ACCESS_CODE_LIMITS;
  const counters: { key: string; limit: number; windowMs: number }[] = [];
  const hourKey = originLimitKey(request, "access-code-hour");
  const dayKey = originLimitKey(request, "access-code-day");
  if (hourKey) counters.push({ key: hourKey, ...perAddressHour });
  if (dayKey) counters.push({ key: dayKey, ...perAddressDay });
  // Per code: guesses at an old code are worth nothing, so a new code (the admin's answer to
  // someone spending the day's entries) starts a fresh count.
  counters.push({ key: `access-code-contest:${fingerprint(contest)}`, ...perContestDay });
  return counters;
}

/**
 * A parent's entry of the code: refused while a limit is spent (429, whatever was typed, so a
 * right guess past the limit tells nothing), else compared; a wrong one counts against every
 * limit (403), a right one opens the contest for the session.
 */
export function enterAccessCode(
  session: ShopSession,
  request: Request,
  contest: LockedContest,
  form: FormData,
): AccessCodeOutcome {
  const submission = parseForm(form, { schema: accessCodeEntrySchema });
  if (!hasAccessCode(contest) || contestOpen(session, contest)) return { ok: true };
  // Any other post to a form not yet opened (a draft, an item added) saves nothing.
  if (form.get("intent") !== ACCESS_CODE_INTENT)
    return { ok: false, status: 403, reply: submission.reply({ formErrors: [ACCESS_CODE_FIRST_MESSAGE] }) };
  if (submission.status !== "success") return { ok: false, status: 400, reply: submission.reply() };
  const counters = countersFor(request, contest);
  const spent = counters.find((counter) => rateLimitUsed(counter.key, counter.windowMs) >= counter.limit);
  if (spent) {
    const retry = hitRateLimit(spent.key, spent.limit, spent.windowMs).retryAfterSeconds;
    return {
      ok: false,
      status: 429,
      reply: submission.reply({ formErrors: [ACCESS_CODE_LIMIT_MESSAGE] }),
      retryAfterSeconds: retry,
    };
  }
  if (!accessCodeMatches(contest.accessCode, submission.value.accessCode)) {
    for (const counter of counters) hitRateLimit(counter.key, counter.limit, counter.windowMs);
    return {
      ok: false,
      status: 403,
      reply: submission.reply({ fieldErrors: { accessCode: [WRONG_ACCESS_CODE_MESSAGE] } }),
    };
  }
  const opened = Object.entries(session.get("openedContests") ?? {}).filter(
    ([id]) => id !== String(contest.id),
  );
  session.set(
    "openedContests",
    Object.fromEntries([...opened.slice(-(OPENED_KEPT - 1)), [String(contest.id), fingerprint(contest)]]),
  );
  return { ok: true };
}
