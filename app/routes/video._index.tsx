// /video is the storefront home under the product segment of the spec's /{product} paths.
export { default, loader, meta } from "./_index";
