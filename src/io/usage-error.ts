/**
 * A run that cannot start as asked (bad output name, unusable checkpoint): exit code 2, not 1.
 * Lives in io/ because the sinks refuse outputs with it; the batch CLI maps it to the exit code.
 */
export class UsageError extends Error {}
