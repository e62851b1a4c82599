import { z } from "zod";
import { filePath, flag, folderPath, integerBetween, optionalText, port, url } from "./values.server";

/** How this server runs: where its files are, who is in front of it, how big a request may be. */
export const serverSettings = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  DATABASE_PATH: filePath.default("./data/shop.db"),
  MEDIA_DIR: folderPath.default("./data/media"),
  MAIL_DIR: folderPath.default("./data/mail"),
  SITE_URL: url("URL の形式が正しくありません（例: https://shop.example.jp）").default(
    "http://localhost:3000",
  ),
  /** Largest single uploaded file (delivered videos, media), in bytes: 8 GB, as formatBytes says it. */
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024, "1024 以上の整数で指定してください")
    .default(8_000_000_000),
  /** Size of each piece of a chunked media upload (the spec's 50 MiB); tests set a small one. */
  UPLOAD_CHUNK_BYTES: integerBetween(1024, 1024 ** 3).default(50 * 1024 ** 2),
  /**
   * Room (MB, 1 MB = 1,000,000 bytes, as every size is shown: formatBytes) no upload may take from
   * a disk, so the database can always take an order; at most a tenth of the disk
   * (core/disk.server.ts diskReserveBytes).
   */
  DISK_RESERVE_MB: integerBetween(1, 1024 * 1024, "MB").default(512),
  /** After SIGTERM or SIGINT, how long requests in flight may take before their connections are closed (server/index.ts). */
  SHUTDOWN_GRACE_MS: integerBetween(0, 600_000, "ミリ秒").default(10_000),
  /** Test-only routes (e.g. one that throws, to show the error fallback). Never on an https site. */
  ENABLE_TEST_HOOKS: flag(),
  /** Answers say `X-Render-Cache: hit|miss` (for measuring): off by default, since it tells anyone whether a page was drawn recently for someone. */
  DEBUG_RENDER_CACHE: flag(),
  /**
   * Which proxy tells the client's address (per-origin limits, login records): `fly` (its edge
   * sets Fly-Client-IP), the number of proxies in front that each append to X-Forwarded-For,
   * or `none`. Unset: `fly` on fly.io (which sets FLY_APP_NAME), else `none` — see trustProxy.
   */
  TRUST_PROXY: optionalText.pipe(
    z
      .string()
      .regex(
        /^(fly|none|[1-9]|10)$/,
        "fly、none、または信頼するプロキシの段数（1〜10 の整数）を指定してください",
      )
      .transform((value): "fly" | "none" | number =>
        value === "fly" || value === "none" ? value : Number(value),
      )
      .optional(),
  ),
  FLY_APP_NAME: optionalText,
  /** How many media jobs (posters, phone versions: app/server/media/jobs) run at once. */
  MEDIA_JOBS: integerBetween(1, 8).default(1),
  /**
   * Who runs the media jobs: this web server in its own process (`server`, the default), or a
   * process of their own (`separate`: `npm run worker`, on the machine that holds the database).
   */
  MEDIA_WORKER: z
    .enum(["server", "separate"], { message: "server か separate を指定してください" })
    .default("server"),
  /** ffmpeg's thread cap; unset, half the machine's cores (app/server/media/jobs/ffmpeg.server.ts). */
  MEDIA_FFMPEG_THREADS: optionalText.pipe(integerBetween(1, 64).optional()),
});

/**
 * Whose word names the caller when TRUST_PROXY is unset. Without a proxy in front, every
 * X-Forwarded-For entry is whatever the client wrote, so trusting one by default would let any
 * client choose its own per-origin bucket; with `none` the caller is the socket's peer
 * (server/index.ts). fly.io's edge always sets Fly-Client-IP, and FLY_APP_NAME tells it is there.
 */
export function trustProxy(
  configured: "fly" | "none" | number | undefined,
  flyAppName: string | undefined,
): "fly" | "none" | number {
  return configured ?? (flyAppName ? "fly" : "none");
}
