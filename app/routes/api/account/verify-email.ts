import { verifyRegistrationLink } from "~/server/accounts/registration.server";
import { apiError, jsonApi, apiJson } from "~/server/http/json-api.server";

/**
 * The registration mail's link as JSON (/verify-email's loader): the token makes the account; the
 * same token again still says the address is verified. A missing, unknown or expired token is 400
 * with the page's message.
 */
export const loader = jsonApi({
  GET({ request }) {
    const result = verifyRegistrationLink(new URL(request.url).searchParams.get("token"));
    const headers = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
    if (!result.ok) return apiError(400, result.message, { headers });
    return apiJson(
      {
        email: result.email,
        alreadyVerified: result.alreadyVerified,
        message: "メールアドレスを確認しました。ログインしてください。",
        redirectTo: "/login",
      },
      { headers },
    );
  },
});
export const action = loader;
