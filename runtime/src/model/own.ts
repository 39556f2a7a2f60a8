/**
 * Lookups by a name that comes from a contract (a unit, tool or verifier
 * name) into a table the user wrote (the handler module): own properties
 * only. With a plain `table[name]`, a tool named `constructor` found
 * `Object` and was "called", and its effect recorded COMMITTED though
 * nothing was sent; a unit named `hasOwnProperty` failed with a TypeError.
 */

/** `table[name]` when `name` is the table's own property, else undefined. */
export function ownEntry<T>(table: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return table !== undefined && table !== null && Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined;
}
