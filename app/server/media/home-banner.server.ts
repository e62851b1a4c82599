import fs from "node:fs";
import { loadSharp } from "../core/lazy-modules.server";

/**
 * The banner at the top of the home page. The shop's own photo (HOME_BANNER_IMAGE, a JPEG, PNG or
 * WebP file on the server, checked at start-up) is served in a few widths as WebP, so a phone
 * downloads a small one; without it the page shows the drawing shipped with the app.
 */
export const BANNER_WIDTHS = [640, 1280, 1920] as const;
export type BannerWidth = (typeof BANNER_WIDTHS)[number];

/** Alt text of the default drawing; a shop's photo says what it shows with HOME_BANNER_ALT. */
export const DEFAULT_BANNER_ALT = "スポットライトに照らされた、幕の開いたステージのイラスト";
const PHOTO_BANNER_ALT = "コンテスト動画ショップのバナー写真";

export type HomeBanner = { src: string; srcSet: string | null; alt: string };

/** What the home page shows; `defaultSrc` is the drawing's asset URL. */
export function homeBanner(
  file: string | undefined,
  alt: string | undefined,
  defaultSrc: string,
): HomeBanner {
  if (!file) return { src: defaultSrc, srcSet: null, alt: alt ?? DEFAULT_BANNER_ALT };
  // The file's time in the URL: a new photo gets new URLs, so the old one can be cached for a year.
  const version = Math.floor(fs.statSync(file).mtimeMs).toString(36);
  const url = (width: BannerWidth) => `/home-banner/${width}.webp?v=${version}`;
  return {
    src: url(1280),
    srcSet: BANNER_WIDTHS.map((width) => `${url(width)} ${width}w`).join(", "),
    alt: alt ?? PHOTO_BANNER_ALT,
  };
}

export function bannerWidth(value: string | undefined): BannerWidth | null {
  const width = Number(/^(\d+)\.webp$/.exec(value ?? "")?.[1]);
  return BANNER_WIDTHS.find((allowed) => allowed === width) ?? null;
}

const renditions = new Map<string, Promise<Buffer>>();

/** The photo at one of the widths (never enlarged), made once per file version and kept in memory (a few hundred KB in all). */
export function bannerRendition(file: string, width: BannerWidth): Promise<Buffer> {
  const key = `${file}\n${fs.statSync(file).mtimeMs}\n${width}`;
  let rendition = renditions.get(key);
  if (!rendition) {
    rendition = loadSharp().then((sharp) =>
      sharp(file).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer(),
    );
    rendition.catch(() => renditions.delete(key));
    renditions.set(key, rendition);
  }
  return rendition;
}
