/**
 * What a refusal by a rate limit tells the customer, one wording per meaning, so every page that
 * sends codes says it alike and every page that mails a link says it alike. The address's own
 * cap on codes, which says until when, is addressCapMessage (code-mail.server.ts).
 */
export const LIMIT_MESSAGES = {
  /** Too many codes (or passwords) sent from here: 送信 is what the customer did. */
  tooManySends: "送信回数の上限に達しました。しばらく時間をおいてから再度お試しください。",
  /**
   * Too many requests for a mailed link (password reset, order lookup): the request is what the
   * customer made, and the answer must not say whether anything would have been mailed.
   */
  tooManyRequests: "お申し込みの回数が上限に達しました。しばらく時間をおいてから再度お試しください。",
} as const;
