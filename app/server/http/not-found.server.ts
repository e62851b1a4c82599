/**
 * The shop's one 404 for pages and resource routes: a plain "Not Found" body. A page
 * that throws it shows its error boundary (大会が見つかりません, Page Not Found);
 * a resource route answers it as it is. The JSON API answers its own 404 bodies.
 */
export function notFoundResponse(message = "Not Found"): Response {
  return new Response(message, { status: 404 });
}

/** Stops a loader or action with the 404. */
export function notFound(message?: string): never {
  throw notFoundResponse(message);
}
