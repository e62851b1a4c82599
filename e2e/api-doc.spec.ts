import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expand, parseApiDoc, shapeDifferences, valueAt, type DocExample } from "../scripts/api-doc/parse";
import { issueApiToken } from "./api-tokens";
import { mailsTo, uniqueEmail } from "./helpers";
import { loginAsAdmin } from "./users";

/**
 * Every example of docs/api.md, run in the document's order against the production build: the
 * status and the shape of each answer must be the documented ones, so the document cannot
 * drift from the shop. Plain HTTP, so once (the JavaScript project).
 */

const root = path.resolve(import.meta.dirname, "..");

test("@js-only docs/api.md: every example answers as documented", async ({ page, context, baseURL }) => {
  test.setTimeout(180_000);
  await loginAsAdmin(context, baseURL!, uniqueEmail("api-doc-admin"));
  const variables: Record<string, string> = {
    SHOP: baseURL!,
    TOKEN: await issueApiToken(page, { name: "docs/api.md の例（読み書き）", scope: "write" }),
    READ_TOKEN: await issueApiToken(page, { name: "docs/api.md の例（読み取り）", scope: "read" }),
  };
  const jars = new Map<string, Map<string, string>>();

  for (const call of parseApiDoc()) {
    for (const example of call.examples.filter((each) => each.run)) {
      const where = `docs/api.md:${example.line} (${call.method} ${call.path})`;
      const response = await send(example, variables, jars);
      const text = await response.text();
      expect(response.status, `${where}: ${text.slice(0, 300)}`).toBe(example.status);
      let answer: unknown = null;
      if (example.answer !== null) {
        answer = JSON.parse(text);
        expect(shapeDifferences(example.answer, answer), where).toEqual([]);
      }
      for (const directive of example.directives) {
        if (directive.kind === "set-answer") {
          const value = valueAt(answer, directive.path);
          expect(value, `${where}: ${directive.path}`).not.toBeUndefined();
          variables[directive.name] = String(value);
        } else {
          const email = expand(directive.email, variables);
          await expect.poll(() => mailsTo(email).length, { timeout: 15_000 }).toBeGreaterThan(0);
          const code = /\b(\d{6})\b/.exec(mailsTo(email).at(-1)?.text ?? "")?.[1];
          expect(code, `${where}: no code mailed to ${email}`).toBeDefined();
          variables[directive.name] = code!;
        }
      }
    }
  }
});

async function send(
  example: DocExample,
  variables: Record<string, string>,
  jars: Map<string, Map<string, string>>,
): Promise<Response> {
  const { request } = example;
  const headers = new Headers(request.headers.map(([name, value]) => [name, expand(value, variables)]));
  let body: BodyInit | undefined;
  if (request.body) {
    body = request.body.expand ? expand(request.body.text, variables) : request.body.text;
    if (request.body.json) headers.set("Content-Type", "application/json");
    else if (!headers.has("Content-Type")) headers.set("Content-Type", "application/x-www-form-urlencoded");
  } else if (request.form.length) {
    const form = new FormData();
    for (const [name, raw] of request.form) {
      const value = expand(raw, variables);
      if (value.startsWith("@")) {
        const [file = "", type] = value.slice(1).split(";type=");
        form.append(name, new Blob([fs.readFileSync(path.join(root, file))], { type }), path.basename(file));
      } else form.append(name, value);
    }
    body = form;
  }
  const jar = request.cookieJar ? (jars.get(request.cookieJar) ?? new Map<string, string>()) : null;
  if (jar && request.cookieJar) jars.set(request.cookieJar, jar);
  if (jar?.size) headers.set("Cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
  const response = await fetch(expand(request.url, variables), {
    method: request.method,
    headers,
    body,
    redirect: "manual",
  });
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = "", ...attributes] = cookie.split(";");
    const [name = "", value = ""] = pair.split("=");
    const gone = value === "" || attributes.some((attribute) => /expires=Thu, 01 Jan 1970/i.test(attribute));
    if (gone) jar?.delete(name.trim());
    else jar?.set(name.trim(), value);
  }
  return response;
}
