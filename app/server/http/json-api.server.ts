import type { ZodType, ZodTypeDef } from "zod";
import { isOutOfSpace, NoRoomForUpload, OUT_OF_SPACE_MESSAGE } from "../core/out-of-space.server";
import { readJsonBody } from "./json-body.server";

/**
 * The JSON API's one way of answering (docs/api.md): a route module exports
 * `loader = jsonApi({ GET, POST, … })` and `action = loader`, each handler parses its input with
 * the form's own zod schema (`parseApiInput`) and calls the same domain function as the
 * screen. Every failure is JSON `{ error, message, fields? }`: `error` a short title (401
 * keeps the spec's "Unauthorized"), `message` Japanese for a person, `fields` the messages
 * per field of a 422. A method the route does not answer is 405 with `Allow`.
 */

export const API_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type ApiMethod = (typeof API_METHODS)[number];

type Params = Record<string, string | undefined>;
export type ApiArgs = { request: Request; params: Params };
export type ApiHandler = (args: ApiArgs) => Response | Promise<Response>;

const TITLES: Record<number, string> = {
  401: "Unauthorized",
  403: "Forbidden",
  405: "Method Not Allowed",
  422: "入力エラー",
  423: "アカウントロック",
};

/**
 * Every JSON answer of the API: `Response.json`, with `<`, `>` and `&` written as `\u003c`,
 * `\u003e` and `\u0026`. The same JSON to any parser, but what someone typed into a name
 * ("<script>…") never stands in the answer's bytes as markup, should something show the answer
 * as HTML (a browser guessing the type, a log viewer); the fuzzing (scripts/fuzz/fuzz-forms.ts)
 * checks that posted HTML never comes back as it was sent.
 */
export function apiJson(value: unknown, init: ResponseInit = {}): Response {
  const body = JSON.stringify(value).replace(
    /[<>&]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json");
  return new Response(body, { ...init, headers });
}

/** A JSON error answer (see the module comment); `extra` adds the fields a call documents. */
export function apiError(
  status: number,
  message: string,
  extra: { title?: string; fields?: Record<string, string[]>; headers?: HeadersInit } & Record<
    string,
    unknown
  > = {},
): Response {
  const { title, headers, ...rest } = extra;
  return apiJson({ error: title ?? TITLES[status] ?? "エラー", message, ...rest }, { status, headers });
}

export function methodNotAllowed(allowed: readonly string[]): Response {
  return apiError(405, "このメソッドには対応していません", { headers: { Allow: allowed.join(", ") } });
}

/**
 * The route's loader, which is also its action (`export const loader = jsonApi({…});
 * export const action = loader;`): the method picks the handler; thrown answers are answered.
 * Exported as plain consts, so Remix's build drops them from the browser's bundle.
 */
export function jsonApi(handlers: Partial<Record<ApiMethod, ApiHandler>>) {
  const allowed = API_METHODS.filter((method) => handlers[method]);
  const allowHeader = allowed.includes("GET") ? [...allowed, "HEAD"] : allowed;
  async function dispatch(args: ApiArgs): Promise<Response> {
    const method = args.request.method.toUpperCase();
    if (method === "OPTIONS")
      return new Response(null, { status: 204, headers: { Allow: allowHeader.join(", ") } });
    const handler = handlers[(method === "HEAD" ? "GET" : method) as ApiMethod];
    if (!handler) return methodNotAllowed(allowHeader);
    try {
      return await handler(args);
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      // An upload's bytes refused at the disk's reserve, as every upload answers it (decision 0042).
      if (thrown instanceof NoRoomForUpload) return apiError(413, thrown.message);
      console.error(thrown);
      // A write that found the disk full is the server's state, not a bug: 503, and said so.
      if (isOutOfSpace(thrown)) return apiError(503, OUT_OF_SPACE_MESSAGE, { title: "容量不足" });
      // A bug, not the caller's input: logged, and answered as JSON like everything else here.
      return apiError(500, "サーバーでエラーが発生しました。時間をおいて再度お試しください。");
    }
  }
  // The methods travel with the handler, so the API documentation's test can ask each route.
  return Object.assign(dispatch, { methods: allowHeader });
}

/** 64 KiB: every JSON call but the uploads is a few hundred bytes; 2,000 athlete ids fit. */
const DEFAULT_BODY_LIMIT = 64 * 1024;

/** The request's JSON (or form-encoded) body as an object; 400 or 413 is thrown otherwise. */
export async function readApiBody(
  request: Request,
  maxBytes = DEFAULT_BODY_LIMIT,
  tooLarge = "送信内容が大きすぎます",
) {
  const body = await readJsonBody(request, maxBytes);
  if (body.ok) return body.value;
  throw body.status === 413
    ? apiError(413, tooLarge)
    : apiError(400, "送信内容を JSON として読み取れませんでした");
}

/**
 * Parses input with a form's zod schema; a 422 listing the messages per field is thrown
 * otherwise. `names` renames the schema's paths to the API's field names where they differ
 * (the form says `ids`, the spec's call `athleteIds`).
 */
export function parseApiInput<Output, Input>(
  schema: ZodType<Output, ZodTypeDef, Input>,
  value: unknown,
  names: Record<string, string> = {},
): Output {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join(".");
    const name = names[path] ?? names[String(issue.path[0] ?? "")] ?? (path || "_form");
    (fields[name] ??= []).push(issue.message);
  }
  const first = parsed.error.issues[0]?.message ?? "入力内容をご確認ください";
  throw apiError(422, first, { fields });
}

/** The body read and parsed in one step, for the calls whose whole body is one form. */
export async function readApiInput<Output, Input>(
  request: Request,
  schema: ZodType<Output, ZodTypeDef, Input>,
  options: { names?: Record<string, string>; maxBytes?: number; add?: Record<string, unknown> } = {},
): Promise<Output> {
  const body = await readApiBody(request, options.maxBytes);
  return parseApiInput(schema, { ...body, ...options.add }, options.names);
}
