// @ts-check
/**
 * The scheduler's tables: the background job queue and one lease row per
 * schedule. Times are epoch milliseconds (BIGINT), written from the
 * application's clock so that every instance compares them the same way.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('background_jobs', (t) => {
    t.string('id', 36).primary();
    t.string('kind', 100).notNullable();
    t.text('payload').notNullable();
    // pending → running → succeeded | failed (docs/scheduler.md); succeeded and failed are terminal.
    t.string('state', 16).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts').notNullable();
    t.bigInteger('run_at').notNullable();
    t.string('lease_owner', 255);
    t.bigInteger('lease_expires_at');
    t.text('last_error');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.bigInteger('finished_at');
    // Claiming scans due pending jobs and expired running ones; retention scans terminal ones by age.
    t.index(['state', 'run_at'], 'background_jobs_state_run_at');
    t.index(['state', 'lease_expires_at'], 'background_jobs_state_lease');
    t.index(['state', 'finished_at'], 'background_jobs_state_finished');
  });

  await knex.schema.createTable('scheduler_leases', (t) => {
    // The schedule's name (a scheduled job such as "cleanup").
    t.string('name', 100).primary();
    t.string('owner', 255);
    t.bigInteger('expires_at');
    // The cron tick most recently claimed: a tick is claimed by exactly one instance.
    t.bigInteger('last_tick_at').notNullable();
    t.bigInteger('last_started_at');
    t.bigInteger('last_finished_at');
    t.text('last_error');
    t.bigInteger('updated_at').notNullable();
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('scheduler_leases');
  await knex.schema.dropTableIfExists('background_jobs');
}
