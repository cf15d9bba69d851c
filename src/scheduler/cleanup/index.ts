/**
 * Cleanup: the built-in scheduled job that deletes expired rows. Flow:
 * cleanupJob (scheduled on scheduler.cleanup_cron, or `idp jobs run cleanup`)
 * → garbagePolicy (the config's retention times) →
 * Storage.collectGarbage(now, policy), which deletes table by table in batches of
 * cleanup.batch_size.
 */
export { cleanupJob } from './cleanup-job.js';
