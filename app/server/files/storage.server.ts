import crypto from "node:crypto";
import { loadSharp } from "../core/lazy-modules.server";
import { fileStore } from "./store.server";

/** Widths of the cover variants the storefront's srcset offers (16:9 each). */
export const COVER_WIDTHS = [480, 960, 1440, 1920] as const;

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

/**
 * Stores the 16:9 webp variants of the cover `storedName` (cropped to fill, never enlarged past
 * the source), made from `source`, the uploaded image on this server's disk.
 */
export async function writeCoverVariants(storedName: string, source: string): Promise<void> {
  const sharp = await loadSharp();
  const store = await fileStore();
  await Promise.all(
    COVER_WIDTHS.map(async (width) => {
      const variant = await sharp(source)
        .resize({ width, height: Math.round((width * 9) / 16), fit: "cover", withoutEnlargement: false })
        .webp({ quality: 78 })
        .toBuffer();
      await store.putBytes(coverVariantName(storedName, width), variant, "image/webp", "public");
    }),
  );
}

/** Deletes stored files (a missing one, or none, is fine). */
export async function removeStoredFiles(...storedNames: (string | null | undefined)[]): Promise<void> {
  const store = await fileStore();
  for (const name of storedNames) if (name) await store.remove(name);
}

/** A cover and every variant the storefront's srcset names. */
export function coverFileNames(storedName: string): string[] {
  return [storedName, ...COVER_WIDTHS.map((width) => coverVariantName(storedName, width))];
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
