/**
 * The thread a snapshot's copy runs in (snapshot.server.ts starts one per snapshot), so pages keep
 * answering meanwhile: better-sqlite3 blocks the thread it runs on, and VACUUM INTO of a
 * 100k-order database takes seconds. It copies as its workerData asks (copyDatabase), posts the
 * answer and ends; a failure reaches the server as the worker's error. Its own entry of the
 * server's build (scripts/build-server.mjs: server-build/database-copy-thread.js).
 */
import { parentPort, workerData } from "node:worker_threads";
import { copyDatabase, type CopyRequest, type DatabaseCheck } from "./database-copy.server";

if (!parentPort) throw new Error("database-copy-thread はワーカースレッドとして起動してください（snapshot.server.ts）");
const answer: DatabaseCheck = copyDatabase(workerData as CopyRequest);
parentPort.postMessage(answer);
