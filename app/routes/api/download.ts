import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadPage } from "~/server/orders/downloads.server";

/** The spec's download page object. */
export function loader({ params }: LoaderFunctionArgs) {
  const page = downloadPage(params.id ?? "");
  if (!page)
    return Response.json(
      { error: "ダウンロードページが見つからないか、有効期限が切れています" },
      { status: 404, headers: { "Cache-Control": "no-store" } },
    );
  return Response.json(
    {
      orderNumber: page.orderNumber,
      createdAt: page.createdAt,
      expiresAt: page.expiresAt,
      expired: page.expired,
      orders: page.lines.map((line) => ({
        id: line.id,
        contestName: line.contestName,
        category: line.category,
        athleteNumber: line.athleteNumber,
        style: line.style,
        price: line.price,
      })),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
