import type { Submission } from "@conform-to/react";
import { parseForm } from "~/lib/schemas/parse-form";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { loginSchema, type LoginValues } from "~/lib/schemas/account-schemas";
import { readForm } from "../../http/form.server";
import { attemptLogin, type LoginResult } from "./login.server";
import { ADMIN_LOGIN_POLICY, CUSTOMER_LOGIN_POLICY } from "./login-policies.server";

/**
 * The password step of both logins, through remix-auth's FormStrategy: the strategy reads the
 * posted form, checks it with the login schema (the one the form validates with in the
 * browser), and runs the lockout rules (attemptLogin) under the login's own policy. What it
 * answers is a verdict, not yet a login: logInCustomer / logInAdmin then log in or start the
 * second factor, through logIn.
 */
export type PasswordStep =
  | { checked: false; submission: Submission<LoginValues> }
  | { checked: true; submission: Submission<LoginValues>; values: LoginValues; result: LoginResult };

export type PasswordLogin = "customer" | "admin";

const POLICIES = { customer: CUSTOMER_LOGIN_POLICY, admin: ADMIN_LOGIN_POLICY } as const;

const authenticator = new Authenticator<PasswordStep>();
for (const login of Object.keys(POLICIES) as PasswordLogin[]) {
  authenticator.use(
    new FormStrategy<PasswordStep>(async ({ form, request }) => {
      const submission = parseForm(form, { schema: loginSchema });
      if (submission.status !== "success") return { checked: false, submission };
      const result = await attemptLogin(request, submission.value, POLICIES[login]);
      return { checked: true, submission, values: submission.value, result };
    }),
    login,
  );
}

/** Checks the posted e-mail and password for the customer login (/login) or the admin login (/admin-login). */
export async function checkPassword(request: Request, login: PasswordLogin): Promise<PasswordStep> {
  // The body is read within the shop's form limit (413 past it; a body that is not a form is an
  // empty one, so a 4xx follows rather than a 500); the strategy then reads the same fields.
  const form = await readForm(request);
  const fields = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === "string") fields.append(name, value);
  return checkPasswordFields(request, login, fields);
}

/**
 * The same step for fields read another way (a JSON call's body, already checked with the login
 * schema): the strategy reads them as the posted form, so both doors run one path.
 */
export function checkPasswordFields(
  request: Request,
  login: PasswordLogin,
  fields: URLSearchParams,
): Promise<PasswordStep> {
  const headers = new Headers(request.headers);
  headers.delete("Content-Length");
  headers.set("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8");
  return authenticator.authenticate(
    login,
    new Request(request.url, { method: "POST", headers, body: fields }),
  );
}
