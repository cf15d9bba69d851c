declare const unitOfWork: unique symbol;

/**
 * An opaque unit of work. Only the storage implementation knows what is
 * inside (a connection pool or an open transaction); everyone else passes
 * it along, so no service depends on the database library.
 */
export interface Tx {
  readonly [unitOfWork]: true;
}
