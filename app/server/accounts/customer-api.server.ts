import { registerSchema } from "~/lib/schemas/account-schemas";
import { apiError, parseApiInput, apiJson } from "../http/json-api.server";
import { retryAfterHeaders } from "../http/rate-limit.server";
import { getCurrentUser, type CurrentUser } from "../auth/users.server";
import type { LoginResult } from "../auth/login/login.server";
import type { SendCodeResult } from "../auth/codes/code-mail.server";
import type { HashingBusy } from "../auth/password.server";
import { commitSession, getSession, type ShopSession } from "../http/session.server";
import { startRegistrationFrom } from "./registration.server";

/**
 * The customer's JSON calls (docs/api.md, "Accounts" and "Checkout") answer in the spec's words:
 * the user as `username` (the e-mail address) and `isAdmin`, a login's refusal with
 * `remainingAttempts` and `lockoutUntil`. The rules themselves stay with the screens' modules.
 */

export function customerAnswer(user: Pick<CurrentUser, "id" | "email" | "name" | "isAdmin">) {
  return { id: user.id, username: user.email, name: user.name, isAdmin: user.isAdmin };
}

/** Nobody logged in on this session: the spec's 401. */
export function notLoggedIn(): Response {
  return apiError(401, "ログインしてください");
}

/** The account calls' session and its logged-in customer; the 401 is thrown without one. */
export async function requireCustomerSession(
  request: Request,
): Promise<{ session: ShopSession; user: CurrentUser }> {
  const session = await getSession(request);
  const user = await getCurrentUser(session);
  if (!user) throw notLoggedIn();
  return { session, user };
}

/** A refused customer password step: 401 with what is left to try, 423 with when the lock ends, 429. */
export function customerLoginRefusal(result: Exclude<LoginResult, { ok: true }>): Response {
  const answer = { requiresTwoFactor: false, user: null };
  if (result.reason === "locked")
    return apiError(423, result.message, {
      ...answer,
      remainingAttempts: 0,
      lockoutUntil: result.lockedUntil.toISOString(),
    });
  if (result.reason === "blocked")
    return apiError(429, result.message, {
      ...answer,
      remainingAttempts: null,
      lockoutUntil: null,
      headers: retryAfterHeaders(result),
    });
  return apiError(401, result.message, {
    ...answer,
    remainingAttempts: result.remainingAttempts,
    lockoutUntil: null,
    warning: result.warning,
  });
}

/** A code, a password hash or a registration the limits refused (429 with Retry-After, or 503). */
export function stepRefused(refused: Exclude<SendCodeResult, { ok: true }> | HashingBusy): Response {
  return apiError(refused.status, refused.message, { headers: retryAfterHeaders(refused) });
}

/** The spec's `agreesToTerms: true` is the register form's checked box ("on"); anything else stays as sent and is refused by the form's schema. */
function asRegisterForm(body: Record<string, unknown>): Record<string, unknown> {
  return { ...body, agreesToTerms: body.agreesToTerms === true ? "on" : body.agreesToTerms };
}

/**
 * POST /api/register and the first /api/send-registration-code: the register form's schema and
 * step on this session, answered 202 (the code and link are mailed; nothing is made yet).
 */
export async function startRegistrationCall(
  request: Request,
  session: ShopSession,
  body: Record<string, unknown>,
): Promise<Response> {
  const values = parseApiInput(registerSchema, asRegisterForm(body));
  const started = await startRegistrationFrom(request, values);
  if (!started.ok) return stepRefused(started);
  session.set("registration", started.registration);
  return apiJson(
    { message: REGISTRATION_API_MESSAGES.codeSent, email: started.registration.email },
    { status: 202, headers: { "Set-Cookie": await commitSession(session) } },
  );
}

export const REGISTRATION_API_MESSAGES = {
  codeSent: "認証コードを送信しました。メールをご確認ください。",
  noRegistration: "会員登録の手続きが見つかりません。もう一度会員登録をお試しください。",
} as const;
