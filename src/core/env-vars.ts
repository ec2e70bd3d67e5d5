/**
 * Environment variables as termsight reads them. Shared by the terminal database and the env
 * layer, so it sits in core: a variable exported empty counts as unset everywhere, because shells
 * and launchers export empty values for variables they clear.
 */

/** Environment variables, name to value. A variable exported empty counts as unset everywhere. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The value of `name`, or `undefined` when it is unset or exported empty. */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** Whether `name` is set to a non-empty value. */
export function envSet(env: Env, name: string): boolean {
  return envValue(env, name) !== undefined;
}
