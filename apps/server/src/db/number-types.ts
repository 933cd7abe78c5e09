/** PostgreSQL's type ids for counts and sums. */
export const INT8_OID = 20;
export const NUMERIC_OID = 1700;

/** Counts and sums read as JS numbers on every driver; our values stay far below 2^53. */
export const parseNumber = (value: string) => Number(value);
