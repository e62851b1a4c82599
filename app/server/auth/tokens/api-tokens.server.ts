import crypto from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { apiTokenCreateSchema } from "~/lib/schemas/api-token-schemas";
import { now } from "../../core/clock.server";
import { db } from "../../db/client.server";
import { apiTokens, users, type ApiTokenScope } from "../../db/schema";
import { DAY_MS } from "~/lib/rules/tokyo-date";

/**
 * Admin API tokens: what a script sends as `Authorization: Bearer …` to act as an admin
 * without the cookie and its second factor. The token is 256 random bits, shown once when it
 * is made; only its SHA-256 is kept, so a copy of the database opens nothing. A token works
 * while it is neither revoked nor expired and its owner is still an admin.
 */

/** Recognisable in a script's configuration and in a secret scanner's rules. */
const TOKEN_PREFIX = "cvs_";
const PREFIX_SHOWN = TOKEN_PREFIX.length + 6;

export type ApiTokenLifetime = z.infer<typeof apiTokenCreateSchema>["lifetime"];
/** Days a new token lives; "none" is until it is revoked. */
const LIFETIME_DAYS: Record<ApiTokenLifetime, number | null> = { "30": 30, "90": 90, "365": 365, none: null };

function hashOf(token: string): string {
  return crypto.createHash("sha256").update(token).digest("base64url");
}

export type NewApiToken = {
  id: number;
  token: string;
  name: string;
  scope: ApiTokenScope;
  expiresAt: Date | null;
};

export function createApiToken(
  userId: number,
  options: { name: string; scope: ApiTokenScope; lifetime: ApiTokenLifetime },
): NewApiToken {
  const token = `${TOKEN_PREFIX}${crypto.randomBytes(32).toString("base64url")}`;
  const days = LIFETIME_DAYS[options.lifetime];
  const expiresAt = days === null ? null : new Date(now().getTime() + days * DAY_MS);
  const row = db()
    .insert(apiTokens)
    .values({
      userId,
      name: options.name,
      tokenHash: hashOf(token),
      prefix: token.slice(0, PREFIX_SHOWN),
      scope: options.scope,
      createdAt: now(),
      expiresAt,
    })
    .returning({ id: apiTokens.id })
    .get();
  return { id: row.id, token, name: options.name, scope: options.scope, expiresAt };
}

export type ApiTokenRow = {
  id: number;
  name: string;
  prefix: string;
  scope: ApiTokenScope;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  owner: string;
};

/** Every admin's tokens, newest first: the admins of a shop look after the scripts together. */
export function listApiTokens(): ApiTokenRow[] {
  return db()
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      prefix: apiTokens.prefix,
      scope: apiTokens.scope,
      createdAt: apiTokens.createdAt,
      expiresAt: apiTokens.expiresAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
      owner: users.email,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    .limit(200)
    .all();
}

/** Revokes a token at once; answers false when there is no such token still in force. */
export function revokeApiToken(id: number): boolean {
  return (
    db()
      .update(apiTokens)
      .set({ revokedAt: now() })
      .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
      .run().changes > 0
  );
}

export type TokenCheck =
  | { ok: true; tokenId: number; scope: ApiTokenScope; admin: { id: number; email: string; name: string } }
  /** `email` names the owner when the token is known (revoked, expired, no longer an admin). */
  | { ok: false; email: string | null; userId: number | null; message: string };

/** Checks a bearer token and notes its use. */
export function checkApiToken(token: string): TokenCheck {
  const row = token.startsWith(TOKEN_PREFIX)
    ? db()
        .select({
          id: apiTokens.id,
          scope: apiTokens.scope,
          expiresAt: apiTokens.expiresAt,
          revokedAt: apiTokens.revokedAt,
          userId: users.id,
          email: users.email,
          name: users.name,
          isAdmin: users.isAdmin,
        })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.userId))
        .where(eq(apiTokens.tokenHash, hashOf(token)))
        .get()
    : undefined;
  if (!row) return { ok: false, email: null, userId: null, message: "APIトークンが正しくありません" };
  const refused = (message: string) => ({
    ok: false as const,
    email: row.email,
    userId: row.userId,
    message,
  });
  if (row.revokedAt) return refused("このAPIトークンは無効化されています");
  const at = now();
  if (row.expiresAt && row.expiresAt <= at) return refused("このAPIトークンは有効期限が切れています");
  if (!row.isAdmin) return refused("このAPIトークンの持ち主は管理者ではありません");
  db().update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, row.id)).run();
  return {
    ok: true,
    tokenId: row.id,
    scope: row.scope,
    admin: { id: row.userId, email: row.email, name: row.name },
  };
}
