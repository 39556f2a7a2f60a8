/**
 * Did-you-mean: the closest candidate by edit distance (with transpositions),
 * if it is close enough to be a plausible typo. Early exit keeps it cheap
 * against thousands of candidates; a SuggestionBudget keeps thousands of
 * unknown names against thousands of candidates from costing their product
 * (a hostile contract took minutes to check without it).
 */
export function closest(word: string, candidates: Iterable<string>, budget?: SuggestionBudget): string | undefined {
  if (budget && budget.left <= 0) return undefined;
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (budget) budget.left--;
    // `>` not `>=`: a candidate exactly as far may still win the tie on name, so the answer is independent of order.
    if (candidate === word || Math.abs(candidate.length - word.length) > bestDistance) continue;
    const d = distance(word.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      bestDistance = d;
      best = candidate;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** Candidate comparisons one compile may spend on suggestions: about half a second; later unknown names get none. */
export const SUGGESTION_COMPARISONS = 500_000;

/** What is left of one compile's comparisons (shared by the checks that suggest). */
export interface SuggestionBudget {
  left: number;
}

/** ` — did you mean 'x'?` or the empty string. */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? "" : ` — did you mean '${suggestion}'?`;
}

/** Optimal string alignment distance, giving up (returning `cap + 1`) once it must exceed `cap`. */
function distance(a: string, b: string, cap: number): number {
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      row.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > cap) return cap + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}
