// Preloaded (`--import`) into a worker thread that runs a TypeScript file of the sources: the
// snapshot's copy (app/server/backups/snapshot.server.ts) under vitest, `npm run dev` and the
// scripts run with tsx. The built server runs the compiled thread (server-build/) and never this.
// tsx's own `--import tsx` registers its loader in the main thread only on Node 20 (in workers
// from Node 22.14), so the thread registers it here itself, the same on every Node.
import { register } from "tsx/esm/api";

register();
