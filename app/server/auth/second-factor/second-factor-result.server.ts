import type { users } from "../../db/schema";

/**
 * What the second step of a login answers, apart from the step itself (second-factor.server.ts),
 * so the login record (login-audit.server.ts), which the step calls, can read it without the two
 * importing each other.
 */

/** The account whose login waits for its second factor. */
export type PendingUser = typeof users.$inferSelect;

/** What checking an account's current second factor answers. */
export type FactorCheck =
  | { ok: true }
  /** A wrong code (or a used authenticator step): counted on the account. */
  | { ok: false; reason: "wrong"; message: string; warning: string | null }
  /** Nothing left to check: the mailed code has expired (or none was sent). */
  | { ok: false; reason: "expired"; message: string }
  /** The account is locked (423); `counted` when this very attempt was the failure that locked it. */
  | { ok: false; reason: "locked"; message: string; lockedUntil: Date; counted: boolean };

export type SecondFactorResult =
  { ok: true; user: PendingUser; redirectTo: string } | Exclude<FactorCheck, { ok: true }>;
