import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { StaticPage } from "~/components/StaticPage";
import { TermLines } from "~/components/PaymentTermsText";
import { shopPaymentTerms } from "~/server/core/payment-terms.server";
import { sellerInfo } from "~/server/core/seller.server";

export const meta: MetaFunction = () => [
  { title: "当サイトについて | コンテスト動画ショップ" },
  {
    name: "description",
    content:
      "コンテスト動画ショップは、ダンス発表会・運動会・スポーツ大会・学園祭・舞台公演などの映像から、出場者おひとりずつの動画を制作してお届けするオンラインショップです。ご注文の流れやお届け方法をご案内します。",
  },
];

export function loader() {
  return { seller: sellerInfo(), terms: shopPaymentTerms() };
}

export default function AboutPage() {
  const { seller, terms } = useLoaderData<typeof loader>();
  return (
    <StaticPage
      title="当サイトについて"
      lead="コンテスト動画ショップは、大会や発表会で撮影した映像から、出場者おひとりずつの動画を制作してお届けするオンラインショップです。"
    >
      <h2>コンテスト動画ショップとは</h2>
      <p>
        ダンスの発表会、運動会・スポーツ大会、学園祭、舞台公演など、さまざまな大会・催しで当店が撮影した映像をもとに、ご指定の選手（出場者）を中心に編集した動画を制作・販売しています。
        ご家族の晴れ舞台を、いつでも見返せる形で残していただけます。
      </p>
      <p>
        動画はご注文をいただいてから制作する受注制作品です。スマートフォンからでも、数分でご注文いただけます。
      </p>

      <h2>動画の形式</h2>
      <p>
        動画は、次の2つの形式からお選びいただけます。選手・形式ごとの価格は、各大会のページでご確認ください（表示価格はすべて税込です）。
      </p>
      <ul>
        <li>
          <strong>縦型</strong>
          ：スマートフォンの画面いっぱいに表示される縦長の動画です。スマートフォンでの視聴におすすめです。
        </li>
        <li>
          <strong>横型</strong>：テレビやパソコンでの視聴に適した、一般的な横長の動画です。
        </li>
      </ul>
      <p>ファイル形式はいずれも MP4 です。MP4 が再生できるスマートフォン・パソコンでご覧いただけます。</p>

      <h2>ご注文の流れ</h2>
      <ol>
        <li>
          <strong>大会を選ぶ</strong>：<Link to="/">トップページ</Link>
          の「販売中の大会」から、ご希望の大会をお選びください。
        </li>
        <li>
          <strong>選手を探す</strong>：カテゴリやゼッケン番号などから、ご注文になる選手をお探しください。
        </li>
        <li>
          <strong>形式を選ぶ</strong>
          ：縦型・横型のうち、ご希望の形式をお選びください。大会ページにサンプル動画がある場合は、仕上がりのイメージをご確認いただけます。
        </li>
        <li>
          <strong>メールアドレスの確認</strong>
          ：お名前とメールアドレスをご入力ください。ご入力のメールアドレスに6桁の確認コードをお送りしますので、画面に入力してください。
        </li>
        <li>
          <strong>お支払い</strong>：{terms.methodDetails.join("、または")}
          でお支払いください。ご注文確認メールをお送りします。
          <TermLines lines={terms.paymentTiming} />
        </li>
        <li>
          <strong>動画のお届け</strong>：
          <TermLines lines={terms.delivery} />
        </li>
        <li>
          <strong>ダウンロード</strong>
          ：メールに記載のURLからダウンロードページを開き、動画をお使いの端末に保存してください。
        </li>
      </ol>
      <p>
        ご注文の際に会員登録をしていただくと、次回からのログインや購入履歴の確認が簡単になります。会員登録をしなくてもご注文いただけます。
      </p>

      <h2>お届けについて</h2>
      <ul>
        <li>動画はダウンロードでのお届けです。DVD などの郵送によるお届けは行っておりません。</li>
        <li>
          ダウンロードページの有効期限は、ダウンロード用のURLをお送りしてから
          <strong>{seller.downloadExpiryDays}日間</strong>です。期限内にダウンロードしてください。
        </li>
        <li>
          <strong>各動画のダウンロードは1回限り</strong>です。Wi-Fi
          など安定した通信環境で、端末の空き容量を確認してからダウンロードしてください。
        </li>
        <li>ダウンロードした動画は、お客様ご自身でバックアップをお取りいただくことをおすすめします。</li>
        <li>
          ダウンロードが途中で止まってしまった場合や、ファイルに不具合がある場合は、
          <Link to="/contact">お問い合わせ</Link>ください。確認のうえ、再納品いたします。
        </li>
      </ul>
      <p>
        営業日は、当店の営業時間（{seller.hours}
        ）に準じます。大会の規模や編集の状況により、お届けが遅れる場合はメールでお知らせします。
      </p>

      <h2>お支払いと料金</h2>
      <p>{terms.offer}</p>
      <p>
        お支払いには {seller.paymentProvider}{" "}
        の決済サービスを利用しており、お支払いに必要な情報は同社が直接受け取ります（当店のサーバーを通らず、当店が保存することもありません）。
      </p>

      <h2>ご注文前にご確認ください</h2>
      <ul>
        <li>
          デジタル商品のため、ご注文確定後のキャンセル・返品はお受けできません。選手名・形式をよくご確認のうえご注文ください。
        </li>
        {terms.unpaid ? <li>{terms.unpaid}</li> : null}
        <li>
          {terms.refusal}
          {terms.defects}
        </li>
        <li>
          購入された動画は、ご家族などでの私的なご視聴に限ってご利用いただけます。SNS・動画共有サイトへの投稿や、第三者への配布・販売はご遠慮ください。
        </li>
      </ul>
      <p>
        詳しくは<Link to="/terms">利用規約</Link>をご覧ください。
      </p>

      <h2>運営者・お問い合わせ</h2>
      <p>
        当サイトは {seller.name} が運営しています。運営者の詳しい情報は
        <Link to="/legal-notice">特定商取引法に基づく表記</Link>
        を、個人情報の取扱いについては<Link to="/privacy">プライバシーポリシー</Link>をご覧ください。
      </p>
      <p>
        ご不明な点は、<a href={`mailto:${seller.email}`}>{seller.email}</a>{" "}
        までお気軽にお問い合わせください（受付時間：{seller.hours}）。お問い合わせの方法は
        <Link to="/contact">お問い合わせページ</Link>で、メールが届かない場合の対処方法は
        <Link to="/email-support">メールが届かない場合</Link>
        のページでご案内しています。
      </p>
    </StaticPage>
  );
}
