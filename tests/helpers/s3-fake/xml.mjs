// The little XML S3 speaks: answers written as nested elements, and the one request body the
// shop sends (CompleteMultipartUpload's list of parts) read back.

const S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/**
 * One element: text content (escaped), or child elements already written (an array; nulls are
 * left out, so optional elements can be written as `condition ? element(…) : null`).
 * @param {string} name
 * @param {string | number | boolean | (string | null)[]} content
 */
export function element(name, content) {
  const inner = Array.isArray(content) ? content.filter((child) => child !== null).join("") : escape(content);
  return `<${name}>${inner}</${name}>`;
}

/** A whole answer: the declaration and the root element, in S3's namespace (error answers have none). */
export function xmlDocument(root, { namespaced: inNamespace = true } = {}) {
  const namespaced = inNamespace ? root.replace(/^<(\w+)>/, `<$1 xmlns="${S3_NAMESPACE}">`) : root;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${namespaced}`;
}

const unescape = (text) =>
  text.replace(/&(amp|lt|gt|quot|apos|#(\d+)|#x([0-9a-fA-F]+));/g, (_, name, dec, hex) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[name];
  });

/**
 * The parts a CompleteMultipartUpload names, in the order given; null when the body is not that
 * document (S3 answers MalformedXML).
 * @param {string} body
 * @returns {{ partNumber: number, etag: string }[] | null}
 */
export function completedParts(body) {
  if (!/<CompleteMultipartUpload[\s>]/.test(body)) return null;
  const parts = [];
  for (const [, part] of body.matchAll(/<Part>([\s\S]*?)<\/Part>/g)) {
    const number = /<PartNumber>\s*(\d+)\s*<\/PartNumber>/.exec(part);
    const etag = /<ETag>([\s\S]*?)<\/ETag>/.exec(part);
    if (!number || !etag) return null;
    parts.push({ partNumber: Number(number[1]), etag: unescape(etag[1]).trim() });
  }
  return parts.length > 0 ? parts : null;
}

/**
 * A request's XML body, read whole (S3 takes at most 10,000 parts or 1,000 keys: well under
 * 2 MiB); null when it is bigger, which S3 answers as MalformedXML.
 */
export async function readXmlBody(req, limit = 2 * 1024 * 1024) {
  const pieces = [];
  let size = 0;
  for await (const piece of req) {
    size += piece.length;
    if (size > limit) return null;
    pieces.push(piece);
  }
  return Buffer.concat(pieces).toString("utf8");
}

/**
 * The keys a DeleteObjects request names, and whether it asks for a quiet answer; null when the
 * body is not that document.
 * @param {string} body
 * @returns {{ keys: string[], quiet: boolean } | null}
 */
export function keysToDelete(body) {
  if (!/<Delete[\s>]/.test(body)) return null;
  const keys = [];
  for (const [, object] of body.matchAll(/<Object>([\s\S]*?)<\/Object>/g)) {
    const key = /<Key>([\s\S]*?)<\/Key>/.exec(object);
    if (!key) return null;
    keys.push(unescape(key[1]));
  }
  const quiet = /<Quiet>\s*true\s*<\/Quiet>/i.test(body);
  return keys.length > 0 ? { keys, quiet } : null;
}
