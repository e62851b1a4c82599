/** The shop's name as parents see it: the header, mails, the authenticator app, printed flyers. */
export const SHOP_NAME = "コンテスト動画ショップ";
