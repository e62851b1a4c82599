// Types of stop-together.mjs, for the TypeScript scripts that use it.
export const STOP_SIGNALS: readonly NodeJS.Signals[];
export function stopTogether(stop: (signal: NodeJS.Signals) => void): void;
export function diesWithThisProcess(command: string, args: string[]): [string, string[]];
