import { SettingsSection } from "./SettingsSection";

/** 会場用チラシ: the A4 PDF to print for the venue, made from the settings as saved. */
export function FlyerSection({ contestId, hasAccessCode }: { contestId: number; hasAccessCode: boolean }) {
  return (
    <SettingsSection
      id="flyer"
      title="会場用チラシ"
      description={
        <>
          注文ページの QR コード、{hasAccessCode ? "合言葉、" : ""}受付の開始と価格を載せた A4 の PDF
          です。保存済みの設定で作ります。
          {hasAccessCode ? null : "合言葉を設定すると、チラシにも載ります。"}
        </>
      }
    >
      <a href={`/admin/contest/${contestId}/flyer.pdf`} download className="btn-secondary">
        チラシ（PDF）をダウンロード
      </a>
    </SettingsSection>
  );
}
