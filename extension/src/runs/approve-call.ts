/**
 * The `taskspec approve` call the editor makes with a person's authority: an
 * operator key file by path, or the gate's resume token in the environment
 * (TASKSPEC_RESUME_TOKEN), never among the arguments, which every user of
 * the machine can read (`ps`, /proc/PID/cmdline) while the call runs.
 */
export type Authority = { keyFile: string } | { token: string };

export function approveCall(
  store: string,
  run: string,
  unit: string,
  authority: Authority,
): { args: string[]; env: Record<string, string> } {
  const args = ["approve", run, unit, "--store", store];
  if ("keyFile" in authority) return { args: [...args, "--operator-key-file", authority.keyFile], env: {} };
  return { args, env: { TASKSPEC_RESUME_TOKEN: authority.token } };
}
