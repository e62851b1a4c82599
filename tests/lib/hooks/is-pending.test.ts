import type { Fetcher, Navigation } from "@remix-run/react";
import { describe, expect, it } from "vitest";
import { isPending } from "~/lib/hooks/use-is-pending";

const idle = { state: "idle" } as Navigation;

function post(
  action: string,
  fields: Record<string, string>,
  state: "submitting" | "loading" = "submitting",
) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  return {
    state,
    location: { pathname: action.split("?")[0], search: "", hash: "", state: null, key: "k" },
    formMethod: "POST",
    formAction: action,
    formEncType: "application/x-www-form-urlencoded",
    formData,
  } as unknown as Navigation;
}

function link(pathname: string) {
  return {
    state: "loading",
    location: { pathname, search: "", hash: "", state: null, key: "k" },
  } as Navigation;
}

describe("isPending (useIsPending's rule)", () => {
  it("is busy while a post or a link is on its way, and not when idle", () => {
    expect(isPending(idle, "/login", {})).toBe(false);
    expect(isPending(post("/login", {}), "/login", {})).toBe(true);
    expect(isPending(post("/login", {}, "loading"), "/login", {})).toBe(true);
    expect(isPending(link("/"), "/login", {})).toBe(true);
  });

  it("counts only the submitting phase or only the loading phase when asked", () => {
    expect(isPending(post("/payment", {}), "/payment", { state: "submitting" })).toBe(true);
    expect(isPending(post("/payment", {}, "loading"), "/payment", { state: "submitting" })).toBe(false);
    expect(isPending(link("/"), "/", { state: "loading" })).toBe(true);
    expect(isPending(post("/payment", {}), "/payment", { state: "loading" })).toBe(false);
  });

  it("counts only the form with the given intent, action and method", () => {
    const save = post("/admin/contests/1/settings?index", { intent: "category-save" });
    expect(isPending(save, "/admin/contests/1/settings?index", { intent: "category-save" })).toBe(true);
    expect(isPending(save, "/admin/contests/1/settings?index", { intent: "category-delete" })).toBe(false);
    const upload = post("/admin/contests/1/content?intent=upload", {});
    expect(
      isPending(upload, "/admin/contests/1/content?intent=upload", { formAction: "?intent=upload" }),
    ).toBe(true);
    expect(
      isPending(upload, "/admin/contests/1/content?intent=delete", { formAction: "?intent=delete" }),
    ).toBe(false);
    expect(isPending(upload, "", { formMethod: "post" })).toBe(true);
    expect(isPending(upload, "", { formMethod: "delete" })).toBe(false);
  });

  it("counts a link to the given path, but not a post there nor the reload after it", () => {
    expect(isPending(link("/verify-email"), "", { to: "/verify-email" })).toBe(true);
    expect(isPending(link("/admin"), "", { to: "/verify-email" })).toBe(false);
    expect(isPending(post("/admin", { contestId: "3" }, "loading"), "", { to: "/admin" })).toBe(false);
  });

  it("asks a fetcher the same way: busy while its post is on its way, with the same filters", () => {
    const idleFetcher = { state: "idle", data: undefined } as Fetcher<unknown>;
    expect(isPending(idleFetcher, "/admin/contests/new", {})).toBe(false);
    const adding = fetcherPost("/admin/contests/new", { name: "春の大会" });
    expect(isPending(adding, "/admin/contests/new", {})).toBe(true);
    expect(isPending(fetcherPost("/admin/contests/new", {}, "loading"), "", {})).toBe(true);
    expect(isPending(fetcherPost("/admin/contests/new", {}, "loading"), "", { state: "submitting" })).toBe(
      false,
    );
    const bulk = fetcherPost("/admin/contests/1/athletes?index", { intent: "bulk-update" });
    expect(isPending(bulk, "", { intent: "bulk-update" })).toBe(true);
    expect(isPending(bulk, "", { intent: "bulk-delete" })).toBe(false);
    expect(isPending(bulk, "/admin/contests/1/athletes?index", { formAction: "." })).toBe(true);
    expect(isPending(bulk, "/admin/contests/2/athletes?index", { formAction: "." })).toBe(false);
    expect(isPending(bulk, "", { formMethod: "post" })).toBe(true);
  });

  it("never counts a fetcher as following a link", () => {
    const loadingFetcher = { state: "loading", formData: undefined } as Fetcher<unknown>;
    expect(isPending(loadingFetcher, "", {})).toBe(true);
    expect(isPending(loadingFetcher, "", { to: "/verify-email" })).toBe(false);
  });
});

function fetcherPost(
  action: string,
  fields: Record<string, string>,
  state: "submitting" | "loading" = "submitting",
) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  return {
    state,
    formMethod: "POST",
    formAction: action,
    formEncType: "application/x-www-form-urlencoded",
    formData,
    data: undefined,
  } as unknown as Fetcher<unknown>;
}
