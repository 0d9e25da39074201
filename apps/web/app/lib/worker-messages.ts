import { type WorkerMessage, workerMessageSchema } from "@app/contract";

/** A message of the service worker (spec §7: NEW_PUSH_MESSAGE, NEW_PUSH_CLICK), or null for anything else. */
export function parseWorkerMessage(data: unknown): WorkerMessage | null {
  const parsed = workerMessageSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}
