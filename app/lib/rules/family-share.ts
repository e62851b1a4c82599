import { formatDateTime } from "./format";

/**
 * What the parent sends the family with the family link: the words, a LINE share link and a mail
 * the parent's own mail app opens (mailto:). The shop sends nothing itself: it never mails an
 * address a visitor names.
 */

export type FamilyShare = { text: string; line: string; mail: string };

export function familyShare(url: string, expiresAt: Date | number): FamilyShare {
  const until = formatDateTime(expiresAt);
  const text = `大会の動画をスマホやパソコンで見られます（${until}まで・再生のみ）\n${url}`;
  const subject = "大会の動画を見られるリンクです";
  // RFC 6068: a mailto body's line breaks are CRLF, every character percent-encoded.
  const body = [
    "大会の動画を、下のリンクから見られます。",
    "",
    url,
    "",
    `再生のみで、保存はできません。${until}まで見られます。`,
  ].join("\r\n");
  return {
    text,
    line: `https://line.me/R/share?text=${encodeURIComponent(text)}`,
    mail: `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`,
  };
}
