/**
 * `Content-Disposition: attachment` for a file with a Japanese name: `filename` (ASCII only) for
 * old clients, `filename*` (RFC 5987, UTF-8) for the rest, which shows the Japanese name.
 * Characters a file name cannot hold on Windows or macOS become "_".
 */
export function attachmentDisposition(asciiName: string, name: string): string {
  const safe = name.replace(/[\\/:*?"<>|\p{Cc}]/gu, "_");
  return `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeRfc5987(safe)}`;
}

/** encodeURIComponent leaves ' ( ) * as they are; RFC 5987's attr-char does not allow them. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
