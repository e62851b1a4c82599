// /privacy-policy shows the same page as /privacy.
export { default, loader, meta } from "./privacy";
