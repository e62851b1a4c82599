/**
 * A process-wide value, made on first use and kept on globalThis, so the dev server's reloads of
 * a module reuse it (one database connection, one metrics registry, one timer per loop) instead
 * of making a second. After the Epic Stack's `singleton`. A value a module replaces or clears
 * (a timer stopped, a test's database) lives in a remembered holder object whose fields change.
 */
const remembered = ((globalThis as { __shopRemembered?: Record<string, unknown> }).__shopRemembered ??= {});

export function remember<T>(name: string, make: () => T): T {
  remembered[name] ??= make();
  return remembered[name] as T;
}
