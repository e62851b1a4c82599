// The "fast-password" project's files (FAST_PASSWORD_TESTS in vitest.config.ts) are about lockouts,
// codes, sessions and who is counted where, not hashing cost: they hash with scrypt at a tiny cost
// (tests/helpers/fast-password.ts) instead of spending 0.3–0.6 s per hash. A vi.mock in a setup file
// applies to every file of its project, so only that project lists this file; tests/server/auth/password.test.ts,
// in "local", floods the real hashing.
import { vi } from "vitest";

vi.mock("~/server/auth/password.server", async (importOriginal) => {
  const { fastDecoyHash, fastHashPassword } = await import("./helpers/fast-password");
  return {
    ...(await importOriginal<typeof import("~/server/auth/password.server")>()),
    hashPassword: fastHashPassword,
    decoyHash: fastDecoyHash,
  };
});
