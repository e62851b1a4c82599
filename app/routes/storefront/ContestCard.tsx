import { Link } from "@remix-run/react";
import { formatDateTime } from "~/lib/rules/format";
import { contestSlug } from "~/lib/rules/slug";

export type ContestCardData = {
  id: number;
  name: string;
  onSale: boolean;
  salesStartAt: string | Date | null;
  cover: { src: string; srcSet: string; width: number; height: number } | null;
  accessCodeRequired?: boolean;
};

/** One contest on the home page. The first cards load eagerly (above the fold on a phone), the rest lazily. */
export function ContestCard({ contest, eager }: { contest: ContestCardData; eager: boolean }) {
  return (
    <li className="flex flex-col overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-sm">
      <div className="relative aspect-video bg-zinc-100">
        {contest.cover ? (
          <img
            src={contest.cover.src}
            srcSet={contest.cover.srcSet}
            sizes="(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw"
            width={contest.cover.width}
            height={contest.cover.height}
            alt={`${contest.name}のカバー画像`}
            loading={eager ? "eager" : "lazy"}
            fetchPriority={eager ? "high" : "auto"}
            decoding="async"
            className="h-full w-full object-cover"
          />
        ) : (
          <div className="flex h-full w-full items-center justify-center text-sm text-zinc-500">
            カバー画像なし
          </div>
        )}
        <span className="absolute top-0 left-0 bg-brand-600 px-3 py-1 text-xs font-bold tracking-wider text-white shadow">
          動画販売
        </span>
      </div>
      <div className="flex flex-1 flex-col gap-4 p-4">
        <h2 className="text-lg leading-snug font-bold">{contest.name}</h2>
        {contest.accessCodeRequired ? (
          <p className="text-sm text-zinc-600">ご注文には、会場でお配りした合言葉が必要です。</p>
        ) : null}
        {contest.onSale ? (
          <Link
            to={`/order-form/${encodeURIComponent(contestSlug(contest.name))}`}
            className="mt-auto btn-primary w-full"
          >
            注文を開始する
          </Link>
        ) : (
          <div className="mt-auto">
            {contest.salesStartAt ? (
              <p className="mb-2 text-sm text-zinc-600">
                販売開始: {formatDateTime(new Date(contest.salesStartAt))}
              </p>
            ) : null}
            <button type="button" disabled className="btn-primary w-full">
              注文を開始する
            </button>
          </div>
        )}
      </div>
    </li>
  );
}
