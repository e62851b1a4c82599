import { Form, Link } from "@remix-run/react";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import type { OpenOrder } from "~/server/delivery/plan/open-orders.server";
import { NothingToDeliver, WithoutVideoNotes } from "./PlanNotes";

type Tone = "good" | "warn" | "bad" | "plain";

const TONE_COLORS: Record<Tone, string> = {
  good: "text-emerald-700",
  warn: "text-amber-700",
  bad: "text-red-700",
  plain: "text-zinc-900",
};

function Count({ label, value, tone }: { label: string; value: number; tone: Tone }) {
  return (
    <div className="rounded-xl border border-zinc-200 px-3 py-2">
      <dt className="text-xs text-zinc-600">{label}</dt>
      <dd className={`text-2xl font-bold ${TONE_COLORS[tone]}`}>{value}</dd>
    </div>
  );
}

/**
 * The tab's head: how it matches, the counts, and 一括納品 with what it will do: the lines it
 * sends no video for, and the orders with no video at all, closed only when ticked.
 */
export function DeliverySummary({
  contestId,
  numberLabel,
  counts,
  ready,
  nothingToDeliver,
  replacing,
  failedFiles,
}: {
  contestId: number;
  numberLabel: string;
  counts: { ready: number; incomplete: number; ambiguous: number; unmatched: number };
  /** The orders 一括納品 delivers (those with お断り or refunded lines are named with them). */
  ready: OpenOrder[];
  /** Orders with no video to send: a warning, and a box to tick for each. */
  nothingToDeliver: OpenOrder[];
  replacing: number;
  /** Files whose poster or phone version failed: the reason is on their row. */
  failedFiles: number;
}) {
  const delivering = useIsPending({ intent: "deliver-all" });
  return (
    <section aria-labelledby="delivery-summary" className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
      <h2 id="delivery-summary" className="text-lg font-bold">
        納品ファイル
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        編集済みの動画をまとめてアップロードすると、ファイル名の{numberLabel}とスタイル（例: 12_縦.mp4、No12
        横.mov）から注文に割り当てます。同じ選手・スタイルを注文したご家族には同じファイルが届きます。内容を確認してから「一括納品」を押してください。
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <Count label="納品できる注文" value={counts.ready} tone="good" />
        <Count
          label="ファイル待ちの注文"
          value={counts.incomplete}
          tone={counts.incomplete ? "warn" : "plain"}
        />
        <Count label="要確認のファイル" value={counts.ambiguous} tone={counts.ambiguous ? "warn" : "plain"} />
        <Count
          label="照合できないファイル"
          value={counts.unmatched}
          tone={counts.unmatched ? "bad" : "plain"}
        />
      </dl>
      <Form method="post" className="mt-5 space-y-3">
        <input type="hidden" name="intent" value="deliver-all" />
        <WithoutVideoNotes orders={ready} numberLabel={numberLabel} />
        <NothingToDeliver orders={nothingToDeliver} />
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="submit"
            className="btn-primary"
            disabled={delivering || (counts.ready === 0 && replacing === 0 && nothingToDeliver.length === 0)}
          >
            {delivering ? "納品中..." : `一括納品（${counts.ready} 件の注文）`}
          </button>
          <p className="text-sm text-zinc-600">
            ファイルがそろった注文だけを納品し、お客様に納品メールを 1 通ずつ送ります。
            {replacing ? `差し替えファイル ${replacing} 件も反映します。` : ""}
          </p>
        </div>
      </Form>
      {failedFiles > 0 ? (
        <p className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          処理に失敗したファイルが {failedFiles}{" "}
          件あります。一括納品の前に、下の一覧で理由を確認してください（元の動画が見つからない場合は差し替えてください）。
        </p>
      ) : null}
      <p className="mt-3 text-sm">
        <Link to={`/admin/orders?contest=${contestId}`} className="text-brand-700 underline">
          この大会の注文一覧
        </Link>
      </p>
    </section>
  );
}
