import { parseForm } from "~/lib/schemas/parse-form";
import { describe, expect, it } from "vitest";
import {
  loginSchema,
  newPasswordSchema,
  passwordChangeCodeSchema,
  registerSchema,
  registrationCodeSchema,
} from "~/lib/schemas/account-schemas";
import { isStrongEnough } from "~/lib/rules/password-rules";

function form(entries: [string, string][]) {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
}

function errors(result: { status?: "success" | "error"; error?: Record<string, string[] | null> | null }) {
  return result.status === "success" ? {} : (result.error ?? {});
}

describe("account form schemas", () => {
  it("registration: every field, matching passwords of 8+ characters with two kinds, and the agreement", () => {
    const ok = form([
      ["name", "山田 花子"],
      ["email", "hanako@example.jp"],
      ["password", "hanako2025"],
      ["confirmPassword", "hanako2025"],
      ["agreesToTerms", "on"],
    ]);
    expect(parseForm(ok, { schema: registerSchema }).status).toBe("success");

    expect(errors(parseForm(form([]), { schema: registerSchema }))).toMatchObject({
      name: ["お名前を入力してください"],
      email: ["メールアドレスを入力してください"],
      password: ["パスワードを入力してください"],
      confirmPassword: ["確認用のパスワードを入力してください"],
      agreesToTerms: ["利用規約とプライバシーポリシーへの同意が必要です"],
    });
    const weak = form([
      ["name", "a"],
      ["email", "a@example.jp"],
      ["password", "abcdefgh"],
      ["confirmPassword", "abcdefgx"],
      ["agreesToTerms", "on"],
    ]);
    expect(errors(parseForm(weak, { schema: registerSchema }))).toMatchObject({
      password: ["英大文字・英小文字・数字のうち2種類以上を組み合わせてください"],
      confirmPassword: ["パスワードが一致しません"],
    });
    const short = form([
      ["name", "a"],
      ["email", "a@example.jp"],
      ["password", "Ab1"],
      ["confirmPassword", "Ab1"],
      ["agreesToTerms", "on"],
    ]);
    expect(errors(parseForm(short, { schema: registerSchema }))).toMatchObject({
      password: ["パスワードは8文字以上で入力してください"],
    });
    // A repeated field is refused with the same Japanese message, not a type error in English.
    const repeated = form([
      ["name", "a"],
      ["name", "b"],
    ]);
    expect(errors(parseForm(repeated, { schema: registerSchema }))).toMatchObject({
      name: ["お名前を入力してください"],
    });
  });

  it("registration reports the password's strength and the mismatch with the terms box unticked, every error at once", () => {
    const unticked = form([
      ["name", ""],
      ["email", "not-an-address"],
      ["password", "abcdefgh"],
      ["confirmPassword", "abcdefgx"],
    ]);
    expect(errors(parseForm(unticked, { schema: registerSchema }))).toEqual({
      name: ["お名前を入力してください"],
      email: ["メールアドレスの形式が正しくありません"],
      password: ["英大文字・英小文字・数字のうち2種類以上を組み合わせてください"],
      confirmPassword: ["パスワードが一致しません"],
      agreesToTerms: ["利用規約とプライバシーポリシーへの同意が必要です"],
    });
    // A weak password with no confirmation yet: the strength is still told.
    expect(errors(parseForm(form([["password", "Ab1"]]), { schema: registerSchema }))).toMatchObject({
      password: ["パスワードは8文字以上で入力してください"],
      confirmPassword: ["確認用のパスワードを入力してください"],
    });
    // Only the terms box left: it alone is reported.
    const onlyTerms = form([
      ["name", "山田 花子"],
      ["email", "hanako@example.jp"],
      ["password", "hanako2025"],
      ["confirmPassword", "hanako2025"],
    ]);
    expect(errors(parseForm(onlyTerms, { schema: registerSchema }))).toEqual({
      agreesToTerms: ["利用規約とプライバシーポリシーへの同意が必要です"],
    });
  });

  it("password strength: at least two of upper case, lower case and digits", () => {
    expect(isStrongEnough("abcdefgh")).toBe(false);
    expect(isStrongEnough("ABCDEFGH")).toBe(false);
    expect(isStrongEnough("12345678")).toBe(false);
    expect(isStrongEnough("abcd1234")).toBe(true);
    expect(isStrongEnough("ABCDefgh")).toBe(true);
  });

  it("password change: the spec's messages", () => {
    expect(
      errors(parseForm(form([["newPassword", "Abcdefg1"]]), { schema: newPasswordSchema })),
    ).toMatchObject({ "": ["すべての項目を入力してください"] });
    expect(
      errors(
        parseForm(
          form([
            ["newPassword", "Abcdefg1"],
            ["confirmPassword", "Abcdefg2"],
          ]),
          { schema: newPasswordSchema },
        ),
      ),
    ).toMatchObject({
      confirmPassword: ["新しいパスワードが一致しません"],
    });
    expect(
      errors(
        parseForm(
          form([
            ["newPassword", "Ab1"],
            ["confirmPassword", "Ab1"],
          ]),
          { schema: newPasswordSchema },
        ),
      ),
    ).toMatchObject({
      newPassword: ["パスワードは8文字以上で入力してください"],
    });
    expect(errors(parseForm(form([]), { schema: passwordChangeCodeSchema }))).toMatchObject({
      code: ["認証コードを入力してください"],
    });
    expect(errors(parseForm(form([["code", "12a"]]), { schema: passwordChangeCodeSchema }))).toMatchObject({
      code: ["認証コードは6桁の数字で入力してください"],
    });
  });

  it("codes arrive as six boxes, full-width digits allowed", () => {
    const boxes = form(["１", "2", "3", "4", "5", "6"].map((d) => ["code", d]));
    const result = parseForm(boxes, { schema: registrationCodeSchema });
    expect(result.status === "success" ? result.value.code : null).toBe("123456");
  });

  it("login: both fields required, the e-mail well-formed", () => {
    expect(errors(parseForm(form([["email", "x"]]), { schema: loginSchema }))).toMatchObject({
      email: ["メールアドレスの形式が正しくありません"],
      password: ["パスワードを入力してください"],
    });
  });
});
