// Sizes the storefront needs without the upload schemas (importing those brings zod, 12 KiB
// of gzip JavaScript, into the order form).

/** A thumbnail is exactly this many pixels wide and high. */
export const THUMBNAIL_PIXELS = 1080;
