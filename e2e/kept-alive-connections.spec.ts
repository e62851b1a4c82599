import http from "node:http";
import { expect, test } from "@playwright/test";
import { randomIp } from "./account-helpers";

/**
 * A body refused by its Content-Length is never read, and its rest stays in the connection.
 * Over a kept-alive connection (browsers, Playwright, proxies all reuse them) the next request
 * was parsed after that rest and the client saw a reset; the refusal now closes the connection.
 */
function post(baseURL: string, agent: http.Agent, body: string): Promise<string> {
  const url = new URL("/register", baseURL);
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
          "X-Forwarded-For": randomIp(),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(String(response.statusCode)));
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    request.end(body);
  });
}

test("finding 9: after an oversized post is refused unread, the next request on the same kept-alive connection is answered, not reset", async ({
  baseURL,
}) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    expect(await post(baseURL!, agent, `email=${"x".repeat(200_000)}`)).toBe("413");
    expect(await post(baseURL!, agent, "name=a&email=b")).toBe("400");
  } finally {
    agent.destroy();
  }
});
