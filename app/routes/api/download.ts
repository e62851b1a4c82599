import { apiError, jsonApi, apiJson } from "~/server/http/json-api.server";
import { downloadPage } from "~/server/orders/customer/downloads.server";

/** The spec's download page object. */
export const loader = jsonApi({
  GET({ params }) {
    const page = downloadPage(params.id ?? "");
    const noStore = { "Cache-Control": "no-store" };
    if (!page)
      return apiError(404, "ダウンロードページが見つからないか、有効期限が切れています", {
        headers: noStore,
      });
    return apiJson(
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
          athleteName: line.athleteName,
          style: line.style,
          price: line.price,
        })),
      },
      { headers: noStore },
    );
  },
});
export const action = loader;
