import { listStorefrontContests } from "~/server/catalog/contests.server";
import { jsonApi } from "~/server/http/json-api.server";

/** The spec's contest list for clients of the shop: contests visible on the storefront. */
export const loader = jsonApi({
  GET() {
    return Response.json(
      listStorefrontContests().map((contest) => ({
        id: contest.id,
        name: contest.name,
        videoPublished: contest.onSale,
        bibNumberLabel: contest.bibNumberLabel,
        coverImage: contest.cover?.src ?? null,
      })),
      { headers: { "Cache-Control": "public, max-age=30" } },
    );
  },
});
export const action = loader;
