// Types of mint-session.mjs, for the TypeScript tests and scripts that use it.
export function mintSessionCookie(options: {
  databasePath: string;
  secret: string;
  data: Record<string, unknown>;
}): Promise<string>;
