// The error a PostgreSQL run store that cannot be used ends with. Its own file, free of `pg`: the
// command line names it among the user's errors without loading the driver (~0.1 s of every start).
import { CodedError } from '../../core/coded-error.ts';

export class PostgresStoreError extends CodedError<'STORE_UNAVAILABLE'> {}
