/**
 * Which documents the server treats as contracts. A client may hand it every
 * YAML buffer (an editor configured by file type rather than name), and a
 * docker-compose.yml checked as a contract is only noise. A document is a
 * contract when its name ends in `.task.yaml` or `.task.yml`, or, for any
 * other name (or an unsaved buffer), when it has a top-level `contract:` key,
 * which every contract starts with. Anything else gets no diagnostics and no
 * answers.
 */
export const CONTRACT_NAME = /\.task\.ya?ml$/;

export function isContractDocument(uri: string, text: string): boolean {
  const path = uri.replace(/[?#].*$/, "");
  return CONTRACT_NAME.test(path) || /^contract[ \t]*:/m.test(text);
}
