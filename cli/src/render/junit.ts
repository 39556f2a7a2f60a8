/**
 * `--format junit`: JUnit XML, which most CI systems show as test results.
 * `check`: one test case per contract file, failed when it has a failing
 * diagnostic (an error, or a warning under --strict), with every diagnostic
 * in the failure's text. `drill`: one test case per drill case.
 */
export interface JunitCase {
  name: string;
  classname: string;
  timeSeconds?: number;
  /** Absent: the case passed. */
  failure?: { message: string; type: string; text: string };
}

export function renderJunit(suite: string, cases: JunitCase[]): string {
  const failures = cases.filter((c) => c.failure).length;
  let out = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(suite)}" tests="${cases.length}" failures="${failures}">\n`;
  out += `  <testsuite name="${xml(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">\n`;
  for (const c of cases) {
    const time = c.timeSeconds === undefined ? "" : ` time="${c.timeSeconds.toFixed(3)}"`;
    const open = `    <testcase name="${xml(c.name)}" classname="${xml(c.classname)}"${time}`;
    if (!c.failure) out += `${open}/>\n`;
    else
      out += `${open}>\n      <failure message="${xml(c.failure.message)}" type="${xml(c.failure.type)}">${xml(c.failure.text)}</failure>\n    </testcase>\n`;
  }
  return `${out}  </testsuite>\n</testsuites>\n`;
}

function xml(s: string): string {
  // XML 1.0 cannot carry most control characters even escaped: drop them
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}
