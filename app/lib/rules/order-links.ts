/**
 * The order status page's path (注文状況, `/orders/:statusToken`): for links inside the shop
 * (payment complete, purchase history) and, through `siteUrl`, for mails. Made here, and only here.
 */
export function orderStatusPath(token: string): string {
  return `/orders/${token}`;
}
