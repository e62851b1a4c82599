import { versionCache } from "../db/version-cache.server";

/**
 * What every visitor sees alike (the home page's contests, a contest's order-form options, its
 * samples), read from the database once and kept in memory until the catalogue changes: in the
 * hour after a recital hundreds of parents open the same order form, and its six queries were a
 * third of the page's CPU (`npm run bench:profile`).
 *
 * Triggers count every write to the catalogue's tables in `catalogue_version` (migration 0013);
 * see version-cache.server.ts. What depends on the time (whether a contest is on sale yet) is
 * decided per request from the kept rows, never kept itself.
 */
const catalogue = versionCache("catalogue_version", 1_000);

/** The value kept under `key` while the catalogue is unchanged, read by `read` when it is not kept. */
export const catalogueCached = catalogue.cached;

/** The catalogue's write count: part of the key of anything kept elsewhere that shows catalogue rows. */
export const catalogueVersion = catalogue.version;
