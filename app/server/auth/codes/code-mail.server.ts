import { formatDateTime } from "~/lib/rules/format";
import { now } from "../../core/clock.server";
import { issueCode, issueRefusal, type IssueRefusal } from "./codes.server";
import type { CodePurpose } from "../../db/schema";
import { hitRateLimit } from "../../http/rate-limit.server";
import type { MailRequester } from "./mail-caps.server";
import { sendThroughOutbox, type OutgoingMail } from "../../mail/outbox.server";

/**
 * One pipeline for every mailed code (checkout e-mail, registration, password change, admin
 * second factor): rate limits → a new code → the mail through the outbox → a log line and 503
 * when the mail server did not take it. Each caller brings its own limits, mail and messages;
 * the caps on an address's codes hold for every caller here: an owner's codes per account
 * (`OWNER_CODE_CAPS` in codes.server.ts), any other per requester with a total per address
 * (mail-caps.server.ts, decision 0022), so a caller of those says who asks (`requester`).
 */

/** Past an address's cap: said the same way for every code, with when the next one can go. */
export function addressCapMessage(until: Date): string {
  return `このメールアドレスへの認証コードの送信回数が上限に達しました。${formatDateTime(until)} 以降に、もう一度お試しください。`;
}

/**
 * What sending a code answers. `alreadySent`: refused because the code from less than 60 s
 * ago is still good. `addressCap`: the address has had its codes for now (nothing was mailed).
 */
export type SendCodeResult =
  | { ok: true }
  | {
      ok: false;
      status: 429 | 503;
      message: string;
      alreadySent?: true;
      addressCap?: true;
      /** When a 429's next code may go (the Retry-After of a JSON call). */
      retryAfterSeconds?: number;
    };

/**
 * A rate limit checked before the code is made; the first one refused answers 429 with its
 * message. A null key is a per-origin limit whose client address is unknown: not counted.
 */
export type CodeLimit = { key: string | null; limit: number; windowMs: number; message: string };

export type IssuedCode = { code: string; expiresAt: Date };

type CodeMailBase = {
  purpose: CodePurpose;
  subject: string;
  to: string;
  /** The outbox topic: a newer code cancels the older unsent mail. */
  topic: string;
  limits?: readonly CodeLimit[];
  /** Skip the 60-second rule (a changed address, a login step's first code). */
  force?: boolean;
  /** Who asks, for codes anyone can ask for (checkout, registration): its own count at the address. */
  requester?: MailRequester;
  messages: {
    /** The last code was sent less than 60 s ago. */
    tooSoon: (retryAfterSeconds: number) => string;
    /** The mail server did not take the mail (the outbox keeps trying until the code expires). */
    notSent: string;
  };
  /** Written to the error log when the mail server did not take the mail. */
  log: string;
};

type WithPayload<P> = CodeMailBase & {
  /** What the code row carries, worked out only once the limits let the code go (it may cost a password hash). */
  payload: () => Promise<P>;
  /** The mail for the new code; it may also store what the mail links to. */
  mail: (issued: IssuedCode, payload: P) => OutgoingMail["mail"];
};

type WithoutPayload = CodeMailBase & {
  payload?: undefined;
  mail: (issued: IssuedCode) => OutgoingMail["mail"];
};

export async function sendCodeMail<P extends Record<string, unknown>>(
  send: WithPayload<P> | WithoutPayload,
): Promise<SendCodeResult> {
  for (const { key, limit, windowMs, message } of send.limits ?? []) {
    const hit = key === null ? null : hitRateLimit(key, limit, windowMs);
    if (hit && !hit.allowed)
      return { ok: false, status: 429, message, retryAfterSeconds: hit.retryAfterSeconds };
  }
  // Asked before the payload (which may cost a password hash), and again when the code is made.
  const refused = issueRefusal(send.purpose, send.subject, send.to, {
    force: send.force,
    requester: send.requester,
  });
  if (refused) return refusal(refused, send);
  const compose = send.payload ? await withPayload(send) : { payload: undefined, mail: send.mail };
  const issued = issueCode(send.purpose, send.subject, send.to, {
    force: send.force,
    requester: send.requester,
    payload: compose.payload,
  });
  if (!issued.ok) return refusal(issued, send);
  const sent = await sendThroughOutbox({
    to: send.to,
    topic: send.topic,
    expiresAt: issued.expiresAt,
    mail: compose.mail(issued),
  });
  if (sent) return { ok: true };
  console.error(send.log);
  return { ok: false, status: 503, message: send.messages.notSent };
}

function refusal(refused: IssueRefusal, send: CodeMailBase): SendCodeResult {
  return refused.reason === "tooSoon"
    ? {
        ok: false,
        status: 429,
        alreadySent: true,
        message: send.messages.tooSoon(refused.retryAfterSeconds),
        retryAfterSeconds: refused.retryAfterSeconds,
      }
    : {
        ok: false,
        status: 429,
        addressCap: true,
        message: addressCapMessage(refused.until),
        retryAfterSeconds: Math.max(1, Math.ceil((refused.until.getTime() - now().getTime()) / 1000)),
      };
}

async function withPayload<P extends Record<string, unknown>>(send: WithPayload<P>) {
  const payload = await send.payload();
  return { payload, mail: (issued: IssuedCode) => send.mail(issued, payload) };
}
