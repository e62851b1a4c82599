import { parseForm } from "~/lib/schemas/parse-form";
import { data } from "@remix-run/node";
import type { z } from "zod";
import { HOUR_MS } from "~/lib/rules/tokyo-date";
import { LIMIT_MESSAGES } from "./limit-messages.server";
import { mailRequester, takeMailAllowance, type StrangerMail } from "./mail-caps.server";
import { readForm } from "../../http/form.server";
import { hitOriginLimit } from "../../http/rate-limit.server";
import { sendQueuedMailNow } from "../../mail/outbox.server";

/**
 * Asking for a link by mail to an address anyone can type (パスワードをお忘れの方, 注文状況の確認):
 * the same limits, the same answer and the same timing whether or not there is anything to
 * mail, so neither the text, the status nor the time tells whether the address has an account
 * or an order.
 *
 * Every request counts against both limits, match or not, so a refusal says nothing either: per
 * client address (a school's or a family's shared connection, not a sweep over addresses), and
 * per e-mail address, where each requester has its own count (mail-caps.server.ts: 5 an hour,
 * enough for a parent who mistyped a few times), so a stranger asking for links to an address
 * does not use up its owner's (decision 0022). The mail is queued, then sent after the answer.
 */

/** Per client address and kind of link, every e-mail address together. */
const PER_ORIGIN_PER_HOUR = 20;

export type MailedLink = Exclude<StrangerMail, "code">;

export type MailedLinkRequest = { ok: true } | { ok: false; status: 429; message: string };

export function requestMailedLink(
  request: Request,
  link: {
    kind: MailedLink;
    /** The address typed (trimmed and lower-cased here, as accounts and orders keep theirs). */
    email: string;
    /** Queues the mail when what was typed matches; null when there is nothing to send. */
    queue: (email: string) => number | null;
    /** The mail, as the error log names it when it could not go at once. */
    what: string;
  },
): MailedLinkRequest {
  const email = link.email.trim().toLowerCase();
  const perOrigin = hitOriginLimit(request, `${link.kind}-ip`, PER_ORIGIN_PER_HOUR, HOUR_MS);
  if (!perOrigin.allowed || takeMailAllowance(link.kind, email, mailRequester(request)))
    return { ok: false, status: 429, message: LIMIT_MESSAGES.tooManyRequests };
  const mailId = link.queue(email);
  // Not awaited: the answer must not wait on the mail server only when there is a mail.
  if (mailId !== null) void sendQueuedMailNow(mailId, link.what);
  return { ok: true };
}

/**
 * The action of a page that asks for a mailed link: the form checked with its schema (400 with
 * the fields' messages), the request (429 with the limit's message, the input kept), else the
 * page's one "sent" text, the same whatever was typed.
 */
export async function answerMailedLinkRequest<Schema extends z.ZodTypeAny>(
  request: Request,
  schema: Schema,
  ask: (values: z.output<Schema>) => MailedLinkRequest,
  sent: string,
) {
  const submission = parseForm(await readForm(request), { schema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), sent: null }, { status: 400 });
  const requested = ask(submission.value);
  if (!requested.ok)
    return data(
      { result: submission.reply({ formErrors: [requested.message] }), sent: null },
      { status: requested.status },
    );
  return data({ result: submission.reply(), sent });
}
