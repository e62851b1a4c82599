/**
 * The current time, injectable so tests can move past expiries and lockouts
 * without waiting. Production always uses the real clock.
 */
let override: (() => number) | null = null;

export function now(): Date {
  return new Date(override ? override() : Date.now());
}

export function setClock(next: (() => number) | null): void {
  override = next;
}
