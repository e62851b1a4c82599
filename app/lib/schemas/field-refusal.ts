import type { SubmissionResult } from "@conform-to/react";

/**
 * conform's reply for a post refused on one field, made from the message of an action that read
 * the form without parsing it with a schema (a file streamed to disk): the message shows under
 * that field, as a parsed submission's `reply({ fieldErrors })` would show it.
 */
export function fieldRefusal(field: string, message: string): SubmissionResult<string[]> {
  return { status: "error", error: { [field]: [message] }, state: { validated: { [field]: true } } };
}
