import path from "node:path";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { parseApiDoc, parseCurl, shapeDifferences, shellWords } from "../scripts/api-doc/parse";

/**
 * docs/api.md against the route table: every JSON call the shop answers is documented, with
 * every method it answers, and the document names nothing the shop does not answer. (Its
 * examples are run against the production build by e2e/api-doc.spec.ts.)
 */

type Entry = { path?: string; file: string; index?: boolean; children?: Entry[] };

function apiRoutes(entries: Entry[], parent = ""): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const full = [parent, entry.path ?? ""].filter(Boolean).join("/");
    const own = full.startsWith("api/") && !entry.index ? [{ path: `/${full}`, file: entry.file }] : [];
    return [...own, ...apiRoutes(entry.children ?? [], full)];
  });
}

/** `/api/x/:id` and `/api/x/{id}` alike. */
const normalise = (route: string) => route.replace(/:\w+|\{\w+\}/g, "{}");

describe("docs/api.md", () => {
  const documented = parseApiDoc();

  it("documents every call of the route table with each method it answers, and nothing more", async () => {
    const answered: string[] = [];
    for (const route of apiRoutes(routes as Entry[])) {
      const module = (await import(/* @vite-ignore */ path.resolve("app", route.file))) as {
        loader?: { methods?: string[] };
      };
      const methods = module.loader?.methods;
      // Every API route answers through jsonApi (405 with Allow, JSON errors), which lists its methods.
      expect(methods, `${route.file} does not use jsonApi`).toBeDefined();
      for (const method of methods ?? [])
        if (method !== "HEAD") answered.push(`${method} ${normalise(route.path)}`);
    }
    const inDoc = documented.map((call) => `${call.method} ${normalise(call.path)}`);
    expect([...new Set(inDoc)].sort()).toEqual([...new Set(answered)].sort());
    expect(inDoc.length, "a call is documented twice").toBe(new Set(inDoc).size);
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
