/**
 * A short Japanese name for the device and browser behind a User-Agent, for the account page's
 * list of logged-in devices: enough for a parent to tell "my iPhone" from "the PC at work".
 */
export function deviceLabel(userAgent: string | null): string {
  if (!userAgent) return "不明な端末";
  const device = /iPhone/.test(userAgent)
    ? "iPhone"
    : /iPad/.test(userAgent)
      ? "iPad"
      : /Android/.test(userAgent)
        ? "Android"
        : /Windows/.test(userAgent)
          ? "Windows"
          : /Mac OS X|Macintosh/.test(userAgent)
            ? "Mac"
            : /Linux|CrOS/.test(userAgent)
              ? "パソコン"
              : "不明な端末";
  // Order matters: Edge and Chrome also say "Safari", Edge also says "Chrome".
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /(Chrome|CriOS)\//.test(userAgent)
      ? "Chrome"
      : /(Firefox|FxiOS)\//.test(userAgent)
        ? "Firefox"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : null;
  return browser ? `${device}・${browser}` : device;
}
