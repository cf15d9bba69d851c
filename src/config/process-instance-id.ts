import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

let instanceId: string | null = null;

/**
 * scheduler.instance_id "empty means a unique per-process id" (docs/configuration.md): one
 * id for the life of the process (host, pid and a random part, so that two
 * containers with the same host name and pid 1 still differ), stable across
 * config reloads.
 */
export function processInstanceId(): string {
  instanceId ??= `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  return instanceId;
}
