import type { JobHandler } from './job-handler.js';
import type { JobKind } from './job-payloads.js';

/**
 * Which handler runs which job kind in this process. A worker claims only
 * jobs of registered kinds, so a job whose kind this instance does not know
 * waits for an instance that does instead of failing.
 */
export interface JobHandlerRegistry {
  register<K extends JobKind>(kind: K, handler: JobHandler<K>): void;
  get(kind: string): JobHandler<JobKind> | undefined;
  kinds(): string[];
}

export function createJobHandlerRegistry(): JobHandlerRegistry {
  const handlers = new Map<string, JobHandler<JobKind>>();
  return {
    register(kind, handler) {
      if (handlers.has(kind)) throw new Error(`a handler for job kind "${kind}" is already registered`);
      handlers.set(kind, handler as unknown as JobHandler<JobKind>);
    },
    get: (kind) => handlers.get(kind),
    kinds: () => [...handlers.keys()],
  };
}
