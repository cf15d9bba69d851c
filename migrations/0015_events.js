// @ts-check
/**
 * The audit event log (issue #14): one row per thing that happened to an
 * account or to the configuration, written in the same transaction as the
 * change it records. `detail` is a small JSON object that never holds a
 * secret. Listed newest first and filtered by type, actor, subject and time.
 *
 * @param {import('knex').Knex} knex
 */
export async function up(knex) {
  await knex.schema.createTable('events', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('time').notNullable();
    t.string('type', 64).notNullable();
    // A user's sub, an admin's sub, or "config" for what `idp apply` did.
    t.string('actor', 255).notNullable();
    t.string('subject', 255);
    t.string('client_address', 64);
    t.string('client_id', 255);
    t.text('detail').notNullable();
    t.index(['time'], 'events_time');
    t.index(['type', 'time'], 'events_type_time');
    t.index(['actor', 'time'], 'events_actor_time');
    t.index(['subject', 'time'], 'events_subject_time');
  });
}

/** @param {import('knex').Knex} knex */
export async function down(knex) {
  await knex.schema.dropTableIfExists('events');
}
