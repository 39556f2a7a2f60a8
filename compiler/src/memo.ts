/**
 * The compiler's incremental state, in one place. Every cache that outlives
 * one compile is made here (compiler/test/memo.test.ts fails if a module
 * makes its own): an editor recompiles on every keystroke, and these let the
 * units an edit did not touch carry their work over, keyed by the identity
 * of the objects they came from.
 *
 * The rule they all rest on:
 * - What the compiler hands out or keeps is never mutated once made: the
 *   plain contract value (parse/to-plain.ts) and every object in it, plans,
 *   scopes, compiled expressions, parsed expressions. A caller that wants to
 *   change one copies it. In the test build (TASKSPEC_FREEZE_PLAIN=1, set in
 *   vitest.config.ts) plain contract values and plans are deep-frozen, so a
 *   mutation anywhere throws in a test.
 * - yaml nodes are never mutated after parsing, with one exception: the
 *   incremental re-parse (parse/incremental.ts) shifts the ranges of the
 *   previous tree's nodes that follow the edit, in place. That is allowed
 *   because the previous result is consumed (CompileOptions.previous: it
 *   must not be read afterwards); no memo keeps a position (the per-node
 *   memos hold plain values and node counts, which do not depend on where a
 *   node is); and the containers on the path to the edit are new objects, so
 *   no per-map key index sees a changed item list.
 *
 * Entries go with their keys (WeakMap), so no memo keeps a document alive;
 * `clearMemos` empties them all, for tests that compare a cold compile with
 * a warm one.
 */

/** False in a process that compiles each text once (see keepAcrossCompiles). */
let carrying = true;

/**
 * `false` for a process that compiles each text once (the CLI's check,
 * compile, impact, graph): memos made with `acrossCompilesOnly` stop keeping
 * entries. Nothing would read them, and on a large contract they cost time
 * (an identity hash and a WeakMap entry per definition) and memory. Results
 * are the same either way (a cold compile equals a warm one).
 */
export function keepAcrossCompiles(keep: boolean): void {
  carrying = keep;
}

/** One memo: a WeakMap that the registry can empty. */
export class IdentityMemo<K extends object, V> {
  private map = new WeakMap<K, V>();
  constructor(
    readonly owner: string,
    /** Read only by a later compile (never twice within one), so not kept by a process that compiles once. */
    private readonly acrossCompilesOnly = false,
  ) {}
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  has(key: K): boolean {
    return this.map.has(key);
  }
  set(key: K, value: V): V {
    if (carrying || !this.acrossCompilesOnly) this.map.set(key, value);
    return value;
  }
  clear(): void {
    this.map = new WeakMap();
  }
}

/** The last value of something recomputed from a key, kept across compiles (scopes of the same input names). */
export class LastMemo<K, V> {
  private last: { key: K; value: V } | undefined;
  constructor(readonly owner: string) {}
  get(key: K): V | undefined {
    return this.last !== undefined && this.last.key === key ? this.last.value : undefined;
  }
  set(key: K, value: V): V {
    this.last = { key, value };
    return value;
  }
  clear(): void {
    this.last = undefined;
  }
}

/** Values by source text, bounded in entries (oldest out first) so hostile input cannot grow it. */
export class SourceMemo<V> {
  private map = new Map<string, V>();
  constructor(
    readonly owner: string,
    private readonly entries: number,
  ) {}
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, value: V): V {
    if (this.map.size >= this.entries) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, value);
    return value;
  }
  clear(): void {
    this.map.clear();
  }
}

type Memo = IdentityMemo<object, unknown> | LastMemo<unknown, unknown> | SourceMemo<unknown>;
const registry: Memo[] = [];

export function identityMemo<K extends object, V>(owner: string, options: { acrossCompilesOnly?: boolean } = {}): IdentityMemo<K, V> {
  const memo = new IdentityMemo<K, V>(owner, options.acrossCompilesOnly);
  registry.push(memo as IdentityMemo<object, unknown>);
  return memo;
}

export function lastMemo<K, V>(owner: string): LastMemo<K, V> {
  const memo = new LastMemo<K, V>(owner);
  registry.push(memo as LastMemo<unknown, unknown>);
  return memo;
}

export function sourceMemo<V>(owner: string, entries: number): SourceMemo<V> {
  const memo = new SourceMemo<V>(owner, entries);
  registry.push(memo as SourceMemo<unknown>);
  return memo;
}

/** Every memo's owner (module: what it holds), in the order the modules loaded. */
export function memoOwners(): string[] {
  return registry.map((m) => m.owner);
}

/** Empties every memo: the next compile starts cold. */
export function clearMemos(): void {
  for (const memo of registry) memo.clear();
}

/**
 * The test build's guard of the rule above: with TASKSPEC_FREEZE_PLAIN=1 the
 * values the compiler hands out are deep-frozen, so code that mutates one
 * throws in a test (strict mode) instead of corrupting a later compile.
 * Off otherwise: freezing costs time and the rule holds without it.
 */
export const FREEZE_PLAIN = typeof process !== "undefined" && process.env?.TASKSPEC_FREEZE_PLAIN === "1";

/** `value` with every object reachable from it frozen (a loop, so any depth works); only when FREEZE_PLAIN. */
export function frozenInTests<T>(value: T): T {
  if (!FREEZE_PLAIN) return value;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    // a frozen object was frozen whole by an earlier call (a definition kept by the memos): skip it
    if (v === null || typeof v !== "object" || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const key of Object.keys(v)) stack.push((v as Record<string, unknown>)[key]);
  }
  return value;
}
