import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "~/server/auth/password.server";

describe("password hashing", () => {
  it("uses scrypt at OWASP parameters and verifies only the right password", async () => {
    const hash = await hashPassword("Correct-Horse-9");
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(hash).not.toContain("Correct-Horse-9");
    expect(await verifyPassword("Correct-Horse-9", hash)).toBe(true);
    expect(await verifyPassword("correct-horse-9", hash)).toBe(false);
    expect(await verifyPassword("anything", "not-a-hash")).toBe(false);
  });

  it("salts each hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });
});
