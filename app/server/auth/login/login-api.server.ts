import { loginSchema } from "~/lib/schemas/account-schemas";
import { apiError, parseApiInput, readApiBody } from "../../http/json-api.server";
import { retryAfterHeaders } from "../../http/rate-limit.server";
import type { AdminLoginOutcome } from "./admin-login.server";
import type { Refusal } from "../second-factor/authenticator-setup.server";
import type { SendCodeResult } from "../codes/code-mail.server";
import { checkPasswordFields, type PasswordLogin } from "./password-step.server";
import type { LoginResult } from "./login.server";

/**
 * The login's JSON calls (docs/api.md, "Admin login"): their input read with the login forms'
 * own schemas, and the login rules' refusals answered as the API answers: 401 with what is
 * left to try, 423 with when the lock ends (`lockoutUntil`), 429 with Retry-After.
 */

/** A login body is an e-mail and a password: a few hundred bytes. */
const LOGIN_BODY_BYTES = 4 * 1024;

/** The password step of a JSON login: the body checked with the login form's schema (422 with `fields`), then the form's own step. */
export async function checkApiPassword(request: Request, login: PasswordLogin): Promise<LoginResult> {
  const { email, password } = parseApiInput(loginSchema, await readApiBody(request, LOGIN_BODY_BYTES));
  const step = await checkPasswordFields(request, login, new URLSearchParams({ email, password }));
  // The strategy parses the same fields with the same schema, so it agrees with the line above.
  if (!step.checked) throw apiError(422, "入力内容をご確認ください");
  return step.result;
}

const iso = (at: Date | number | null | undefined) => (at == null ? null : new Date(at).toISOString());

/** A lock (423): the message and when it ends. */
export function lockedAnswer(
  message: string,
  lockedUntil: Date | number | null | undefined,
  headers?: HeadersInit,
) {
  return apiError(423, message, { lockoutUntil: iso(lockedUntil), headers });
}

/** A refused admin password step. */
export function adminLoginRefusal(outcome: Extract<AdminLoginOutcome, { ok: false }>): Response {
  if (outcome.status === 423) return lockedAnswer(outcome.message, outcome.lockedUntil);
  if (outcome.status === 429) return apiError(429, outcome.message, { headers: retryAfterHeaders(outcome) });
  return apiError(401, outcome.message, {
    remainingAttempts: outcome.remainingAttempts,
    warning: outcome.warning,
  });
}

/** A code that was not sent (429 with Retry-After, or 503: the mail server did not take it). */
export function codeNotSent(sent: Exclude<SendCodeResult, { ok: true }>): Response {
  return apiError(sent.status, sent.message, { headers: retryAfterHeaders(sent) });
}

/**
 * A refused authenticator change. A wrong password or code is 401 (it counts towards the
 * lock, as at the login); a missing or unusable code is 422 under its field; `names` are the
 * call's field names where they differ from the screen's.
 */
export function authenticatorRefusal(
  refusal: Refusal,
  names: Partial<Record<"password" | "code", string>> = {},
): Response {
  const field = refusal.field ? (names[refusal.field] ?? refusal.field) : null;
  if (refusal.status === 423) return lockedAnswer(refusal.message, refusal.lockedUntil);
  const fields = field ? { [field]: [refusal.message] } : undefined;
  if (refusal.status === 400 && fields) return apiError(422, refusal.message, { fields });
  if (refusal.status === 401)
    return apiError(401, refusal.message, { fields, warning: refusal.warning ?? null });
  return apiError(refusal.status, refusal.message);
}
