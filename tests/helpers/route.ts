import type { ActionFunctionArgs } from "@remix-run/node";

type Handler = (args: ActionFunctionArgs) => unknown;

export type RouteResult = { status: number; location: string | null; headers: Headers; data: unknown };

/**
 * Calls a route's loader or action as Remix would, and normalises what comes back
 * (a Response, data() with a status, a thrown redirect) into status + data.
 */
export async function callRoute(
  handler: Handler,
  request: Request,
  params: Record<string, string> = {},
): Promise<RouteResult> {
  let value: unknown;
  try {
    value = await handler({ request, params, context: {} });
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) {
    const text = await value.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: value.status, location: value.headers.get("Location"), headers: value.headers, data };
  }
  if (value && typeof value === "object" && (value as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = value as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, location: null, headers: new Headers(init?.headers), data };
  }
  if (value instanceof Error) throw value;
  return { status: 200, location: null, headers: new Headers(), data: value };
}

/** The session cookie a route set, to carry on to the next request as a browser would. */
export function sessionOf(result: RouteResult): string {
  return result.headers.get("Set-Cookie")?.split(";")[0] ?? "";
}
