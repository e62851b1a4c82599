// The older address of the confirmation page shows the same page.
export { action, default, loader, meta } from "./order-confirmation";
