import { z } from "zod";
import { newPasswordProblem, PASSWORD_MAX, PASSWORD_MESSAGES } from "../rules/password-rules";
import { MAX_ORDER_ITEMS } from "../rules/pricing";

/** Shared by the browser (conform) and the server: the order form, the customer step, the code step. */

export const ORDER_MESSAGES = {
  noItems: "注文項目を選択してください",
  incompleteItem: "すべての項目を選択してください",
} as const;

const required = (schema: z.ZodTypeAny) =>
  z.preprocess((value) => (value === "" || value === null ? undefined : value), schema);

export const orderItemSchema = z.object({
  category: required(z.string({ required_error: ORDER_MESSAGES.incompleteItem }).max(200)),
  athleteId: required(
    z.coerce
      .number({
        required_error: ORDER_MESSAGES.incompleteItem,
        invalid_type_error: ORDER_MESSAGES.incompleteItem,
      })
      .int()
      .positive(),
  ),
  formatId: required(
    z.coerce
      .number({
        required_error: ORDER_MESSAGES.incompleteItem,
        invalid_type_error: ORDER_MESSAGES.incompleteItem,
      })
      .int()
      .positive(),
  ),
});

// "No items" is an error of the whole form (there is no item field to put it beside).
export const orderFormSchema = z
  .object({
    items: z
      .array(orderItemSchema)
      .max(MAX_ORDER_ITEMS, `一度にご注文いただけるのは${MAX_ORDER_ITEMS}件までです`)
      .default([]),
  })
  .refine((value) => value.items.length > 0, { message: ORDER_MESSAGES.noItems });

export type OrderFormValues = z.input<typeof orderFormSchema>;

/** Adding or removing an item keeps an incomplete draft: nothing is refused. */
export const orderFormDraftSchema = z.object({
  items: z.array(z.record(z.unknown())).default([]),
}) as unknown as typeof orderFormSchema;

/** Text whose surrogates all come in pairs (JavaScript's regular expressions without `u` see UTF-16 units). */
const WELL_FORMED = /^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

export const customerSchema = z
  .object({
    email: z
      .string({ required_error: "メールアドレスを入力してください" })
      .trim()
      .max(254, "メールアドレスが長すぎます")
      .email("メールアドレスの形式が正しくありません"),
    name: z
      .string({ required_error: "お名前を入力してください" })
      .trim()
      .min(1, "お名前を入力してください")
      .max(100, "お名前は100文字以内で入力してください")
      // Half of a surrogate pair (only a JSON body can send one): stored, mailed and carried by the
      // payment (Stripe would replace it, and the order it carries would no longer read as sent).
      .regex(WELL_FORMED, "お名前に使えない文字が含まれています"),
    autoLogin: z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean()),
    password: z.string().max(PASSWORD_MAX, PASSWORD_MESSAGES.tooLong).optional(),
    confirmPassword: z.string().max(PASSWORD_MAX).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.autoLogin) return;
    if (!value.password) {
      ctx.addIssue({ code: "custom", path: ["password"], message: "パスワードを入力してください" });
    } else {
      // The auto-login account is an account like any other: registration's rule, written once.
      const problem = newPasswordProblem(value.password);
      if (problem) ctx.addIssue({ code: "custom", path: ["password"], message: problem });
    }
    if (value.password && value.password !== value.confirmPassword) {
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "パスワードが一致しません" });
    }
  });

export type CustomerValues = z.infer<typeof customerSchema>;

/** The six boxes arrive as six fields named `digit`; joined they must be exactly six digits. */
export const codeSchema = z.object({
  code: z.preprocess(
    (value) => (Array.isArray(value) ? value.join("") : value),
    z
      .string({ required_error: "6桁の認証コードを入力してください" })
      .transform((value) =>
        value.replace(/\s/g, "").replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)),
      )
      .pipe(z.string().regex(/^\d{6}$/, "6桁の認証コードを入力してください")),
  ),
});
