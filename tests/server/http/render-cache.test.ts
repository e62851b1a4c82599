// The render cache (render-cache.server.ts): what may be kept, under which key, and how a kept
// page is handed out. Its use by entry.server against the build is in e2e/storefront/render-cache.spec.ts.
import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import {
  cachedPage,
  keepPage,
  NONCE_PLACEHOLDER,
  renderCacheKey,
  renderCacheSize,
  stableText,
} from "~/server/http/render-cache.server";

function context(
  routeIds: string[],
  loaderData: Record<string, unknown>,
  extra: Partial<EntryContext["staticHandlerContext"]> = {},
): EntryContext {
  return {
    staticHandlerContext: {
      matches: routeIds.map((id) => ({ route: { id } })),
      loaderData,
      actionData: null,
      errors: null,
      statusCode: 200,
      activeDeferreds: null,
      ...extra,
    },
  } as unknown as EntryContext;
}
const get = (url: string) => new Request(url);
const anonymous = { root: { user: null, toast: null } };

describe("render cache key", () => {
  it("differs whenever the address, the status or any of the loaders' data does", () => {
    const form = ["root", "routes/storefront/order-form"];
    const base = {
      ...anonymous,
      "routes/storefront/order-form": { draft: [{ athleteId: "" }], draftVersion: 0 },
    };
    const key = renderCacheKey(get("http://shop.test/order-form/a"), context(form, base));
    expect(key).not.toBeNull();
    expect(renderCacheKey(get("http://shop.test/order-form/a"), context(form, base))).toBe(key);
    for (const other of [
      renderCacheKey(get("http://shop.test/order-form/b"), context(form, base)),
      renderCacheKey(get("http://shop.test/order-form/a?x=1"), context(form, base)),
      renderCacheKey(get("http://shop.test/order-form/a"), context(form, base, { statusCode: 404 })),
      renderCacheKey(
        get("http://shop.test/order-form/a"),
        context(form, {
          ...base,
          "routes/storefront/order-form": { draft: [{ athleteId: "3" }], draftVersion: 0 },
        }),
      ),
    ])
      expect(other).not.toBe(key);
  });

  it("keeps nothing for a post, a logged-in user, a toast, a route not named, or data on its way", () => {
    const about = ["root", "routes/storefront/about"];
    expect(renderCacheKey(get("http://shop.test/about"), context(about, anonymous))).not.toBeNull();
    expect(
      renderCacheKey(new Request("http://shop.test/about", { method: "POST" }), context(about, anonymous)),
    ).toBeNull();
    expect(
      renderCacheKey(
        get("http://shop.test/about"),
        context(about, { root: { user: { email: "a@b.jp" }, toast: null } }),
      ),
    ).toBeNull();
    expect(
      renderCacheKey(
        get("http://shop.test/about"),
        context(about, { root: { user: null, toast: { title: "x" } } }),
      ),
    ).toBeNull();
    expect(
      renderCacheKey(get("http://shop.test/account"), context(["root", "routes/account/account"], anonymous)),
    ).toBeNull();
    expect(
      renderCacheKey(get("http://shop.test/admin"), context(["root", "routes/admin/layout"], anonymous)),
    ).toBeNull();
    expect(
      renderCacheKey(get("http://shop.test/about"), context(about, { ...anonymous, x: Promise.resolve(1) })),
    ).toBeNull();
    expect(
      renderCacheKey(get("http://shop.test/about"), context(about, anonymous, { actionData: { root: {} } })),
    ).toBeNull();
  });
});

describe("stable text of the loaders' data", () => {
  it("tells apart what JSON alone would not: dates, undefined, maps, sets, big integers", () => {
    const pairs: [unknown, unknown][] = [
      [{ at: new Date(0) }, { at: "1970-01-01T00:00:00.000Z" }],
      [{ a: undefined }, {}],
      [[undefined], [null]],
      [{ m: new Map([["a", 1]]) }, { m: {} }],
      [{ m: new Map([["a", 1]]) }, { m: new Map([["a", 2]]) }],
      [{ s: new Set([1]) }, { s: [1] }],
      [{ n: 1n }, { n: "1" }],
    ];
    for (const [a, b] of pairs) expect(stableText(a)).not.toBe(stableText(b));
    expect(stableText({ at: new Date(5), m: new Map([["k", [1]]]) })).toBe(
      stableText({ at: new Date(5), m: new Map([["k", [1]]]) }),
    );
  });

  it("refuses what it cannot describe (a promise, a class instance, a function)", () => {
    class Thing {
      value = 1;
    }
    expect(stableText({ p: Promise.resolve(1) })).toBeNull();
    expect(stableText({ t: new Thing() })).toBeNull();
    expect(stableText({ f: () => 1 })).toBeNull();
    expect(stableText({ plain: { a: [1, "x", null, true] } })).not.toBeNull();
  });
});

describe("kept pages", () => {
  it("are handed out with each answer's own nonce in place of the placeholder", () => {
    const page = `<script nonce="${NONCE_PLACEHOLDER}"></script><script nonce="${NONCE_PLACEHOLDER}"></script>`;
    keepPage("k-nonce", page, 1_000);
    expect(cachedPage("k-nonce", "AAA", 2_000)).toBe(
      '<script nonce="AAA"></script><script nonce="AAA"></script>',
    );
    expect(cachedPage("k-nonce", "BBB", 2_000)).toBe(
      '<script nonce="BBB"></script><script nonce="BBB"></script>',
    );
    expect(cachedPage("k-unknown", "AAA", 2_000)).toBeNull();
  });

  it("are served for a minute at most", () => {
    keepPage("k-old", "page", 0);
    expect(cachedPage("k-old", "n", 60_000)).toBe("page");
    expect(cachedPage("k-old", "n", 60_001)).toBeNull();
  });

  it("never grow past 200 pages or 4 million characters: the oldest go first", () => {
    for (let i = 0; i < 250; i++) keepPage(`k-many-${i}`, "x".repeat(1_000), 0);
    expect(renderCacheSize().pages).toBe(200);
    expect(cachedPage("k-many-0", "n", 0)).toBeNull();
    expect(cachedPage("k-many-249", "n", 0)).not.toBeNull();
    for (let i = 0; i < 10; i++) keepPage(`k-big-${i}`, "y".repeat(1_000_000), 0);
    expect(renderCacheSize().chars).toBeLessThanOrEqual(4_000_000);
    expect(cachedPage("k-big-9", "n", 0)).not.toBeNull();
  });
});
