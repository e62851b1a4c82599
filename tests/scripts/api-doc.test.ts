import path from "node:path";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { parseApiDoc, parseCurl, shapeDifferences, shellWords } from "../../scripts/api-doc/parse";

/**
 * docs/api.md against the route table: every JSON call the shop answers is documented, with
 * every method it answers, and the document names nothing the shop does not answer. (Its
 * examples are run against the production build by e2e/api/api-doc.spec.ts.)
 */

type Entry = { path?: string; file: string; index?: boolean; children?: Entry[] };

function apiRoutes(entries: Entry[], parent = ""): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const full = [parent, entry.path ?? ""].filter(Boolean).join("/");
    const own = full.startsWith("api/") && !entry.index ? [{ path: `/${full}`, file: entry.file }] : [];
    return [...own, ...apiRoutes(entry.children ?? [], full)];
  });
}

/**
 * Every call the two spec documents list (storefront.md and back-office.md, section 7 "The calls
 * it makes"; `{product}` is `video`, a query string left out): 60 in all.
 */
const SPEC_CALLS = [
  "GET /api/video/contests",
  "GET /api/video/contests/{id}/media",
  "GET /api/user",
  "GET /api/user/orders",
  "POST /api/send-registration-code",
  "POST /api/verify-registration-code",
  "POST /api/register",
  "POST /api/login",
  "POST /api/logout",
  "POST /api/send-verification-code",
  "POST /api/verify-email-code",
  "POST /api/resend-verification-code",
  "POST /api/create-payment-intent",
  "POST /api/video/orders",
  "POST /api/send-payment-confirmation",
  "GET /api/download/{downloadPageId}",
  "GET /api/email-status",
  "POST /api/send-password-change-code",
  "POST /api/verify-password-change-code",
  "POST /api/change-password",
  "GET /api/verify-email",
  "GET /api/auth/check",
  "POST /api/admin/login",
  "POST /api/admin/verify-2fa",
  "POST /api/admin/resend-2fa",
  "GET /api/admin/security-dashboard",
  "POST /api/setup-2fa",
  "POST /api/verify-2fa",
  "POST /api/video/contests",
  "GET /api/video/contests/{id}",
  "PATCH /api/video/contests/{id}",
  "DELETE /api/video/contests/{id}",
  "POST /api/video/contests/{contestId}/media/chunked-init",
  "POST /api/video/contests/{contestId}/media/chunked-upload",
  "POST /api/video/contests/{id}/media/chunked-complete",
  "DELETE /api/video/contests/{id}/media/{mediaId}",
  "PATCH /api/video/contests/{id}/media/{mediaId}",
  "POST /api/video/contests/{id}/media/{mediaId}/thumbnail",
  "DELETE /api/video/contests/{id}/media/{mediaId}/thumbnail",
  "GET /api/video/media/thumbnail/{contestId}/{mediaId}",
  "GET /api/video/contests/{id}/video-formats",
  "POST /api/video/contests/{id}/video-formats",
  "PUT /api/video/contests/{id}/video-formats/{formatId}",
  "DELETE /api/video/contests/{id}/video-formats/{formatId}",
  "GET /api/video/contests/{id}/price-description",
  "PUT /api/video/contests/{id}/price-description",
  "GET /api/video/contests/{id}/categories",
  "POST /api/video/contests/{id}/categories",
  "DELETE /api/video/contests/{id}/categories/{catId}",
  "GET /api/video/contests/{id}/athletes",
  "POST /api/video/contests/{id}/athletes",
  "PATCH /api/video/athletes/{id}",
  "DELETE /api/video/athletes/{id}",
  "PATCH /api/video/athletes/bulk-update",
  "POST /api/video/athletes/bulk-permanent-delete",
  "GET /api/video/orders",
  "PATCH /api/orders/complete/{orderNumber}",
  "POST /api/orders/{orderNumber}/deliver",
  "GET /api/video/users",
  "DELETE /api/video/users/{id}",
];

/** `/api/x/:id` and `/api/x/{id}` alike. */
const normalise = (route: string) => route.replace(/:\w+|\{\w+\}/g, "{}");

