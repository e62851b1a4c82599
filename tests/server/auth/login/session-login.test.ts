import { describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { logIn, logOut, LOGIN_SESSION_KEYS } from "~/server/auth/login/session-login.server";
import { getCurrentUser } from "~/server/auth/users.server";
import { createUser, newSession, roundTrip } from "../../../helpers/accounts";

const T0 = Date.UTC(2025, 5, 1, 3, 0, 0);

describe("logIn and logOut", () => {
  it("logOut leaves no login key behind, nor the checkout, the last order or the registration (they name the visitor)", async () => {
    setClock(() => T0);
    const user = await createUser("logout@example.jp", "Secret-Pass1", { isAdmin: true });
    const session = await newSession();
    logIn(session, user, { as: "user", admin: true });
    session.set("pendingLogin", { userId: user.id, at: T0, redirectTo: "/admin" });
    session.set("passwordChange", { userId: user.id, verifiedAt: T0 });
    session.set("checkoutId", "checkout-1");
    session.set("registration", { id: "r1", email: "new@example.jp", fromOrder: false });
    session.set("lastOrderId", 7);
    for (const key of LOGIN_SESSION_KEYS) expect(session.has(key), key).toBe(true);

    logOut(session);
    const after = await roundTrip(session);
    for (const key of LOGIN_SESSION_KEYS) expect(after.has(key), key).toBe(false);
    expect(await getCurrentUser(after)).toBeNull();
    expect(after.has("checkoutId")).toBe(false);
    expect(after.has("lastOrderId")).toBe(false);
    expect(after.has("registration")).toBe(false);
  });

  it("a pending second factor logs nobody in; ending it keeps a login already there", async () => {
    setClock(() => T0);
    const user = await createUser("pending@example.jp", "Secret-Pass1");
    const session = await newSession();
    logIn(session, user, { as: "pending-second-factor", redirectTo: "/account" });
    expect(session.get("pendingLogin")).toEqual({ userId: user.id, at: T0, redirectTo: "/account" });
    expect(await getCurrentUser(session)).toBeNull();

    logIn(session, user);
    expect(session.has("pendingLogin")).toBe(false);
    expect(session.has("adminVerifiedAt")).toBe(false);
    session.set("pendingLogin", { userId: user.id, at: T0, redirectTo: "/" });
    logOut(session, "pending-second-factor");
    expect(session.has("pendingLogin")).toBe(false);
    expect(await getCurrentUser(await roundTrip(session))).toMatchObject({ id: user.id });
  });
});
