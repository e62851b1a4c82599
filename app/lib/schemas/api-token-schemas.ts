import { z } from "zod";

/** How long a new API token may live, as the form offers it ("none": until revoked). */
export const API_TOKEN_LIFETIME_CHOICES = [
  ["30", "30日間"],
  ["90", "90日間"],
  ["365", "1年間"],
  ["none", "無期限（無効化するまで）"],
] as const;

export const API_TOKEN_SCOPE_CHOICES = [
  ["read", "読み取り専用（一覧・詳細の取得のみ）"],
  ["write", "読み書き（登録・変更・削除・納品もできる）"],
] as const;

const MAX_NAME = 60;

/** APIトークンの発行 (security page, tab APIトークン). */
export const apiTokenCreateSchema = z.object({
  intent: z.literal("token-create"),
  name: z
    .string({ required_error: "トークンの名前を入力してください" })
    .trim()
    .min(1, "トークンの名前を入力してください")
    .max(MAX_NAME, `名前は${MAX_NAME}文字以内で入力してください`),
  scope: z.enum(["read", "write"], { errorMap: () => ({ message: "権限を選択してください" }) }),
  lifetime: z.enum(["30", "90", "365", "none"], {
    errorMap: () => ({ message: "有効期限を選択してください" }),
  }),
});

export const apiTokenRevokeSchema = z.object({
  intent: z.literal("token-revoke"),
  tokenId: z.coerce.number().int().positive("トークンが見つかりません"),
});
