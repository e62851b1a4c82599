import type { MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { ContestCard } from "~/routes/storefront/ContestCard";
import { listStorefrontContests } from "~/server/catalog/contests.server";

export const meta: MetaFunction = () => [
  { title: "コンテスト動画ショップ | 大会・発表会の動画販売" },
  {
    name: "description",
    content: "大会・発表会・運動会の出場者ごとの動画を、スマートフォンから簡単にご注文いただけます。",
  },
];

export function loader() {
  return { contests: listStorefrontContests() };
}

export default function Home() {
  const { contests } = useLoaderData<typeof loader>();
  const loading = useNavigation().state === "loading";
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-10">
      <section className="overflow-hidden rounded-2xl bg-gradient-to-br from-zinc-900 via-zinc-800 to-brand-800 px-5 py-8 text-white sm:px-10 sm:py-12">
        <p className="text-sm font-semibold tracking-widest text-brand-100">CONTEST VIDEO</p>
        <h1 className="mt-2 text-2xl leading-tight font-bold sm:text-4xl">
          大切な舞台を、
          <br className="sm:hidden" />
          ひとりずつの動画に。
        </h1>
        <p className="mt-3 max-w-xl text-sm text-zinc-200 sm:text-base">
          出場者ごとに編集した動画を、ご注文から2〜3営業日でお届けします。縦型・横型からお選びいただけます。
        </p>
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
