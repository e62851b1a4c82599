import { Link } from "@remix-run/react";

/** The order form's top, with or without its 合言葉 entered: where it is, and the contest's name. */
export function OrderFormHeading({ contestName }: { contestName: string }) {
  return (
    <>
      <nav className="text-sm text-zinc-500">
        <Link to="/" className="hover:underline">
          ホーム
        </Link>{" "}
        / 注文フォーム
      </nav>
      <h1 className="mt-2 text-2xl font-bold">{contestName}</h1>
    </>
  );
}
