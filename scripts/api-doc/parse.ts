// Reads docs/api.md into its calls and their examples, so that tests can hold the document to
// the shop: tests/scripts/api-doc.test.ts checks that every call of the route table is documented (and
// nothing else), e2e/api/api-doc.spec.ts runs every example against the production build and
// compares the answer with the documented one. The document's grammar:
//
//   ### METHOD /api/path/{param}           a call (one heading per method and path)
//   ```sh                                   an example request: one curl command, with shell
//   curl … "$SHOP/api/…"                    variables; a body as --json '…' or --json @- <<TAG
//   ```                                     (a heredoc, whose $VARIABLES expand)
//   ```http                                 the answer to it: the status line, a blank line and
//   HTTP/1.1 201 Created                    the JSON body (none for an empty body)
//
//   { … }
//   ```
//   <!-- api-doc: set NAME=path.in.answer -->   after the example: keep a value of the answer
//   <!-- api-doc: set NAME=mail-code:$EMAIL --> the 6-digit code of the latest mail to $EMAIL
//   <!-- api-doc: set NAME=totp:$SECRET -->     an authenticator app's code now for $SECRET
//   <!-- api-doc: not run: reason -->           the next example is documented but not run
//
// A call may have several examples (a success and a refusal); they run in document order.
import fs from "node:fs";
import path from "node:path";

export type DocDirective =
  | { kind: "set-answer"; name: string; path: string }
  | { kind: "set-mail-code"; name: string; email: string }
  | { kind: "set-totp"; name: string; secret: string };

export type DocRequest = {
  method: string;
  /** The URL as written, variables unexpanded ("$SHOP/api/…"). */
  url: string;
  headers: [string, string][];
  /** The body as written: --json or -d (variables expand only in a heredoc, as in the shell). */
  body: { text: string; expand: boolean; json: boolean } | null;
  /** -F fields: name=value, or name=@file (a file under docs/examples/). */
  form: [string, string][];
  /** -b/-c: the cookie jar the command reads and writes. */
  cookieJar: string | null;
};

export type DocExample = {
  request: DocRequest;
  status: number;
  /** The documented JSON answer, or null for an empty body or one that is not JSON. */
  answer: unknown;
  answerText: string;
  directives: DocDirective[];
  run: boolean;
  line: number;
};

export type DocCall = { method: string; path: string; line: number; examples: DocExample[] };

export const API_DOC = path.resolve(import.meta.dirname, "../../docs/api.md");

/** Splits a command line as the shell would: quotes, backslash-newline continuations. */
export function shellWords(source: string): { word: string; quoted: "none" | "single" | "double" }[] {
  const words: { word: string; quoted: "none" | "single" | "double" }[] = [];
  let current = "";
  let quoted: "none" | "single" | "double" = "none";
  let inWord = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === "\\" && source[i + 1] === "\n") {
      i++;
      continue;
    }
    if (char === "'") {
      const end = source.indexOf("'", i + 1);
      current += source.slice(i + 1, end);
      quoted = "single";
      inWord = true;
      i = end;
    } else if (char === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') {
        if (source[j] === "\\" && ['"', "\\", "$"].includes(source[j + 1]!)) j++;
        current += source[j];
        j++;
      }
      if (quoted === "none") quoted = "double";
      inWord = true;
      i = j;
    } else if (/\s/.test(char)) {
      if (inWord) words.push({ word: current, quoted });
      current = "";
      quoted = "none";
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (inWord) words.push({ word: current, quoted });
  return words;
}

export function parseCurl(command: string): DocRequest {
  const heredoc = /<<-?\s*'?(\w+)'?\s*\n([\s\S]*?)\n\1\s*$/.exec(command);
  const line = heredoc ? command.slice(0, heredoc.index) : command;
  const words = shellWords(line.trim());
  if (words[0]?.word !== "curl") throw new Error(`not a curl command: ${command.slice(0, 60)}`);
  const request: DocRequest = { method: "", url: "", headers: [], body: null, form: [], cookieJar: null };
  for (let i = 1; i < words.length; i++) {
    const { word } = words[i]!;
    const next = () => words[++i]!;
    if (word === "-X" || word === "--request") request.method = next().word;
    else if (word === "-H" || word === "--header") {
      const header = next().word;
      const colon = header.indexOf(":");
      request.headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
    } else if (["--json", "-d", "--data", "--data-raw", "--data-binary"].includes(word)) {
      const value = next();
      const json = word === "--json";
      if (value.word === "@-") {
        if (!heredoc) throw new Error("--json @- needs a heredoc");
        request.body = { text: heredoc[2] ?? "", expand: true, json };
      } else request.body = { text: value.word, expand: value.quoted !== "single", json };
    } else if (word === "-F" || word === "--form") {
      const field = next().word;
      const equals = field.indexOf("=");
      request.form.push([field.slice(0, equals), field.slice(equals + 1)]);
    } else if (word === "-b" || word === "-c" || word === "--cookie" || word === "--cookie-jar")
      request.cookieJar = next().word;
    else if (word === "-o" || word === "--output") next();
    else if (word.startsWith("-"))
      continue; // -s, -i, --fail-with-body: nothing to the request
    else request.url = word;
  }
  request.method ||= request.body || request.form.length ? "POST" : "GET";
  return request;
}

