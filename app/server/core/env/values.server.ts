import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * The shapes an environment variable's value comes in, written once so every group of settings
 * reads (and refuses) a number, a path, a URL or a yes/no alike, with the same Japanese message.
 */

/** A value that may be unset: empty or blank counts as unset, as a deploy's empty variable does. */
export const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

/**
 * A whole number in [min, max], with one message naming the range for every way it can be
 * wrong (not a number, a fraction, out of range); `unit` says what it counts (e.g. ミリ秒).
 */
export function integerBetween(min: number, max: number, unit = "") {
  const message = `${min}〜${max} の整数${unit ? `（${unit}）` : ""}で指定してください`;
  return z.coerce.number({ invalid_type_error: message }).int(message).min(min, message).max(max, message);
}

export const port = integerBetween(1, 65535);

/** true or false (empty is false), for switches that are off unless turned on. */
export const flag = () =>
  z
    .enum(["true", "false", ""], { message: "true か false を指定してください" })
    .default("false")
    .transform((value) => value === "true");

export const url = (message: string) => z.string().trim().url(message);

export const folderPath = z.string().trim().min(1, "ディレクトリのパスを指定してください");

/** A database file: never SQLite's in-memory name, a folder, or a path under a file. */
export const filePath = z
  .string()
  .trim()
  .min(1, "ファイルのパスを指定してください")
  .refine((value) => value !== ":memory:", "ファイルのパスを指定してください（:memory: は使えません）")
  .refine(
    (value) => !value.endsWith("/") && !isDirectory(value),
    "ディレクトリではなくファイルのパスを指定してください",
  )
  .refine((value) => !isExistingFile(path.dirname(value)), "親ディレクトリがファイルになっています");

function isDirectory(target: string) {
  try {
    return fs.statSync(target).isDirectory();
  } catch {
    return false;
  }
}

export function isExistingFile(target: string) {
  try {
    return fs.statSync(target).isFile();
  } catch {
    return false;
  }
}
