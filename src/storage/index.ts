/**
 * Storage: repositories.ts is the table of contents of the repository
 * contracts (contracts/, one file per concept, with the opaque unit of work
 * `Tx`) and declares the `Storage` that bundles them with transactions; knex/
 * implements it on SQLite and PostgreSQL (the only code that imports knex).
 * Services receive repositories and a `Tx` from the composition root
 * (src/app.ts openStorage) and never see the query library. One conformance
 * suite (test/storage/conformance/) runs every repository on both engines.
 */
export type * from './repositories.js';
