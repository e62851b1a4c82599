// Types of index.mjs (the fake S3), for the TypeScript tests and specs that start it.
export type FakeS3 = {
  /** The port it listens on. */
  port: number;
  /** http://host:port, for S3_ENDPOINT. */
  endpoint: string;
  /** The folder it stores in. */
  directory: string;
  /** Stops listening and ends its connections (the folder is left as it is). */
  close(): Promise<void>;
};

/** Starts the fake S3 on loopback (port 0: any free port), storing under `directory`, with these buckets. */
export function startFakeS3(options: {
  directory: string;
  buckets: string[];
  port?: number;
  host?: string;
}): Promise<FakeS3>;

/** Every part of a multipart upload but the last must be at least this big (S3's EntityTooSmall). */
export const MIN_PART_BYTES: number;