function parseAnswer(block: string): { status: number; answer: unknown; text: string } {
  const match = /^HTTP\/[\d.]+ (\d{3})[^\n]*\n?([\s\S]*)$/.exec(block.trim());
  if (!match) throw new Error(`an answer block starts with its status line: ${block.slice(0, 40)}`);
  const text = (match[2] ?? "").trim();
  let answer: unknown = null;
  if (text) {
    try {
      answer = JSON.parse(text);
    } catch {
      answer = null;
    }
  }
  return { status: Number(match[1]), answer, text };
}

function parseDirective(text: string): DocDirective | "not-run" {
  if (/^not run\b/.test(text)) return "not-run";
  const set = /^set (\w+)=(.+)$/.exec(text);
  if (!set) throw new Error(`unknown api-doc directive: ${text}`);
  const [, name = "", value = ""] = set;
  const mail = /^mail-code:(.+)$/.exec(value.trim());
  if (mail) return { kind: "set-mail-code", name, email: mail[1]!.trim() };
  const totp = /^totp:(.+)$/.exec(value.trim());
  if (totp) return { kind: "set-totp", name, secret: totp[1]!.trim() };
  return { kind: "set-answer", name, path: value.trim() };
}

export function parseApiDoc(source = fs.readFileSync(API_DOC, "utf8")): DocCall[] {
  const calls: DocCall[] = [];
  const lines = source.split("\n");
  let call: DocCall | null = null;
  let pending: { request: DocRequest; line: number } | null = null;
  let skipNext = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^###\s+(GET|POST|PUT|PATCH|DELETE)\s+(\/\S+)\s*$/.exec(line);
    if (heading) {
      call = { method: heading[1]!, path: heading[2]!, line: i + 1, examples: [] };
      calls.push(call);
      continue;
    }
    if (/^#{1,3}\s/.test(line)) {
      call = null;
      continue;
    }
    const directive = /^<!--\s*api-doc:\s*(.+?)\s*-->\s*$/.exec(line);
    if (directive && call) {
      const parsed = parseDirective(directive[1]!);
      if (parsed === "not-run") skipNext = true;
      else call.examples.at(-1)?.directives.push(parsed);
      continue;
    }
    const fence = /^```(sh|http)\s*$/.exec(line);
    if (!fence || !call) continue;
    const end = lines.indexOf("```", i + 1);
    const block = lines.slice(i + 1, end).join("\n");
    if (fence[1] === "sh") pending = { request: parseCurl(block), line: i + 1 };
    else if (pending) {
      const { status, answer, text } = parseAnswer(block);
      call.examples.push({
        request: pending.request,
        status,
        answer,
        answerText: text,
        directives: [],
        run: !skipNext,
        line: pending.line,
      });
      pending = null;
      skipNext = false;
    }
    i = end;
  }
  return calls;
}

/** Expands $NAME and ${NAME} as the shell does; an unknown name is an error, not an empty string. */
export function expand(text: string, variables: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? "";
    const value = variables[name];
    if (value === undefined) throw new Error(`$${name} is not set at this point of docs/api.md`);
    return value;
  });
}

/**
 * Where an answer differs in shape from the documented one: every key of a documented object
 * is in the answer and nothing else is, with values of the same JSON type (null matches any,
 * arrays are compared by their first elements). Empty when they agree.
 */
export function shapeDifferences(documented: unknown, actual: unknown, at = "answer"): string[] {
  if (documented === null || actual === null) return [];
  const type = (value: unknown) => (Array.isArray(value) ? "array" : typeof value);
  if (type(documented) !== type(actual))
    return [`${at}: documented ${type(documented)}, answered ${type(actual)}`];
  if (Array.isArray(documented) && Array.isArray(actual))
    return documented.length && actual.length ? shapeDifferences(documented[0], actual[0], `${at}[0]`) : [];
  if (type(documented) !== "object") return [];
  const doc = documented as Record<string, unknown>;
  const got = actual as Record<string, unknown>;
  const differences: string[] = [];
  for (const key of Object.keys(doc))
    if (!(key in got)) differences.push(`${at}.${key}: documented, not answered`);
    else differences.push(...shapeDifferences(doc[key], got[key], `${at}.${key}`));
  for (const key of Object.keys(got))
    if (!(key in doc)) differences.push(`${at}.${key}: answered, not documented`);
  return differences;
}

/** The value at "a.b.0.c" of an answer. */
export function valueAt(answer: unknown, dotted: string): unknown {
  return dotted
    .split(".")
    .reduce<unknown>(
      (value, key) =>
        value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined,
      answer,
    );
}
