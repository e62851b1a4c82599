import type { TestProject } from "vitest/node";
import { startS3Server } from "./s3-server";

declare module "vitest" {
  export interface ProvidedContext {
    s3Port: number;
  }
}

/** The "s3" vitest project: one local S3-compatible server for the run (vitest.config.ts). */
export default async function setup(project: TestProject) {
  const server = await startS3Server();
  project.provide("s3Port", server.port);
  return () => server.stop();
}
