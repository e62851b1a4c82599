import { orderStatusPath } from "~/lib/rules/order-links";
import { env } from "./env.server";

/** The shop's full address of one of its own paths (`/orders/…`), for mails and links that leave the site. */
export function siteUrl(path: string): string {
  return `${env().SITE_URL}${path}`;
}

/**
 * The order status page's full address, for mails: here, below every folder that mails an order
 * (its creation, its voucher, a refund, an お断り), so none of them imports the page's own module.
 */
export function orderStatusUrl(token: string): string {
  return siteUrl(orderStatusPath(token));
}
