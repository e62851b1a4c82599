import { expect, test } from "@playwright/test";
import { ADMIN_ROUTES } from "../support/admin-routes";
import { uniqueEmail } from "../support/helpers";
import { createUser, endSessionsOf, mintSession, type TestUser } from "../support/users";

// HTTP requests, not pages in a browser: run in the js project only (playwright.config.ts).

let admin: TestUser;
/** An admin of its own, so that ending all its sessions touches no other test. */
let endedAdmin: TestUser;
let customer: TestUser;
test.beforeAll(async () => {
  admin = await createUser({ email: uniqueEmail("matrix-admin"), isAdmin: true });
  endedAdmin = await createUser({ email: uniqueEmail("matrix-ended-admin"), isAdmin: true });
  customer = await createUser({ email: uniqueEmail("matrix-customer") });
});

const MINUTE = 60_000;

const identities = {
  anonymous: async () => "",
  customer: async () => mintSession({ userId: customer.id, loggedInAt: Date.now() }),
  "a customer claiming the admin step": async () =>
    mintSession({
      userId: customer.id,
      loggedInAt: Date.now(),
      adminVerifiedAt: Date.now(),
    }),
  "an admin without the second factor": async () =>
    mintSession({ pendingLogin: { userId: admin.id, at: Date.now(), redirectTo: "/admin" } }),
  "an admin logged in without the admin step": async () =>
    mintSession({ userId: admin.id, loggedInAt: Date.now() }),
  "an admin whose session expired": async () =>
    mintSession({
      userId: admin.id,
      loggedInAt: Date.now() - 61 * MINUTE,
      adminVerifiedAt: Date.now() - 61 * MINUTE,
    }),
  "an admin whose session was ended (logout, password change)": async () => {
    const at = Date.now();
    const cookie = await mintSession({ userId: endedAdmin.id, loggedInAt: at, adminVerifiedAt: at });
    endSessionsOf(endedAdmin.id);
    return cookie;
  },
};

for (const [who, cookieFor] of Object.entries(identities)) {
  test(`${who} reaches no admin route`, async ({ request }) => {
    const cookie = await cookieFor();
    for (const route of ADMIN_ROUTES) {
      // The JSON calls get JSON: the only body a cookie-authenticated call may send past the
      // server entry (else 415 before the route is asked), so the route's own check is what answers.
      const response = await request.fetch(route.path, {
        method: route.method,
        headers: cookie ? { Cookie: cookie } : {},
        ...(route.kind === "api" ? { data: route.form } : { form: route.form }),
        maxRedirects: 0,
      });
      const where = `${route.method} ${route.path}`;
      if (route.kind === "api") {
        expect(response.status(), where).toBe(401);
      } else {
        expect(response.status(), where).toBe(302);
        expect(response.headers()["location"], where).toBe("/admin-login");
      }
    }
  });
}

test("an admin with a completed second factor reaches every admin page (the matrix can fail)", async ({
  request,
}) => {
  const cookie = await mintSession({
    userId: admin.id,
    loggedInAt: Date.now(),
    adminVerifiedAt: Date.now(),
  });
  for (const route of ADMIN_ROUTES.filter((r) => r.method === "GET")) {
    const response = await request.get(route.path, { headers: { Cookie: cookie }, maxRedirects: 0 });
    expect(response.status(), route.path).toBe(route.adminStatus ?? 200);
  }
});
