import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { Field, RadioGroupField, SelectField } from "~/components/forms";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { validateWith } from "~/lib/schemas/validate-with";
import {
  API_TOKEN_LIFETIME_CHOICES,
  API_TOKEN_SCOPE_CHOICES,
  apiTokenCreateSchema,
} from "~/lib/schemas/api-token-schemas";
import { formatDateTime } from "~/lib/rules/format";

export type ApiTokenListItem = {
  id: number;
  name: string;
  prefix: string;
  scope: "read" | "write";
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  owner: string;
};

export type CreatedApiToken = {
  token: string;
  name: string;
  scope: "read" | "write";
  expiresAt: string | null;
};

/**
 * The security page's APIトークン tab: tokens for scripts (docs/api.md), made here, shown once,
 * listed with when they were last used, and revoked here.
 */
export function ApiTokensPanel({
  tokens,
  created,
  lastResult,
  now,
}: {
  tokens: ApiTokenListItem[];
  created: CreatedApiToken | null;
  lastResult: SubmissionResult<string[]> | undefined;
  now: string;
}) {
  const [form, fields] = useShopForm({
    id: "api-token-create",
    lastResult,
    onValidate: validateWith(apiTokenCreateSchema),
    defaultValue: { scope: "write", lifetime: "90" },
  });
  const busy = useIsPending({ intent: "token-create" });
  return (
    <div className="space-y-6">
      <p className="text-sm text-zinc-700">
        スクリプトや編集作業の自動化から管理用APIを使うためのトークンです。リクエストに
        <code className="mx-1 rounded bg-zinc-100 px-1">Authorization: Bearer トークン</code>
        を付けると、発行した管理者として扱われます（2段階認証は求められません）。使い方は docs/api.md
        をご覧ください。使用はすべてログイン記録に残ります。
      </p>

      {created ? <CreatedToken created={created} /> : null}

      <Form method="post" {...getFormProps(form)} className="space-y-4 rounded-xl border border-zinc-200 p-4">
        <h2 className="font-semibold">新しいトークンを発行</h2>
        <input type="hidden" name="intent" value="token-create" />
        <Field
          label="名前（用途）"
          meta={fields.name}
          type="text"
          inputProps={{ placeholder: "例: 編集チームの納品スクリプト", className: "field-input sm:max-w-md" }}
        />
        <RadioGroupField
          label="権限"
          meta={fields.scope}
          options={API_TOKEN_SCOPE_CHOICES.map(([value, label]) => ({ value, label }))}
          optionsClassName="space-y-1"
          optionClassName="flex items-center gap-2 text-sm"
          inputProps={{ className: undefined }}
        />
        <SelectField
          label="有効期限"
          meta={fields.lifetime}
          options={API_TOKEN_LIFETIME_CHOICES.map(([value, label]) => ({ value, label }))}
          selectProps={{ className: "field-input sm:w-72" }}
        />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "発行中..." : "トークンを発行"}
        </button>
      </Form>

      <div>
        <h2 className="font-semibold">発行済みのトークン</h2>
        {tokens.length === 0 ? (
          <p className="mt-2 text-sm text-zinc-600">発行済みのトークンはありません</p>
        ) : (
          <ul className="mt-2 divide-y divide-zinc-100">
            {tokens.map((token) => (
              <TokenRow key={token.id} token={token} now={now} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function CreatedToken({ created }: { created: CreatedApiToken }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="rounded-xl border border-emerald-300 bg-emerald-50 p-4">
      <p className="font-semibold text-emerald-900">トークン「{created.name}」を発行しました</p>
      <p className="mt-1 text-sm text-emerald-900">
        このトークンは今だけ表示されます。この画面を離れると二度と表示できないので、いますぐ安全な場所（パスワード管理ツールなど）に保存してください。
      </p>
      <label htmlFor="created-api-token" className="sr-only">
        発行したトークン
      </label>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <input
          id="created-api-token"
          readOnly
          value={created.token}
          onFocus={(event) => event.currentTarget.select()}
          className="field-input min-w-0 flex-1 font-mono text-xs"
        />
        <button
          type="button"
          className="btn-secondary shrink-0"
          onClick={() => void navigator.clipboard.writeText(created.token).then(() => setCopied(true))}
        >
          {copied ? "コピーしました" : "コピー"}
        </button>
      </div>
    </div>
  );
}

function TokenRow({ token, now }: { token: ApiTokenListItem; now: string }) {
  const expired = token.expiresAt !== null && token.expiresAt <= now;
  const state = token.revokedAt ? "無効化済み" : expired ? "期限切れ" : "有効";
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3 text-sm">
      <div className="min-w-0 space-y-0.5">
        <p className="font-semibold break-words">
          {token.name}
          <span
            className={`ml-2 rounded-full px-2 py-0.5 text-xs ${state === "有効" ? "bg-emerald-100 text-emerald-900" : "bg-zinc-200 text-zinc-700"}`}
          >
            {state}
          </span>
        </p>
        <p className="text-zinc-600">
          <span className="font-mono">{token.prefix}…</span>・
          {token.scope === "write" ? "読み書き" : "読み取り専用"}・発行{" "}
          {formatDateTime(new Date(token.createdAt))}（<span className="break-all">{token.owner}</span>）
        </p>
        <p className="text-zinc-600">
          有効期限 {token.expiresAt ? formatDateTime(new Date(token.expiresAt)) : "なし"}・最終使用{" "}
          {token.lastUsedAt ? formatDateTime(new Date(token.lastUsedAt)) : "なし"}
          {token.revokedAt ? `・無効化 ${formatDateTime(new Date(token.revokedAt))}` : ""}
        </p>
      </div>
      {state === "有効" ? (
        // Revoking only stops a script, which a new token starts again: no question asked first.
        <Form method="post">
          <input type="hidden" name="intent" value="token-revoke" />
          <input type="hidden" name="tokenId" value={token.id} />
          <button
            type="submit"
            aria-label={`トークン「${token.name}」を無効化`}
            className="rounded-lg border border-red-300 px-3 py-1.5 text-red-700 hover:bg-red-50"
          >
            無効化
          </button>
        </Form>
      ) : null}
    </li>
  );
}
