/**
 * The lines that differ between two texts, as hunks: formatting answers with
 * edits for only the lines it changes (so the cursor, folds and markers on the
 * other lines stay put) and range formatting keeps the hunks inside its range.
 * Myers' O(ND) diff over lines after trimming the common ends; past a bound on
 * D (a text rewritten throughout) the middle becomes one hunk.
 */

/** Lines [fromStart, fromEnd) of the old text become lines [toStart, toEnd) of the new one. */
export interface LineHunk {
  fromStart: number;
  fromEnd: number;
  toStart: number;
  toEnd: number;
}

const MAX_EDIT_DISTANCE = 1000;

export function lineHunks(from: readonly string[], to: readonly string[]): LineHunk[] {
  let head = 0;
  while (head < from.length && head < to.length && from[head] === to[head]) head++;
  let tail = 0;
  while (tail < from.length - head && tail < to.length - head && from[from.length - 1 - tail] === to[to.length - 1 - tail]) tail++;
  const a = from.slice(head, from.length - tail);
  const b = to.slice(head, to.length - tail);
  if (a.length === 0 && b.length === 0) return [];
  const script = editScript(a, b);
  if (!script) return [{ fromStart: head, fromEnd: head + a.length, toStart: head, toEnd: head + b.length }];
  // group consecutive non-matching steps into hunks
  const hunks: LineHunk[] = [];
  let i = 0;
  let j = 0;
  let open: LineHunk | undefined;
  for (const step of script) {
    if (step === "=") {
      if (open) hunks.push(open);
      open = undefined;
      i++;
      j++;
      continue;
    }
    open ??= { fromStart: head + i, fromEnd: head + i, toStart: head + j, toEnd: head + j };
    if (step === "-") open.fromEnd = head + ++i;
    else open.toEnd = head + ++j;
  }
  if (open) hunks.push(open);
  return hunks;
}

/** "=" keep, "-" delete from a, "+" insert from b; undefined past MAX_EDIT_DISTANCE. */
function editScript(a: readonly string[], b: readonly string[]): ("=" | "-" | "+")[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  // every line of one side that the other lacks is a step of the script: when they are more than the
  // bound, say so in one pass instead of searching (a text re-indented throughout changes every line's length)
  if (n + m > max && unmatched(a, b) > max) return undefined;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, offset, n, m, d);
    }
  }
  return undefined;
}

/**
 * A lower bound on the edit distance, from line lengths alone (no hashing of
 * lines): lines of a length that one side has more of than the other must be
 * deleted or inserted. Lengths past the last bucket share it, which only
 * lowers the bound.
 */
function unmatched(a: readonly string[], b: readonly string[]): number {
  const count = new Int32Array(1024);
  for (const line of a) count[Math.min(line.length, 1023)]++;
  for (const line of b) count[Math.min(line.length, 1023)]--;
  let total = 0;
  for (const c of count) total += Math.abs(c);
  return total;
}

function backtrack(trace: Int32Array[], offset: number, n: number, m: number, depth: number): ("=" | "-" | "+")[] {
  const steps: ("=" | "-" | "+")[] = [];
  let x = n;
  let y = m;
  for (let d = depth; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      steps.push("=");
      x--;
      y--;
    }
    steps.push(x === prevX ? "+" : "-");
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    steps.push("=");
    x--;
    y--;
  }
  return steps.reverse();
}
