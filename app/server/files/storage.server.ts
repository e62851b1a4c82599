import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "../core/env.server";
import { loadSharp } from "../core/lazy-modules.server";

/** Widths of the cover variants the storefront's srcset offers (16:9 each). */
export const COVER_WIDTHS = [480, 960, 1440, 1920] as const;

export function mediaDir(): string {
  return path.resolve(env().MEDIA_DIR);
}

/**
 * Where a stored file lives. Stored names are chosen by the shop (random, a fixed
 * alphabet), so a name that does not match cannot point outside MEDIA_DIR.
 */
export function mediaPath(storedName: string): string | null {
  if (!/^[a-z0-9-]+(\.[a-z0-9]+)?$/.test(storedName)) return null;
  return path.join(mediaDir(), storedName);
}

/** Only the last path segment of what the browser called the file, without control characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (clean === "" || clean === "." || clean === ".." ? "無題" : clean).slice(0, 255);
}

export function newStoredName(prefix: string, extension: string): string {
  return `${prefix}-${crypto.randomBytes(12).toString("hex")}.${extension}`;
}

export function coverVariantName(storedName: string, width: number): string {
  return `${storedName.replace(/\.[a-z0-9]+$/, "")}-w${width}.webp`;
}

/** Writes the 16:9 webp variants of a cover image next to it (cropped to fill, never enlarged past the source). */
export async function writeCoverVariants(storedName: string): Promise<void> {
  const source = mediaPath(storedName);
  if (!source) throw new Error("invalid stored name");
  const sharp = await loadSharp();
  await Promise.all(
    COVER_WIDTHS.map((width) =>
      sharp(source)
        .resize({ width, height: Math.round((width * 9) / 16), fit: "cover", withoutEnlargement: false })
        .webp({ quality: 78 })
        .toFile(path.join(mediaDir(), coverVariantName(storedName, width))),
    ),
  );
}

export function removeStoredFile(storedName: string | null | undefined): void {
  if (!storedName) return;
  const file = mediaPath(storedName);
  if (file) fs.rmSync(file, { force: true });
}

export function mediaUrl(storedName: string): string {
  return `/media/${storedName}`;
}

export type PublicMediaItem = {
  id: number;
  contestId: number;
  url: string;
  originalName: string;
  category: string;
  mediaType: string;
  displayOrder: number;
  thumbnailUrl: string | null;
  uploadedAt: Date;
};

/** Categories a visitor may see of a contest on sale; "others" stays in the back-office. */
export const PUBLIC_MEDIA_CATEGORIES = ["cover-image", "sample"] as const;
