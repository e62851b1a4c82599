import { describe, expect, it } from "vitest";
import { customerSchema } from "~/lib/schemas/order-schemas";

describe("the customer's name", () => {
  it("takes any name a person writes, emoji included, and refuses half of a surrogate pair with a message", () => {
    for (const name of ["山田 花子", "Ｙａｍａｄａ", "𠮷田 🎉"])
      expect(customerSchema.safeParse({ email: "a@example.jp", name, autoLogin: false }).success, name).toBe(
        true,
      );
    for (const name of ["山田\uD800", "\uDC00花子", "🎉".slice(0, 1)]) {
      const parsed = customerSchema.safeParse({ email: "a@example.jp", name, autoLogin: false });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe("お名前に使えない文字が含まれています");
    }
  });
});
