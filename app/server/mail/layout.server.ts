import { env } from "../core/env.server";
import { SHOP_NAME } from "~/lib/rules/shop";

/** A rendered mail: one Japanese subject, a plain-text body and the same content as HTML. */
export type RenderedMail = { subject: string; text: string; html: string };

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/** A paragraph of the body: plain lines, or a highlighted block (a code, a total, a link). */
export type MailBlock =
  { text: string } | { highlight: string } | { link: string; label: string } | { table: [string, string][] };

/**
 * Renders blocks into the text and HTML bodies, with the shop's signature, so every
 * mail looks alike and no template can forget to escape what a customer typed.
 */
export function renderMail(subject: string, greeting: string, blocks: MailBlock[]): RenderedMail {
  const { SELLER_NAME, SELLER_EMAIL, SITE_URL } = env();
  const signature = [`${SHOP_NAME}（${SELLER_NAME}）`, `お問い合わせ: ${SELLER_EMAIL}`, SITE_URL];

  const textParts = [greeting, ""];
  const htmlParts = [`<p>${escapeHtml(greeting)}</p>`];
  for (const block of blocks) {
    if ("text" in block) {
      textParts.push(block.text, "");
      htmlParts.push(`<p>${escapeHtml(block.text).replace(/\n/g, "<br>")}</p>`);
    } else if ("highlight" in block) {
      textParts.push(`  ${block.highlight}`, "");
      htmlParts.push(
        `<p style="font-size:24px;font-weight:bold;letter-spacing:4px;background:#f4f4f5;padding:12px 16px;border-radius:8px;display:inline-block">${escapeHtml(block.highlight)}</p>`,
      );
    } else if ("link" in block) {
      textParts.push(`${block.label}: ${block.link}`, "");
      htmlParts.push(
        `<p><a href="${escapeHtml(block.link)}" style="color:#b91c1c">${escapeHtml(block.label)}</a><br><span style="font-size:12px;color:#555">${escapeHtml(block.link)}</span></p>`,
      );
    } else {
      for (const [label, value] of block.table) textParts.push(`${label}: ${value}`);
      textParts.push("");
      const rows = block.table
        .map(
          ([label, value]) =>
            `<tr><th style="text-align:left;padding:4px 12px 4px 0;color:#555;font-weight:normal">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
        )
        .join("");
      htmlParts.push(`<table style="border-collapse:collapse">${rows}</table>`);
    }
  }
  textParts.push("――――――――――――", ...signature);
  htmlParts.push(
    `<hr style="border:none;border-top:1px solid #ddd"><p style="font-size:12px;color:#555">${signature.map(escapeHtml).join("<br>")}</p>`,
  );

  return {
    subject: `【${SHOP_NAME}】${subject}`,
    text: textParts.join("\n"),
    html: `<!doctype html><html lang="ja"><body style="font-family:sans-serif;line-height:1.7;color:#18181b">${htmlParts.join("\n")}</body></html>`,
  };
}
