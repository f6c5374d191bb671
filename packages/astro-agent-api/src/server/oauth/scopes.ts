import { SCOPES, type Scope } from '../../operations/operation.ts';

/**
 * RFC 6749 §3.3 — a space-delimited scope list. Returns the scopes in canonical order (duplicates
 * dropped), `allowed` when the value is absent or empty, or undefined when a scope is unknown or not
 * within `allowed`.
 */
export function parseScopeList(value: string | undefined, allowed: readonly Scope[] = SCOPES): Scope[] | undefined {
  if (value === undefined || value.trim() === '') return [...allowed];
  const requested = value.split(' ').filter(Boolean);
  if (!requested.every((name) => (allowed as readonly string[]).includes(name))) return undefined;
  return allowed.filter((scope) => requested.includes(scope));
}

/** Scopes stored as a space-delimited string, filtered to the known ones. */
export function scopesOf(value: string): Scope[] {
  return SCOPES.filter((scope) => value.split(' ').includes(scope));
}
