import path from "node:path";
import { test } from "@playwright/test";

/** Whether this test runs against the server that keeps its files in object storage (the …-s3 projects). */
export function objectStorage(): boolean {
  return test.info().project.name.endsWith("-s3");
}

/** The folder of the e2e server this test talks to (e2e/support/server.mjs): its database, mail and media. */
export function e2eWorkDir(): string {
  return path.resolve(import.meta.dirname, "../..", ".tmp", objectStorage() ? "e2e-s3" : "e2e");
}

export function e2eDbFile(): string {
  return path.join(e2eWorkDir(), "shop.db");
}