/** "METHOD /api/…/{}" for every method of every API route (HEAD aside). */
async function answeredCalls(): Promise<Set<string>> {
  const answered = new Set<string>();
  for (const route of apiRoutes(routes as Entry[])) {
    const module = (await import(/* @vite-ignore */ path.resolve("app", route.file))) as {
      loader?: { methods?: string[] };
    };
    const methods = module.loader?.methods;
    // Every API route answers through jsonApi (405 with Allow, JSON errors), which lists its methods.
    expect(methods, `${route.file} does not use jsonApi`).toBeDefined();
    for (const method of methods ?? [])
      if (method !== "HEAD") answered.add(`${method} ${normalise(route.path)}`);
  }
  return answered;
}

describe("docs/api.md", () => {
  const documented = parseApiDoc();

  it("documents every call of the route table with each method it answers, and nothing more", async () => {
    const answered = await answeredCalls();
    const inDoc = documented.map((call) => `${call.method} ${normalise(call.path)}`);
    expect([...new Set(inDoc)].sort()).toEqual([...answered].sort());
    expect(inDoc.length, "a call is documented twice").toBe(new Set(inDoc).size);
  });

  it("answers every call the spec documents list, at its path and method", async () => {
    expect(SPEC_CALLS).toHaveLength(60);
    const answered = await answeredCalls();
    expect(SPEC_CALLS.filter((call) => !answered.has(normalise(call)))).toEqual([]);
  });

  it("gives every call at least one example with its answer", () => {
    for (const call of documented)
      expect(call.examples.length, `${call.method} ${call.path}`).toBeGreaterThan(0);
  });
});

describe("the document's grammar", () => {
  it("reads curl commands as the shell would", () => {
    expect(shellWords(`curl -s "$SHOP/api/x" -H 'A: b' \\\n  --json '{"a": 1}'`)).toEqual([
      { word: "curl", quoted: "none" },
      { word: "-s", quoted: "none" },
      { word: "$SHOP/api/x", quoted: "double" },
      { word: "-H", quoted: "none" },
      { word: "A: b", quoted: "single" },
      { word: "--json", quoted: "none" },
      { word: '{"a": 1}', quoted: "single" },
    ]);
    const request = parseCurl(
      `curl -X PATCH "$SHOP/api/video/athletes/bulk-update" -H "Authorization: Bearer $TOKEN" --json @- <<JSON\n{ "athleteIds": [$ID] }\nJSON`,
    );
    expect(request).toMatchObject({
      method: "PATCH",
      url: "$SHOP/api/video/athletes/bulk-update",
      headers: [["Authorization", "Bearer $TOKEN"]],
      body: { text: '{ "athleteIds": [$ID] }', expand: true, json: true },
    });
    expect(parseCurl(`curl "$SHOP/api/x" --json '{"a":"$NOT"}'`).body).toMatchObject({ expand: false });
  });

  it("compares answers by shape: keys both ways, JSON types, arrays by their first element", () => {
    expect(shapeDifferences({ a: 1, b: [{ c: "x" }] }, { a: 2, b: [{ c: "y" }, {}] })).toEqual([]);
    expect(shapeDifferences({ a: 1 }, { a: "1", b: true })).toEqual([
      "answer.a: documented number, answered string",
      "answer.b: answered, not documented",
    ]);
    expect(shapeDifferences({ a: null, b: 1 }, { a: { deep: 1 } })).toEqual([
      "answer.b: documented, not answered",
    ]);
  });

  it("reads the directives after an example: a value of the answer, a mailed code, an authenticator's code", () => {
    const source = [
      "### POST /api/x",
      "```sh",
      "curl -s \"$SHOP/api/x\" --json '{}'",
      "```",
      "```http",
      "HTTP/1.1 200 OK",
      "",
      '{ "secret": "ABC" }',
      "```",
      "<!-- api-doc: set SECRET=secret -->",
      "<!-- api-doc: set CODE=mail-code:$EMAIL -->",
      "<!-- api-doc: set TOTP=totp:$SECRET -->",
    ].join("\n");
    expect(parseApiDoc(source)[0]?.examples[0]?.directives).toEqual([
      { kind: "set-answer", name: "SECRET", path: "secret" },
      { kind: "set-mail-code", name: "CODE", email: "$EMAIL" },
      { kind: "set-totp", name: "TOTP", secret: "$SECRET" },
    ]);
  });
});
