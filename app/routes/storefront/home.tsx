import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import defaultBanner from "~/assets/home-banner.svg?url&no-inline";
import { ContestCard } from "~/routes/storefront/ContestCard";
import { listStorefrontContests } from "~/server/catalog/contests.server";
import { env } from "~/server/core/env.server";
import { homeBanner } from "~/server/media/home-banner.server";
import { useIsPending } from "~/lib/hooks/use-is-pending";

export const meta: MetaFunction = () => [
  { title: "コンテスト動画ショップ | 大会・発表会の動画販売" },
  {
    name: "description",
    content: "大会・発表会・運動会の出場者ごとの動画を、スマートフォンから簡単にご注文いただけます。",
  },
];

export function loader() {
  const { HOME_BANNER_IMAGE, HOME_BANNER_ALT } = env();
  return {
    contests: listStorefrontContests(),
    banner: homeBanner(HOME_BANNER_IMAGE, HOME_BANNER_ALT, defaultBanner),
  };
}

export default function Home() {
  const { contests, banner } = useLoaderData<typeof loader>();
  const loading = useIsPending({ state: "loading" });
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-10">
      <section className="overflow-hidden rounded-2xl bg-zinc-900 text-white">
        {/* The box keeps the banner's shape before it loads (no layout shift); a photo of another shape is cropped to it. */}
        <img
          src={banner.src}
          srcSet={banner.srcSet ?? undefined}
          sizes={banner.srcSet ? "(min-width: 1152px) 1120px, calc(100vw - 2rem)" : undefined}
          alt={banner.alt}
          width={1600}
          height={600}
          fetchPriority="high"
          decoding="async"
          className="aspect-[2/1] w-full bg-zinc-800 object-cover object-top sm:aspect-[3/1] lg:aspect-[4/1]"
        />
        <div className="bg-gradient-to-br from-zinc-900 via-zinc-900 to-brand-800 px-5 py-6 sm:px-10 sm:py-8">
          <p className="text-sm font-semibold tracking-widest text-brand-100">CONTEST VIDEO</p>
          <h1 className="mt-2 text-2xl leading-tight font-bold sm:text-4xl">
            大切な舞台を、
            <br className="sm:hidden" />
            ひとりずつの動画に。
          </h1>
          <p className="mt-3 max-w-xl text-sm text-zinc-200 sm:text-base">
            出場者ごとに編集した動画を、ご注文から2〜3営業日でお届けします。縦型・横型からお選びいただけます。
          </p>
        </div>
      </section>

      <h2 className="mt-10 mb-4 text-xl font-bold">販売中の大会</h2>
      {loading ? (
        <p role="status" className="py-10 text-center text-zinc-500">
          読み込み中...
        </p>
      ) : contests.length === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 bg-white py-12 text-center text-zinc-600">
          現在公開中の大会はありません
        </p>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {contests.map((contest, index) => (
            <ContestCard key={contest.id} contest={contest} eager={index < 2} />
          ))}
        </ul>
      )}
    </div>
  );
}
