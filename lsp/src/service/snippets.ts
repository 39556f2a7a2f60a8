/**
 * Snippets for a new unit, tool and verifier, offered where their keys go
 * (under `units:`, `tools:`, `verifiers:`). Each expands to a definition the
 * compiler accepts once its placeholders are filled; the tab stops walk the
 * names and the choices (recovery class, verifier kind) in order.
 */
export interface Snippet {
  label: string;
  detail: string;
  /** LSP snippet syntax, indented for its place (two spaces under the section). */
  body: string;
  /** The body as it reads once expanded with its defaults. */
  preview: string;
}

const SNIPPETS: Record<string, Snippet[]> = {
  units: [
    {
      label: "new unit",
      detail: "a unit with needs, tools, output and a verifier",
      body: "${1:U01}:\n    phase: ${2:extract}\n    needs: { ${3:input}: ${4|content,structure,policy,audience|} }\n    uses: [${5:tool}]\n    produces: [${6:artifact}]\n    verify: [${7:verifier}]\n    timeout: ${8:30m}",
      preview:
        "U01:\n    phase: extract\n    needs: { input: content }\n    uses: [tool]\n    produces: [artifact]\n    verify: [verifier]\n    timeout: 30m",
    },
  ],
  tools: [
    {
      label: "new tool",
      detail: "a tool with its recovery class",
      body: "${1:tool_name}: { class: ${2|read,idempotent,dedup,compensable,irreversible|} }",
      preview: "tool_name: { class: read }",
    },
  ],
  verifiers: [
    {
      label: "new verifier",
      detail: "a rule verifier with a check expression",
      body: '${1:verifier_name}: { kind: rule, check: "${2:count(result.items) >= 1}" }',
      preview: 'verifier_name: { kind: rule, check: "count(result.items) >= 1" }',
    },
  ],
};

/** The snippets for a key at `path` (a declaration under a section). */
export function snippetsAt(path: readonly string[]): Snippet[] {
  return path.length === 1 ? (SNIPPETS[path[0]!] ?? []) : [];
}
