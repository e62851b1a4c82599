// /registration-complete shows the same page as /registration-success.
export { default, loader, meta } from "./registration-success";
