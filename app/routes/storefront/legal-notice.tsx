import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FactTable, StaticPage } from "~/components/StaticPage";
import { TermLines } from "~/components/PaymentTermsText";
import { shopPaymentTerms } from "~/server/core/payment-terms.server";
import { sellerInfo } from "~/server/core/seller.server";

export const meta: MetaFunction = () => [
  { title: "特定商取引法に基づく表記 | コンテスト動画ショップ" },
  {
    name: "description",
    content:
      "コンテスト動画ショップの特定商取引法に基づく表記です。販売業者、所在地、連絡先、販売価格、支払方法、引渡時期、返品・キャンセルについて記載しています。",
  },
];

export function loader() {
  return { seller: sellerInfo(), terms: shopPaymentTerms() };
}

/** A phone number becomes a tel: link; the default "disclosed on request" sentence stays text. */
function phoneValue(phone: string) {
  const digits = phone.replace(/[\s()-]/g, "");
  return /^\+?\d{6,15}$/.test(digits) ? <a href={`tel:${digits}`}>{phone}</a> : phone;
}

export default function LegalNoticePage() {
  const { seller, terms } = useLoaderData<typeof loader>();
  return (
    <StaticPage title="特定商取引法に基づく表記" updated="2026年11月27日">
      <FactTable
        rows={[
          ["販売業者", seller.name],
          ["運営統括責任者", seller.manager],
          ["所在地", seller.address],
          ["電話番号", phoneValue(seller.phone)],
          ["メールアドレス", <a href={`mailto:${seller.email}`}>{seller.email}</a>],
          ["営業時間", seller.hours],
          ["サイト名", "コンテスト動画ショップ"],
          ["URL", <a href={seller.siteUrl}>{seller.siteUrl}</a>],
          ["販売価格", "各商品ページ・注文画面に税込価格で表示しています。"],
          ["商品代金以外の必要料金", "なし。インターネット接続料金・通信料金はお客様のご負担となります。"],
          ["支払方法", <TermLines lines={terms.methodDetails} />],
          ["支払時期", <TermLines lines={terms.paymentTiming} />],
          ["引渡時期", <TermLines lines={[...terms.delivery, terms.businessDays]} />],
          [
            "引渡方法",
            "メールでお知らせするダウンロードページから、動画ファイル（MP4 形式）をダウンロードしていただきます。各動画のダウンロードは1回限りです。",
          ],
          ["ダウンロード有効期限", `ダウンロードURLをお送りしてから${seller.downloadExpiryDays}日間`],
          ["返品・キャンセル", <TermLines lines={[...terms.cancellation, terms.defects]} />],
          ["返金", <TermLines lines={[terms.refusal, ...terms.refundWays]} />],
          ["動作環境", "MP4 形式の動画が再生できるスマートフォン・パソコン"],
        ]}
      />
      <p className="mt-6">
        ご利用条件の詳細は<Link to="/terms">利用規約</Link>を、個人情報の取扱いについては
        <Link to="/privacy">プライバシーポリシー</Link>
        をご覧ください。ご質問は<Link to="/contact">お問い合わせ</Link>ページから承っております。
      </p>
    </StaticPage>
  );
}
