// Types of lib.mjs, for the TypeScript scripts (load and fault tests) that share it.
import type { ChildProcess } from "node:child_process";

export const SECRET: string;
export const ENCRYPTION_KEY: string;
export function freePort(): Promise<number>;
export function startServer(
  env: Record<string, string>,
  port?: number,
  options?: { build?: string; ready?: string; nodeArgs?: string[] },
): Promise<{ base: string; child: ChildProcess; stop: () => Promise<unknown> }>;
export function adminCookie(databasePath: string, userId: number): Promise<string>;
export function timeRequests(
  url: string,
  headers: Record<string, string>,
  count?: number,
): Promise<{ median: number; p95: number }>;
export function migratedShop(
  label: string,
): Promise<{ dir: string; dbFile: string; env: Record<string, string> }>;
