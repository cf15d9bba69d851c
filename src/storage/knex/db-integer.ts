/**
 * An integer column as the driver returns it: PostgreSQL's BIGINT (epoch
 * milliseconds, counters) arrives as a string, SQLite's as a number. Read it
 * with Number(); write a number.
 */
export type DbInteger = number | string;
