/**
 * `Response.json`, with `<`, `>` and `&` written as `\u003c`, `\u003e` and `\u0026`: the same
 * JSON to any parser, but what an admin typed into a name ("<script>…") never stands in the
 * answer's bytes as markup, should something show the answer as HTML (a browser guessing the
 * type, a log viewer). The calls that answer names they were sent use it; the fuzzing
 * (scripts/fuzz/fuzz-forms.ts) checks that posted HTML never comes back as it was sent.
 */
export function escapedJson(value: unknown, init: ResponseInit = {}): Response {
  const body = JSON.stringify(value).replace(
    /[<>&]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json");
  return new Response(body, { ...init, headers });
}
