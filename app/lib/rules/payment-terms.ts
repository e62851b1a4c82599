import { KONBINI_STORES } from "./konbini-steps";

/**
 * What the shop's legal texts say about paying, from one source: the final-confirmation box
 * (特定商取引法 第12条の6), 特定商取引法に基づく表記, the terms, the privacy policy and the pages
 * that explain ordering all read it, so they always name exactly the methods `/payment` offers
 * (PAYMENT_METHODS), each with its own timing, and the refunds the shop actually makes (お断り
 * and defects, by the way the customer paid). Pure: the server hands it the shop's settings.
 */

export const PAYMENT_METHODS = ["card", "konbini"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The name every text gives a method. */
export const PAYMENT_METHOD_NAMES: Record<PaymentMethod, string> = {
  card: "クレジットカード",
  konbini: "コンビニ払い",
};

export type PaymentTermsSettings = {
  methods: readonly PaymentMethod[];
  /** KONBINI_EXPIRES_AFTER_DAYS: the voucher is payable until 23:59 (Japan time) that many days after the order. */
  konbiniDays: number;
  /** DELIVERY_BUSINESS_DAYS: from the payment to the promised delivery day. */
  deliveryDays: number;
  /** Who takes the payments, as the seller's details name it. */
  paymentProvider: string;
};

/**
 * Facts that differ by method are lists of lines, one per enabled method, each starting with its
 * name, so a text never leaves a reader guessing which method a timing belongs to.
 */
export type PaymentTerms = {
  methods: readonly PaymentMethod[];
  /** 「クレジットカード・コンビニ払い」: the methods in a running sentence. */
  methodNames: string;
  /** Each method with its brands or stores. */
  methodDetails: string[];
  /** お支払い時期. */
  paymentTiming: string[];
  /** 引渡時期: when production starts and when the download link comes. */
  delivery: string[];
  /** How business days are counted. */
  businessDays: string;
  /** When the contract is made (terms 第5条). */
  contract: string[];
  /** 申込みの撤回・解除: no change of mind after ordering; an unpaid konbini order ends by itself. */
  cancellation: string[];
  /** What happens to an unpaid konbini order (null without konbini). */
  unpaid: string | null;
  /** お断り: a line the shop cannot make is refunded at its paid price, by the way it was paid. */
  refusal: string;
  /** How a refund reaches the customer, per method. */
  refundWays: string[];
  /** A defective video: re-delivered, or refunded when that cannot be done. */
  defects: string;
  /** お断り and defects in one sentence, for the final-confirmation box (the terms say the rest). */
  refundSummary: string;
  /** What the payment service receives for each method (privacy policy). */
  sharedWithProvider: string[];
  /** A sentence for the pages that explain ordering: what can be used and what it costs. */
  offer: string;
};

const CARD_BRANDS = "Visa、Mastercard、JCB、American Express";

function withinBusinessDays(days: number): string {
  return days === 0 ? "当日（営業日）中" : `${days}営業日以内`;
}

/** The lines of a fact that differs by method, one per enabled method, named. */
function perMethod(methods: readonly PaymentMethod[], line: Record<PaymentMethod, string>): string[] {
  return methods.map((method) => `${PAYMENT_METHOD_NAMES[method]}：${line[method]}`);
}

export function paymentTerms(settings: PaymentTermsSettings): PaymentTerms {
  const { methods, konbiniDays, deliveryDays, paymentProvider } = settings;
  const within = withinBusinessDays(deliveryDays);
  const methodNames = methods.map((method) => PAYMENT_METHOD_NAMES[method]).join("・");
  const unpaid = methods.includes("konbini")
    ? "コンビニ払いのご注文は、お支払い期限までにお支払いがない場合、自動的に取り消されます（料金はかかりません）。"
    : null;
  return {
    methods,
    methodNames,
    methodDetails: methods.map((method) =>
      method === "card" ? `クレジットカード（${CARD_BRANDS}）` : `コンビニ払い（${KONBINI_STORES}）`,
    ),
    paymentTiming: perMethod(methods, {
      card: "ご注文時（カード決済の完了時）にお支払いが確定します。",
      konbini: `ご注文後にお知らせするお支払い期限（ご注文から${konbiniDays}日後の23:59（日本時間））までに、店頭でお支払いください。`,
    }),
    delivery: perMethod(methods, {
      card: `カード決済の完了後に制作を始め、ご注文から${within}にダウンロードURLをメールでお送りします。`,
      konbini: `お支払いの確認後に制作を始め、お支払いの確認から${within}にダウンロードURLをメールでお送りします。`,
    }),
    businessDays: "営業日は、土日祝日および年末年始（12月29日〜1月3日）を除いた日です。",
    contract: perMethod(methods, {
      card: "カード決済が完了した時点で売買契約が成立します。",
      konbini:
        "コンビニ払いのお手続き（お支払い期限のお知らせ）が完了した時点で売買契約が成立します。お支払い期限までにお支払いがない場合、契約は解除されたものとし、ご注文は自動的に取り消されます。",
    }),
    cancellation: [
      "デジタル商品のため、ご注文確定後のキャンセル・返品はできません（お客様のご都合による返金はいたしかねます）。",
      ...(unpaid ? [unpaid] : []),
    ],
    unpaid,
    refusal:
      "撮影状況その他やむを得ない事由により、ご注文の動画を制作できない場合は、その旨をご連絡のうえ、制作できない動画についてお支払いいただいた金額を返金します。",
    refundWays: perMethod(methods, {
      card: "ご利用のクレジットカードへ返金します（カード会社の処理により、ご利用明細への反映まで数日から数週間かかることがあります）。",
      konbini:
        "決済サービスから返金の受け取り方法をメールでご案内し、お客様がご指定の銀行口座へお振り込みします。",
    }),
    defects:
      "ファイルが破損している、再生できない、ご注文と異なる選手または形式の動画が納品された等、商品に当店の責めに帰すべき不具合がある場合は、不具合のない商品を再納品します。再納品が困難な場合は、当該商品の代金を返金します。",
    refundSummary:
      "ご注文の動画を当店の事情で制作できない場合はその分のお支払い額を返金し、商品に不具合がある場合は再納品または返金します（詳しくは利用規約 第9条）。",
    sharedWithProvider: perMethod(methods, {
      card: `カード番号・有効期限・セキュリティコードは、お客様が決済画面に入力され、${paymentProvider}が直接取得します（当店のサーバーを経由せず、当店が取得・保存することはありません）。`,
      konbini:
        "お支払い画面でご入力のお名前・メールアドレス等、お支払い金額とお支払い期限、店頭でのお支払いの状況（お支払いの有無・日時・店舗）。返金の際は、お客様が同社にお知らせになる振込先の口座情報を同社が直接取得します。",
    }),
    offer: `お支払いは、${methodNames}をご利用いただけます。表示価格はすべて消費税込みで、商品代金以外の手数料や送料はかかりません（インターネット接続料金・通信料金はお客様のご負担となります）。`,
  };
}
