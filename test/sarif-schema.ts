/** A validator of SARIF 2.1.0 logs from the schema vendored in test/fixtures/sarif/ (no network). */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";

/** The schema is draft-04 (`id`); ajv 8 reads it as draft-07 once `id` is `$id` (it uses no other draft-04-only keyword). Formats are not checked; one language pattern is not valid with the u flag. */
export function sarifValidator() {
  const raw = JSON.parse(readFileSync(new URL("./fixtures/sarif/sarif-2.1.0-rtm.5.json", import.meta.url), "utf8")) as Record<
    string,
    unknown
  >;
  const { id, $schema: _draft04, ...rest } = raw;
  return new Ajv({ strict: false, allErrors: true, validateFormats: false, unicodeRegExp: false }).compile({ ...rest, $id: id as string });
}
